#include "engine/search_results_store.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace squall {
namespace {

TEST(SearchResultsStoreTest, TheSameHitsAreKeptOnceAndNoHitsNotAtAll) {
  SearchResultsStore store;
  EXPECT_TRUE(store.keep({}).empty());
  EXPECT_EQ(store.size(), 0U);
  const std::vector<SearchResult> two{{"Acme", "https://acme.example/", "revenue", 3, 0.9},
                                      {"Beta", "https://beta.example/", "costs", 2, 0.7}};
  const std::span<const SearchResult> kept = store.keep(two);
  ASSERT_EQ(kept.size(), 2U);
  EXPECT_NE(kept.data(), two.data());  // a copy, not the caller's buffer
  EXPECT_EQ(kept[1].link, "https://beta.example/");
  EXPECT_EQ(kept[1].snippet_tokens, 2);
  EXPECT_EQ(kept[0].score, 0.9);
  // The same list again, from another buffer: the same copy.
  const std::vector<SearchResult> again = two;
  EXPECT_EQ(store.keep(again).data(), kept.data());
  EXPECT_EQ(store.size(), 1U);
}

TEST(SearchResultsStoreTest, ListsThatDifferInAnyHitOrViewAreKeptApart) {
  SearchResultsStore store;
  const std::vector<SearchResult> base{{"Acme", "https://acme.example/", "revenue", 3, 0.9}};
  const auto* kept = store.keep(base).data();
  auto differs = [&](auto edit) {
    std::vector<SearchResult> other = base;
    edit(other);
    return store.keep(other).data() != kept;
  };
  EXPECT_TRUE(differs([](auto& v) { v[0].score = 0.8; }));
  EXPECT_TRUE(differs([](auto& v) { v[0].snippet_tokens = 4; }));
  EXPECT_TRUE(differs([](auto& v) { v.push_back(v[0]); }));
  // The same characters at another address are another view: a search mock's hits view
  // its corpus, so equal answers are the same views; a second text is kept apart.
  const std::string link = "https://acme.example/";
  EXPECT_TRUE(differs([&](auto& v) { v[0].link = link; }));
  EXPECT_EQ(store.size(), 5U);
}

TEST(SearchResultsStoreTest, KeptListsStayWhereTheyAreAsTheStoreGrows) {
  // A Response views its hits for the run: the store's rehashing must not move them.
  SearchResultsStore store;
  const auto hit = [](int i) { return std::vector<SearchResult>{SearchResult{"t", "l", "s", i, 0.5}}; };
  std::vector<std::span<const SearchResult>> kept;
  for (int i = 0; i < 5000; ++i) kept.push_back(store.keep(hit(i)));
  EXPECT_EQ(store.size(), 5000U);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(kept[i].size(), 1U);
    EXPECT_EQ(kept[i][0].snippet_tokens, i);
    EXPECT_EQ(store.keep(hit(i)).data(), kept[i].data());
  }
}

}  // namespace
}  // namespace squall
