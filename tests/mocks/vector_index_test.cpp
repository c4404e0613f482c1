#include "mocks/vector_index.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace squall {
namespace {

// Three documents, N = 3. Searchable text ("title snippet") and word counts:
//   d0 "cat cat dog"        cat 2, dog 1          |d0| = 3 words
//   d1 "dog bird"           dog 1, bird 1         |d1| = 2 words
//   d2 "fish cat fish fish" fish 3, cat 1         |d2| = 4 words
// avgdl = (3 + 2 + 4) / 3 = 3. Document frequencies: cat 2, dog 2, bird 1, fish 1.
std::shared_ptr<const Corpus> three_documents() {
  return std::make_shared<const Corpus>(std::vector<Document>{
      {"Cat", "https://kb.example/d0", "cat dog", 0, ""},
      {"Dog", "https://kb.example/d1", "bird", 0, ""},
      {"Fish", "https://kb.example/d2", "cat fish fish", 0, ""},
  });
}

std::vector<SearchResult> search(const VectorIndex& index, std::string_view query, SearchMode mode,
                                 std::size_t top_k = 10, double min_score = 0) {
  VectorIndex::Scratch scratch;
  std::vector<SearchResult> out;
  index.search(query, mode, top_k, min_score, scratch, out);
  return out;
}

// A hit's document and score, to the 9 decimals the hand computations carry.
void expect_hit(const SearchResult& hit, std::string_view link, double score) {
  EXPECT_EQ(hit.link, link);
  EXPECT_NEAR(hit.score, score, 1e-9);
}

// BM25 (k1 = 1.2, b = 0.75), Lucene's idf = ln(1 + (N - n + 0.5) / (n + 0.5)):
//   idf(cat) = ln(1 + 1.5 / 2.5) = ln 1.6 = 0.470003629
//   d0: tf 2, |d| / avgdl = 1: 2 * 2.2 / (2 + 1.2 * 1) = 1.375      -> 0.646254990
//   d2: tf 1, |d| / avgdl = 4/3: norm = 0.25 + 0.75 * 4/3 = 1.25,
//       1 * 2.2 / (1 + 1.2 * 1.25) = 0.88                            -> 0.413603194
TEST(VectorIndexTest, Bm25MatchesHandComputedScores) {
  const VectorIndex index(three_documents());
  EXPECT_DOUBLE_EQ(index.average_length(), 3.0);
  const auto hits = search(index, "cat", SearchMode::keyword);
  ASSERT_EQ(hits.size(), 2U);
  expect_hit(hits[0], "https://kb.example/d0", 0.646254990);
  expect_hit(hits[1], "https://kb.example/d2", 0.413603194);
}

// Two words sum; idf(bird) = ln(1 + 2.5 / 1.5) = 0.980829253, and
//   d1: tf 1, |d| / avgdl = 2/3: norm = 0.25 + 0.75 * 2/3 = 0.75,
//       2.2 / (1 + 1.2 * 0.75) = 1.157894737                          -> 1.135697030
// so d1 (bird) outranks d0 (cat, 0.646254990) and d2 (cat, 0.413603194).
TEST(VectorIndexTest, Bm25SumsOverQueryWordsAndCountsRepeats) {
  const VectorIndex index(three_documents());
  const auto hits = search(index, "Cat, bird!", SearchMode::keyword);
  ASSERT_EQ(hits.size(), 3U);
  expect_hit(hits[0], "https://kb.example/d1", 1.135697030);
  expect_hit(hits[1], "https://kb.example/d0", 0.646254990);
  EXPECT_EQ(hits[2].link, "https://kb.example/d2");
  // A repeated query word is a second clause, as in Lucene: twice the score.
  const auto twice = search(index, "cat cat", SearchMode::keyword);
  ASSERT_EQ(twice.size(), 2U);
  EXPECT_NEAR(twice[0].score, 2 * 0.646254990, 1e-9);
}

// TF-IDF, w = (1 + ln tf) * idf, idf = ln((N + 1) / (n + 1)) + 1:
//   idf(cat) = idf(dog) = ln(4/3) + 1 = 1.287682072; idf(bird) = idf(fish) = ln 2 + 1 = 1.693147181
//   unknown word: u = ln 4 + 1 = 2.386294361
//   d0: w(cat) = (1 + ln 2) * 1.287682072 = 2.180235270, w(dog) = 1.287682072, |d0| = 2.532104057
//   d2: w(fish) = (1 + ln 3) * 1.693147181 = 3.553259480, w(cat) = 1.287682072, |d2| = 3.779388581
// Query "cat": w = 1.287682072, smoothed norm sqrt(1.287682072^2 + 2 u^2) = 3.612052972
//   cos(d0) = 1.287682072 * 2.180235270 / (2.532104057 * 3.612052972) = 0.306956158
//   cos(d2) = 1.287682072 * 1.287682072 / (3.779388581 * 3.612052972) = 0.121462339
// Mapped: 0.70 + 0.30 cos^0.4: d0 0.887047451, d2 0.829091578.
TEST(VectorIndexTest, DenseCosineMatchesHandComputedScores) {
  const VectorIndex index(three_documents());
  EXPECT_NEAR(index.cosine("cat", 0), 0.306956158, 1e-9);
  EXPECT_NEAR(index.cosine("cat", 2), 0.121462339, 1e-9);
  EXPECT_EQ(index.cosine("cat", 1), 0.0);
  const auto hits = search(index, "cat", SearchMode::dense);
  ASSERT_EQ(hits.size(), 2U);
  expect_hit(hits[0], "https://kb.example/d0", 0.887047451);
  expect_hit(hits[1], "https://kb.example/d2", 0.829091578);
  EXPECT_EQ(hits[0].title, "Cat");
  EXPECT_EQ(hits[0].snippet, "cat dog");
}

// Query "cat bird": norm sqrt(1.287682072^2 + 1.693147181^2 + 2 u^2) = 3.989194662
//   d1: w(dog) = 1.287682072, w(bird) = 1.693147181, |d1| = 2.127174768
//   cos(d1) = 1.693147181^2 / (2.127174768 * 3.989194662) = 0.337832184 -> 0.894357661
//   cos(d0) = 1.287682072 * 2.180235270 / (2.532104057 * 3.989194662) = 0.277936275 -> 0.879762603
//   cos(d2) = 1.287682072^2 / (3.779388581 * 3.989194662) = 0.109979192 -> 0.824063910
// A word the corpus does not know only lengthens the query: "cat zebra" scores lower.
TEST(VectorIndexTest, DenseRanksByMappedCosineAndUnknownWordsDilute) {
  const VectorIndex index(three_documents());
  const auto hits = search(index, "cat bird", SearchMode::dense);
  ASSERT_EQ(hits.size(), 3U);
  expect_hit(hits[0], "https://kb.example/d1", 0.894357661);
  expect_hit(hits[1], "https://kb.example/d0", 0.879762603);
  EXPECT_NEAR(hits[2].score, 0.824063910, 1e-9);
  EXPECT_LT(index.cosine("cat zebra", 0), index.cosine("cat", 0));
}

TEST(VectorIndexTest, MinScoreFiltersDenseHitsOnlyAndTopKCuts) {
  const VectorIndex index(three_documents());
  // 0.887047451 and 0.829091578: a threshold of 0.85 keeps d0 only, 0.75 both.
  EXPECT_EQ(search(index, "cat", SearchMode::dense, 10, 0.85).size(), 1U);
  EXPECT_EQ(search(index, "cat", SearchMode::dense, 10, 0.75).size(), 2U);
  EXPECT_EQ(search(index, "cat", SearchMode::dense, 10, 0.95).size(), 0U);
  // Keyword mode has no threshold: BM25 scores are not similarities.
  EXPECT_EQ(search(index, "cat", SearchMode::keyword, 10, 0.95).size(), 2U);
  // top_k keeps the best.
  const auto one = search(index, "cat bird", SearchMode::dense, 1);
  ASSERT_EQ(one.size(), 1U);
  EXPECT_EQ(one[0].link, "https://kb.example/d1");
  EXPECT_TRUE(search(index, "cat", SearchMode::dense, 0).empty());
}

TEST(VectorIndexTest, NoSharedWordNoHit) {
  const VectorIndex index(three_documents());
  EXPECT_TRUE(search(index, "zebra", SearchMode::dense).empty());
  EXPECT_TRUE(search(index, "zebra", SearchMode::keyword).empty());
  EXPECT_TRUE(search(index, "", SearchMode::dense).empty());
  EXPECT_TRUE(search(index, " ,. ", SearchMode::keyword).empty());
}

TEST(VectorIndexTest, TiesKeepCorpusOrder) {
  const VectorIndex index(std::make_shared<const Corpus>(std::vector<Document>{
      {"Other", "https://kb.example/0", "nothing here", 0, ""},
      {"Refund", "https://kb.example/1", "policy", 0, ""},
      {"Refund", "https://kb.example/2", "policy", 0, ""},
      {"Refund", "https://kb.example/3", "policy", 0, ""},
  }));
  for (const SearchMode mode : {SearchMode::dense, SearchMode::keyword}) {
    const auto hits = search(index, "refund policy", mode, 2);
    ASSERT_EQ(hits.size(), 2U);
    EXPECT_EQ(hits[0].link, "https://kb.example/1");
    EXPECT_EQ(hits[1].link, "https://kb.example/2");
    EXPECT_EQ(hits[0].score, hits[1].score);
  }
}

// One scratch serves many searches: scores of one query must not leak into the next.
TEST(VectorIndexTest, ScratchIsResetBetweenSearches) {
  const VectorIndex index(three_documents());
  VectorIndex::Scratch scratch;
  std::vector<SearchResult> first;
  std::vector<SearchResult> second;
  index.search("cat", SearchMode::keyword, 10, 0, scratch, first);
  index.search("bird", SearchMode::keyword, 10, 0, scratch, second);
  ASSERT_EQ(second.size(), 1U);
  EXPECT_NEAR(second[0].score, 1.135697030, 1e-9);
  std::vector<SearchResult> again;
  index.search("cat", SearchMode::keyword, 10, 0, scratch, again);
  ASSERT_EQ(again.size(), first.size());
  for (std::size_t i = 0; i < again.size(); ++i) EXPECT_EQ(again[i].score, first[i].score);
}

}  // namespace
}  // namespace squall
