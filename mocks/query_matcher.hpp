// QueryMatcher: the web-search mock's query language over a Corpus.
//
// Rules (web_search.hpp states them for users):
// - Text between double quotes (ASCII '"') is a phrase; it must occur verbatim in the
//   document's title or snippet, compared case-insensitively after whitespace runs are
//   collapsed, and on word boundaries ("acme corp" does not match "Acme Corporation",
//   as phrase search in real engines matches whole tokens). An unmatched quote opens a
//   phrase that runs to the end of the query, as in Google's syntax; "" is ignored.
// - Every other word (text.hpp: punctuation splits words) must occur as a whole word,
//   case-insensitively.
// - All of them must hold (AND). A query with neither words nor phrases matches nothing,
//   as search APIs refuse an empty query rather than return the whole index.
// Hits come in corpus order. The words of every term, phrases included, select candidates
// through the corpus's inverted index; phrases are then checked by substring search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/call.hpp"
#include "mocks/corpus.hpp"

namespace squall {

class QueryMatcher {
 public:
  // `corpus` must outlive the matcher.
  explicit QueryMatcher(const Corpus& corpus) : corpus_(corpus) {}

  // Appends to `out` the documents matching `query`, in corpus order, at most
  // `max_results` of them, as SearchResult views into the corpus. The matcher's scratch
  // buffers keep their capacity between calls, so once warm a search allocates only what
  // `out` needs.
  void match(std::string_view query, std::size_t max_results, std::vector<SearchResult>& out);

  // The number of documents matching `query` (no cap). For tests and corpus tooling.
  std::size_t count(std::string_view query);

 private:
  // The ids of the documents matching `query`, at most `max_results`. Agents retry and
  // re-issue the same query, and the corpus never changes, so the answer to the last
  // query is kept and returned again when the same query comes with the same cap.
  const std::vector<std::uint32_t>& hits_for(std::string_view query, std::size_t max_results);
  void parse(std::string_view query);
  void collect(std::size_t max_results);  // fills hits_
  bool phrases_match(const Document& doc) const;

  const Corpus& corpus_;
  std::string text_;                         // the normalized query; words_ and phrases_ view it
  std::vector<std::string_view> words_;      // every word, phrase words included
  std::vector<std::string_view> phrases_;
  std::vector<std::span<const std::uint32_t>> postings_;
  std::vector<std::uint32_t> hits_;
  // The query and cap hits_ answers. They start as the empty query with cap 0, whose
  // answer is no hits, which is what hits_ holds then.
  std::string hits_query_;
  std::size_t hits_max_results_ = 0;
};

}  // namespace squall
