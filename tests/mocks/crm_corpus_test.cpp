// The shipped CRM corpus and query list (scenarios/corpora/) against the web-search rules
// and the engine's simplify_query ladder: over-specific queries must really come back
// empty and really be rescued by simplification, or the quickstart scenarios show nothing.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/strategies/simplify_query.hpp"
#include "mocks/corpus.hpp"
#include "mocks/query_matcher.hpp"

namespace squall {
namespace {

const Corpus& crm() {
  static const Corpus corpus = Corpus::load(std::string(SQUALL_SOURCE_DIR) + "/scenarios/corpora/crm.jsonl");
  return corpus;
}

std::vector<std::string> crm_queries() {
  std::ifstream in(std::string(SQUALL_SOURCE_DIR) + "/scenarios/corpora/queries-crm.json");
  return nlohmann::json::parse(in).get<std::vector<std::string>>();
}

// The rung that first yields a hit, "direct" without simplification, "never" when none
// does; the walk is SimplifyQueryStrategy's (skip empty and already tried queries).
std::string rescuing_rung(QueryMatcher& matcher, const std::string& query) {
  if (matcher.count(query) > 0) return "direct";
  const SimplifyQueryConfig config;
  std::vector<std::string> tried{query};
  std::string base = query;
  for (const SimplifyStep step : config.steps) {
    std::string candidate = apply_simplify_step(step, base, config.filler_words);
    if (candidate.empty()) continue;
    base = candidate;
    if (std::find(tried.begin(), tried.end(), candidate) != tried.end()) continue;
    tried.push_back(candidate);
    if (matcher.count(candidate) > 0) return std::string(to_string(step));
  }
  return "never";
}

TEST(CrmCorpusTest, LoadsAllDocuments) {
  EXPECT_EQ(crm().documents().size(), 98U);
  for (const Document& doc : crm().documents()) {
    EXPECT_TRUE(doc.link.starts_with("https://")) << doc.link;
    EXPECT_GT(doc.snippet_tokens, 0) << doc.title;
  }
}

TEST(CrmCorpusTest, OverSpecificQueryIsEmptyUntilSimplified) {
  QueryMatcher m(crm());
  // The seed's example and the queries each rung of the ladder makes of it.
  EXPECT_EQ(m.count("\"Acme Corp\" Series B funding 2023 lead investor"), 0U);
  EXPECT_EQ(m.count("Acme Corp Series B funding 2023 lead investor"), 0U);  // drop_quotes
  EXPECT_EQ(m.count("Acme Corp Series B funding lead investor"), 0U);       // drop_years
  EXPECT_EQ(m.count("Acme Corp Series B funding"), 1U);                     // first_5_words
  EXPECT_EQ(m.count("Acme Corp Series"), 3U);                               // first_3_words
}

TEST(CrmCorpusTest, PhraseAndWholeWordRulesShapeHits) {
  QueryMatcher m(crm());
  EXPECT_EQ(m.count("\"Globex Systems Series C\""), 0U);  // the press release says "raises $80M in Series C"
  EXPECT_EQ(m.count("Globex Systems Series C"), 1U);
  EXPECT_EQ(m.count("Wingtip CRM API rate limit"), 0U);  // the page says "limits"
  EXPECT_EQ(m.count("Wingtip CRM API rate limits"), 1U);
  EXPECT_EQ(m.count("\"Acme Corp\" adhesives"), 1U);  // "unrelated to Acme Corp," in the other Acme
  EXPECT_EQ(m.count("\"Acme Corporation\""), 1U);
}

TEST(CrmCorpusTest, QueryListMixesDirectRescuedAndHopelessQueries) {
  // Derived by running the ladder over queries-crm.json: 15 queries match directly, 17
  // only after a simplification (drop_quotes 1, drop_years 2, first_5_words 2,
  // first_3_words 11, drop_filler_words 1), and 4 never match.
  QueryMatcher m(crm());
  std::map<std::string, int> by_rung;
  const auto queries = crm_queries();
  for (const std::string& q : queries) ++by_rung[rescuing_rung(m, q)];
  EXPECT_EQ(queries.size(), 36U);
  const std::map<std::string, int> expected{{"direct", 15},       {"drop_quotes", 1},    {"drop_years", 2},
                                            {"first_5_words", 2}, {"first_3_words", 11}, {"drop_filler_words", 1},
                                            {"never", 4}};
  EXPECT_EQ(by_rung, expected);
}

}  // namespace
}  // namespace squall
