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
#include "engine/runtime/text_memo.hpp"
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
  // re-issue the same queries (a run's tasks draw from a few templates, and their
  // simplifications are the same few rungs), and the corpus never changes, so answers are
  // kept per distinct query text: the first 4,096 distinct queries asked with the cap of
  // the first call are answered from answers_ after their first time; any other query, or
  // cap, is matched again each time. The memo changes no answer, only its cost; its memory
  // is bounded by its cap on entries and the corpus's size.
  const std::vector<std::uint32_t>& hits_for(std::string_view query, std::size_t max_results);
  void parse(std::string_view query);
  void collect(std::size_t max_results);  // fills hits_
  bool phrases_match(const Document& doc) const;

  const Corpus& corpus_;
  std::string text_;                     // the normalized query; words_ and phrases_ view it
  std::vector<std::string_view> words_;  // every word, phrase words included
  std::vector<std::string_view> phrases_;
  std::vector<std::span<const std::uint32_t>> postings_;
  std::vector<std::uint32_t> hits_;
  // Answers kept per query text (engine/runtime/text_memo.hpp), for the cap of the first
  // query asked (answers_max_results_); a query with another cap is matched afresh.
  TextMemo<std::vector<std::uint32_t>> answers_;
  std::size_t answers_max_results_ = 0;
};

}  // namespace squall
