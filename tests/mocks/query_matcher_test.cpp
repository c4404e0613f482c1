#include "mocks/query_matcher.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace squall {
namespace {

// Titles name the document so that failures read well; snippets carry the text under test.
Corpus small_corpus() {
  return Corpus({
      {"d0", "l0", "Acme Corp closes its Series B funding round.", 0, ""},
      {"d1", "l1", "Acme Corporation reports revenue.", 0, ""},
      {"d2", "l2", "ACME CORP pricing: Growth plan, $1,999 per month", 0, ""},
      {"d3", "l3", "The Series-B round of Globex; Acme's partner", 0, ""},
      {"d4", "l4", "Zürich office opens; acme corp\tannounces", 0, ""},
  });
}

std::vector<std::string> titles(QueryMatcher& m, std::string_view query, std::size_t max = 100) {
  std::vector<SearchResult> hits;
  m.match(query, max, hits);
  std::vector<std::string> out;
  for (const auto& h : hits) out.emplace_back(h.title);
  return out;
}

using Titles = std::vector<std::string>;

TEST(QueryMatcherTest, TermsMatchWholeWordsCaseInsensitively) {
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  EXPECT_EQ(titles(m, "acme corp"), (Titles{"d0", "d2", "d4"}));  // "Corporation" is not "corp"
  EXPECT_EQ(titles(m, "ACME"), (Titles{"d0", "d1", "d2", "d3", "d4"}));
  EXPECT_EQ(titles(m, "fund"), Titles{});  // no prefix matching: "funding" is another word
}

TEST(QueryMatcherTest, AllTermsMustMatch) {
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  EXPECT_EQ(titles(m, "acme series"), (Titles{"d0", "d3"}));
  EXPECT_EQ(titles(m, "acme series 2023"), Titles{});
}

TEST(QueryMatcherTest, PunctuationSplitsWords) {
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  EXPECT_EQ(titles(m, "series-b"), (Titles{"d0", "d3"}));  // the words "series" and "b"
  EXPECT_EQ(titles(m, "acme's"), (Titles{"d3"}));          // the words "acme" and "s"
  EXPECT_EQ(titles(m, "1,999"), (Titles{"d2"}));
  EXPECT_EQ(titles(m, "zürich"), (Titles{"d4"}));  // non-ASCII bytes are word bytes
}

TEST(QueryMatcherTest, PhrasesMatchVerbatimOnWordBoundaries) {
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  EXPECT_EQ(titles(m, "\"Acme Corp\""), (Titles{"d0", "d2", "d4"}));  // tab collapsed in d4; not d1
  EXPECT_EQ(titles(m, "\"series b\""), (Titles{"d0"}));               // d3 has "Series-B"
  EXPECT_EQ(titles(m, "\"series-b\""), (Titles{"d3"}));
  EXPECT_EQ(titles(m, "\"corp closes\" \"funding round\""), (Titles{"d0"}));
  EXPECT_EQ(titles(m, "\"closes  ITS\" acme"), (Titles{"d0"}));  // whitespace runs collapse
  EXPECT_EQ(titles(m, "\"acme corp pricing\" growth"), (Titles{"d2"}));
  EXPECT_EQ(titles(m, "\"Series B\" funding 2023"), Titles{});
}

TEST(QueryMatcherTest, UnmatchedQuoteRunsToTheEnd) {
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  EXPECT_EQ(titles(m, "acme \"series b funding"), (Titles{"d0"}));
  EXPECT_EQ(titles(m, "acme \"funding series"), Titles{});  // a phrase, not two terms
}

TEST(QueryMatcherTest, EmptyQueriesMatchNothing) {
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  EXPECT_EQ(titles(m, ""), Titles{});
  EXPECT_EQ(titles(m, "  ,; "), Titles{});
  EXPECT_EQ(titles(m, "\"\""), Titles{});
}

TEST(QueryMatcherTest, PunctuationOnlyPhraseIsSearchedVerbatim) {
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  EXPECT_EQ(titles(m, "\"$1,\""), (Titles{"d2"}));
  EXPECT_EQ(titles(m, "\"; acme\""), (Titles{"d3", "d4"}));
}

TEST(QueryMatcherTest, MaxResultsKeepsTheFirstInCorpusOrder) {
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  EXPECT_EQ(titles(m, "acme", 2), (Titles{"d0", "d1"}));
  EXPECT_EQ(titles(m, "acme", 0), Titles{});
  EXPECT_EQ(m.count("acme"), 5U);
}

TEST(QueryMatcherTest, ResultsViewTheCorpus) {
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  std::vector<SearchResult> hits;
  m.match("pricing", 10, hits);
  ASSERT_EQ(hits.size(), 1U);
  const Document& doc = c.documents()[2];
  EXPECT_EQ(hits[0].title.data(), doc.title.data());
  EXPECT_EQ(hits[0].link.data(), doc.link.data());
  EXPECT_EQ(hits[0].snippet.data(), doc.snippet.data());
  EXPECT_EQ(hits[0].snippet_tokens, doc.snippet_tokens);
}

TEST(QueryMatcherTest, MatchAppendsToExistingResults) {
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  std::vector<SearchResult> hits;
  m.match("pricing", 10, hits);
  m.match("revenue", 10, hits);
  ASSERT_EQ(hits.size(), 2U);
  EXPECT_EQ(hits[1].title, "d1");
}

TEST(QueryMatcherTest, RepeatedQueriesGiveTheSameHitsWhateverCameBetween) {
  // The matcher reuses the answer to its last query; the cap is part of that query.
  const Corpus c = small_corpus();
  QueryMatcher m(c);
  EXPECT_EQ(titles(m, "acme corp", 2), (Titles{"d0", "d2"}));
  EXPECT_EQ(titles(m, "acme corp", 2), (Titles{"d0", "d2"}));
  EXPECT_EQ(titles(m, "acme corp", 3), (Titles{"d0", "d2", "d4"}));
  EXPECT_EQ(m.count("acme corp"), 3U);
  EXPECT_EQ(titles(m, "acme corp", 1), (Titles{"d0"}));
  EXPECT_EQ(titles(m, "pricing", 1), (Titles{"d2"}));
  EXPECT_EQ(titles(m, "acme corp", 1), (Titles{"d0"}));
  EXPECT_EQ(titles(m, "", 0), Titles{});  // the state a new matcher starts in
  EXPECT_EQ(titles(m, "acme", 0), Titles{});
}

TEST(QueryMatcherTest, AnswersKeptPerQueryAreTheAnswersMatchedAfresh) {
  // The matcher keeps answers per distinct query for the first call's cap; other caps are
  // matched again. Alternate queries and caps: every answer equals a fresh matcher's.
  const Corpus corpus = small_corpus();
  QueryMatcher kept(corpus);
  const std::vector<std::pair<std::string_view, std::size_t>> asks{
      {"acme corp", 2},    {"\"series b\"", 2}, {"acme corp", 2}, {"acme corp", 100},  {"acme", 2},
      {"\"series b\"", 2}, {"acme corp", 100},  {"acme corp", 2}, {"nothing here", 2}, {"acme", 1}};
  for (const auto& [query, max] : asks) {
    QueryMatcher fresh(corpus);
    EXPECT_EQ(titles(kept, query, max), titles(fresh, query, max)) << query << " " << max;
  }
}

}  // namespace
}  // namespace squall
