#include "mocks/query_matcher.hpp"

#include <algorithm>
#include <limits>

#include "mocks/text.hpp"

namespace squall {
namespace {

// True when `phrase` occurs in `text` and each end of the occurrence that is a word byte
// in the phrase is not glued to a word byte of the text.
bool contains_on_boundaries(std::string_view text, std::string_view phrase) {
  for (std::size_t pos = text.find(phrase); pos != std::string_view::npos; pos = text.find(phrase, pos + 1)) {
    const std::size_t end = pos + phrase.size();
    const bool left_ok = pos == 0 || !is_word_byte(phrase.front()) || !is_word_byte(text[pos - 1]);
    const bool right_ok = end == text.size() || !is_word_byte(phrase.back()) || !is_word_byte(text[end]);
    if (left_ok && right_ok) return true;
  }
  return false;
}

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

void QueryMatcher::parse(std::string_view query) {
  text_.clear();
  words_.clear();
  phrases_.clear();
  // Normalized first, in full, so that the views taken below never dangle.
  append_normalized(query, text_);
  const std::string_view text = text_;
  const auto add_word = [this](std::string_view word) { words_.push_back(word); };
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '"') {
      std::size_t close = text.find('"', i + 1);
      if (close == std::string_view::npos) close = text.size();
      const std::string_view phrase = trim_spaces(text.substr(i + 1, close - i - 1));
      if (!phrase.empty()) {
        phrases_.push_back(phrase);
        for_each_word(phrase, add_word);
      }
      i = close + 1;
    } else {
      std::size_t next = text.find('"', i);
      if (next == std::string_view::npos) next = text.size();
      for_each_word(text.substr(i, next - i), add_word);
      i = next;
    }
  }
}

bool QueryMatcher::phrases_match(const Document& doc) const {
  return std::all_of(phrases_.begin(), phrases_.end(),
                     [&](std::string_view phrase) { return contains_on_boundaries(doc.searchable, phrase); });
}

void QueryMatcher::collect(std::size_t max_results) {
  hits_.clear();
  if (max_results == 0 || (words_.empty() && phrases_.empty())) return;
  const auto& docs = corpus_.documents();
  if (words_.empty()) {  // phrases of punctuation only, such as "--": no index to use
    for (std::uint32_t id = 0; id < docs.size() && hits_.size() < max_results; ++id) {
      if (phrases_match(docs[id])) hits_.push_back(id);
    }
    return;
  }
  postings_.clear();
  for (const std::string_view word : words_) {
    const auto list = corpus_.postings(word);
    if (list.empty()) return;  // a word no document has: nothing can match
    postings_.push_back(list);
  }
  // Walk the rarest word's documents and look each up in the other lists.
  const auto rarest = std::min_element(postings_.begin(), postings_.end(),
                                       [](const auto& a, const auto& b) { return a.size() < b.size(); });
  for (const std::uint32_t id : *rarest) {
    const bool in_all = std::all_of(postings_.begin(), postings_.end(), [id](const auto& list) {
      return std::binary_search(list.begin(), list.end(), id);
    });
    if (in_all && phrases_match(docs[id])) {
      hits_.push_back(id);
      if (hits_.size() == max_results) return;
    }
  }
}

const std::vector<std::uint32_t>& QueryMatcher::hits_for(std::string_view query, std::size_t max_results) {
  const auto match_afresh = [this, max_results](std::string_view text) -> const std::vector<std::uint32_t>& {
    parse(text);
    collect(max_results);
    return hits_;
  };
  if (answers_.size() == 0) answers_max_results_ = max_results;
  if (max_results != answers_max_results_) return match_afresh(query);
  return answers_.get(query, match_afresh);
}

void QueryMatcher::match(std::string_view query, std::size_t max_results, std::vector<SearchResult>& out) {
  const std::vector<std::uint32_t>& hits = hits_for(query, max_results);
  out.reserve(out.size() + hits.size());
  for (const std::uint32_t id : hits) {
    const Document& doc = corpus_.documents()[id];
    out.push_back(SearchResult{doc.title, doc.link, doc.snippet, doc.snippet_tokens});
  }
}

std::size_t QueryMatcher::count(std::string_view query) {
  return hits_for(query, std::numeric_limits<std::size_t>::max()).size();
}

}  // namespace squall
