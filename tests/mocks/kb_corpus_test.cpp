// The shipped knowledge base (scenarios/corpora/kb.jsonl) against the dense score mapping
// of mocks/vector_index.hpp: seed 001's thresholds must mean on it what they mean in
// production. The queries and their figures are the calibration table of
// docs/mocks/vector_search.md; a change to the index that moves them fails here.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "mocks/vector_index.hpp"

namespace squall {
namespace {

constexpr std::string_view kArticles = "https://help.acmecorp.example/articles/";

const VectorIndex& kb() {
  static const VectorIndex index(
      std::make_shared<const Corpus>(Corpus::load(std::string(SQUALL_SOURCE_DIR) + "/scenarios/corpora/kb.jsonl")));
  return index;
}

std::vector<SearchResult> search(std::string_view query, SearchMode mode, double min_score = 0) {
  VectorIndex::Scratch scratch;
  std::vector<SearchResult> out;
  kb().search(query, mode, 200, min_score, scratch, out);
  return out;
}

// Expects `article` (a slug) to be the first hit of `query`.
void expect_first(std::string_view query, SearchMode mode, double min_score, std::string_view article) {
  const auto hits = search(query, mode, min_score);
  ASSERT_FALSE(hits.empty()) << to_string(mode);
  EXPECT_EQ(hits[0].link, std::string(kArticles) + std::string(article)) << to_string(mode);
}

struct Case {
  std::string_view query;
  std::string_view article;  // the slug of the document that answers it
};

TEST(KbCorpusTest, LoadsWithUniqueLinks) {
  const auto& docs = kb().corpus().documents();
  EXPECT_EQ(docs.size(), 105U);
  std::set<std::string> links;
  for (const Document& d : docs) EXPECT_TRUE(links.insert(d.link).second) << d.link;
}

// A specific question clears 0.85 on its answer, which ranks first in both modes.
TEST(KbCorpusTest, SpecificQuestionsClearTheFirstThreshold) {
  const std::vector<Case> cases{
      {"How do I reset my password?", "reset-password"},
      {"How do I set up two-factor authentication with an authenticator app?", "two-factor-setup"},
      {"I lost my phone and cannot pass two-factor authentication", "two-factor-lost-device"},
      {"Configure SAML single sign-on with Okta", "sso-okta"},
      {"How do I verify the HMAC signature of a webhook?", "webhook-signatures"},
      {"What are the API rate limits and what does a 429 mean?", "api-rate-limits"},
      {"How do I track an ocean container by bill of lading?", "ocean-container-tracking"},
      {"How do I add a VAT number to my invoices?", "vat-tax-id"},
      {"Import shipments in bulk from a CSV file", "bulk-import-csv"},
      {"How are estimated delivery dates predicted?", "eta-prediction"},
      {"Receive EDI 214 shipment status messages", "edi-214"},
      {"Account locked after too many failed sign-in attempts", "account-locked"},
      {"Connect my FedEx account", "connect-fedex"},
      {"Use idempotency keys to retry API requests safely", "idempotency-keys"},
      {"Can I get a refund on an annual plan?", "refund-policy"},
      {"Request the SOC 2 Type II report", "soc2-report"},
      {"Track air freight by air waybill number", "air-waybill-tracking"},
      {"Carbon emissions report of shipments", "carbon-emissions"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.query);
    expect_first(c.query, SearchMode::dense, 0.85, c.article);
    expect_first(c.query, SearchMode::keyword, 0, c.article);
  }
}

// Two specific questions whose wording shares few words with their answer ("retries" is not
// "retry", "charges cost" meets "charges" once): ranked first but just below 0.85, as
// wording mismatches also cost real embeddings a few hundredths. Recorded, not hidden.
TEST(KbCorpusTest, NearMissesRankFirstJustBelowTheThreshold) {
  for (const Case& c : std::vector<Case>{{"How much do shipment overage charges cost?", "overage-charges"},
                                         {"How do webhook retries work when my endpoint fails?", "webhook-retries"}}) {
    SCOPED_TRACE(c.query);
    const auto dense = search(c.query, SearchMode::dense);
    ASSERT_FALSE(dense.empty());
    EXPECT_EQ(dense[0].link, std::string(kArticles) + std::string(c.article));
    EXPECT_GE(dense[0].score, 0.83);
    EXPECT_LT(dense[0].score, 0.85);
  }
}

// A vague query's best hit scores between 0.75 and 0.85: the first threshold returns
// nothing, the second does.
TEST(KbCorpusTest, VagueQueriesNeedTheSecondThreshold) {
  for (const std::string_view query : {"billing", "my shipment is late", "notifications", "security",
                                       "it is not working", "api", "money back", "where is my package", "driver"}) {
    SCOPED_TRACE(query);
    EXPECT_TRUE(search(query, SearchMode::dense, 0.85).empty());
    EXPECT_FALSE(search(query, SearchMode::dense, 0.75).empty());
  }
  // Words the knowledge base does not use ("login": its articles say "sign in") find nothing.
  EXPECT_TRUE(search("login problems", SearchMode::dense).empty());
}

// An exact identifier is a one-word query: dense mode needs the second threshold, and BM25
// puts the one document that has it first.
TEST(KbCorpusTest, ExactIdentifiersAreFoundByKeyword) {
  for (const Case& c : std::vector<Case>{{"MAEU", "connect-ocean-carriers"},
                                         {"ISO 6346", "tracking-number-formats"},
                                         {"PKCE", "oauth-apps"},
                                         {"GLEC", "carbon-emissions"}}) {
    SCOPED_TRACE(c.query);
    EXPECT_TRUE(search(c.query, SearchMode::dense, 0.85).empty());
    expect_first(c.query, SearchMode::dense, 0.75, c.article);
    expect_first(c.query, SearchMode::keyword, 0, c.article);
  }
}

}  // namespace
}  // namespace squall
