#include "mocks/vector_index.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "mocks/text.hpp"

namespace squall {
namespace {

// The query norm's smoothing, in words no document contains (vector_index.hpp).
constexpr double kUnseenWords = 2;

double sublinear_tf(std::uint32_t tf) { return 1.0 + std::log(static_cast<double>(tf)); }

// Sorts `words` and calls f(word, count) once per distinct word, in sorted order, so that
// sums over a query's words are taken in one fixed order.
template <class F>
void for_each_distinct(std::vector<std::string_view>& words, F&& f) {
  std::sort(words.begin(), words.end());
  for (std::size_t i = 0; i < words.size();) {
    std::size_t j = i + 1;
    while (j < words.size() && words[j] == words[i]) ++j;
    f(words[i], static_cast<std::uint32_t>(j - i));
    i = j;
  }
}

}  // namespace

VectorIndex::VectorIndex(std::shared_ptr<const Corpus> corpus) : corpus_(std::move(corpus)) {
  assert(corpus_ != nullptr);
  const std::vector<Document>& docs = corpus_->documents();
  const auto n_docs = static_cast<std::uint32_t>(docs.size());

  // Word -> (document, count) in document order, and each document's length in words:
  // word ids from a hash map (linear in the text: a std::map of millions of distinct
  // words took minutes), then terms numbered in word order, as term_of searches them and
  // as the norms below are summed.
  std::unordered_map<std::string_view, std::uint32_t> ids;  // views into the corpus's documents
  std::vector<std::string_view> by_id;
  std::vector<std::uint32_t> counts;                               // id -> documents holding it
  std::vector<std::pair<std::uint32_t, std::uint32_t>> doc_terms;  // (id, tf) by document
  std::vector<std::uint32_t> doc_starts;
  std::vector<std::uint32_t> lengths(n_docs, 0);
  std::vector<std::string_view> words;
  std::uint64_t total_length = 0;
  for (std::uint32_t d = 0; d < n_docs; ++d) {
    words.clear();
    for_each_word(docs[d].searchable, [&](std::string_view w) { words.push_back(w); });
    lengths[d] = static_cast<std::uint32_t>(words.size());
    total_length += words.size();
    doc_starts.push_back(static_cast<std::uint32_t>(doc_terms.size()));
    for_each_distinct(words, [&](std::string_view w, std::uint32_t tf) {
      const auto [it, added] = ids.try_emplace(w, static_cast<std::uint32_t>(by_id.size()));
      if (added) {
        by_id.push_back(w);
        counts.push_back(0);
      }
      ++counts[it->second];
      doc_terms.emplace_back(it->second, tf);
    });
  }
  doc_starts.push_back(static_cast<std::uint32_t>(doc_terms.size()));
  avgdl_ = n_docs > 0 ? static_cast<double>(total_length) / n_docs : 0;
  const double n = n_docs;
  unknown_idf_ = std::log((n + 1) / 1) + 1;

  std::vector<std::uint32_t> order(by_id.size());  // term -> id, in word order
  std::iota(order.begin(), order.end(), 0U);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return by_id[a] < by_id[b]; });
  std::vector<std::uint32_t> term_of_id(by_id.size());
  offsets_.assign(by_id.size() + 1, 0);
  words_.reserve(by_id.size());
  for (std::uint32_t t = 0; t < order.size(); ++t) {
    term_of_id[order[t]] = t;
    offsets_[t + 1] = offsets_[t] + counts[order[t]];
    words_.emplace_back(by_id[order[t]]);
  }
  postings_.resize(doc_terms.size());
  std::vector<std::uint32_t> next(offsets_.begin(), offsets_.end() - 1);
  for (std::uint32_t d = 0; d < n_docs; ++d) {  // documents in order: every list ascending
    for (std::uint32_t k = doc_starts[d]; k < doc_starts[d + 1]; ++k) {
      postings_[next[term_of_id[doc_terms[k].first]]++] = Posting{d, doc_terms[k].second, 0, 0};
    }
  }
  weigh_postings(n, lengths);
}

void VectorIndex::weigh_postings(double n, const std::vector<std::uint32_t>& lengths) {
  idf_dense_.reserve(words_.size());
  idf_bm25_.reserve(words_.size());
  std::vector<double> norm2(lengths.size(), 0.0);  // |d|^2 of each document's TF-IDF vector
  // Term by term, then document by document: the order every norm's sum is taken in.
  for (std::size_t t = 0; t < words_.size(); ++t) {
    const double df = static_cast<double>(offsets_[t + 1] - offsets_[t]);
    const double idf_dense = std::log((n + 1) / (df + 1)) + 1;
    idf_dense_.push_back(idf_dense);
    idf_bm25_.push_back(std::log(1 + (n - df + 0.5) / (df + 0.5)));
    for (std::uint32_t k = offsets_[t]; k < offsets_[t + 1]; ++k) {
      Posting& p = postings_[k];
      const double w = sublinear_tf(p.tf) * idf_dense;
      norm2[p.doc] += w * w;
      const double norm = 1 - kBm25B + kBm25B * lengths[p.doc] / avgdl_;
      p.dense = w;
      p.bm25 = p.tf * (kBm25K1 + 1) / (p.tf + kBm25K1 * norm);
    }
  }
  // Every posting's document has a word, so its norm is positive.
  for (Posting& p : postings_) p.dense /= std::sqrt(norm2[p.doc]);
}

std::int64_t VectorIndex::term_of(std::string_view word) const {
  const auto it = std::lower_bound(words_.begin(), words_.end(), word,
                                   [](const std::string& a, std::string_view b) { return a < b; });
  if (it == words_.end() || *it != word) return -1;
  return it - words_.begin();
}

double VectorIndex::parse(std::string_view query, SearchMode mode, Scratch& scratch) const {
  scratch.text.clear();
  append_normalized(query, scratch.text);
  scratch.words.clear();
  for_each_word(scratch.text, [&](std::string_view w) { scratch.words.push_back(w); });
  scratch.terms.clear();
  scratch.term_weights.clear();
  double norm2 = 0;
  for_each_distinct(scratch.words, [&](std::string_view w, std::uint32_t tf) {
    const std::int64_t term = term_of(w);
    if (mode == SearchMode::dense) {
      const double weight = sublinear_tf(tf) * (term >= 0 ? idf_dense_[term] : unknown_idf_);
      norm2 += weight * weight;
      if (term < 0) return;
      scratch.terms.push_back(static_cast<std::uint32_t>(term));
      scratch.term_weights.push_back(weight);
    } else if (term >= 0) {
      scratch.terms.push_back(static_cast<std::uint32_t>(term));
      scratch.term_weights.push_back(tf * idf_bm25_[term]);
    }
  });
  return std::sqrt(norm2 + kUnseenWords * unknown_idf_ * unknown_idf_);
}

void VectorIndex::search(std::string_view query, SearchMode mode, std::size_t top_k, double min_score, Scratch& scratch,
                         std::vector<SearchResult>& out) const {
  if (top_k == 0) return;
  const double query_norm = parse(query, mode, scratch);
  const std::vector<Document>& docs = corpus_->documents();
  if (scratch.scores.size() != docs.size()) scratch.scores.assign(docs.size(), 0.0);
  scratch.touched.clear();
  const bool dense = mode == SearchMode::dense;
  for (std::size_t i = 0; i < scratch.terms.size(); ++i) {
    const double weight = scratch.term_weights[i];
    for (const Posting& p : postings(scratch.terms[i])) {
      double& score = scratch.scores[p.doc];
      // Every contribution is positive (idf > 0, tf >= 1), so 0 means untouched.
      if (score == 0) scratch.touched.push_back(p.doc);
      score += weight * (dense ? p.dense : p.bm25);
    }
  }
  // Ranked by the raw sum (the dot product in dense mode): the mapping is increasing, so
  // only the hits returned are mapped. The threshold is applied to the raw sum through the
  // mapping's inverse, lowered by a relative 1e-9 so that rounding cannot drop a hit, and
  // then exactly to the mapped scores of the hits returned.
  double raw_min = 0;
  if (dense && min_score > kDenseScoreFloor) {
    const double cos_min =
        std::pow(std::min((min_score - kDenseScoreFloor) / kDenseScoreSpan, 1.0), 1.0 / kDenseScorePower);
    raw_min = cos_min * query_norm * (1 - 1e-9);
  }
  scratch.ranked.clear();
  for (const std::uint32_t doc : scratch.touched) {
    const double raw = scratch.scores[doc];
    scratch.scores[doc] = 0;
    if (raw >= raw_min) scratch.ranked.emplace_back(raw, doc);
  }
  const std::size_t k = std::min(top_k, scratch.ranked.size());
  std::partial_sort(
      scratch.ranked.begin(), scratch.ranked.begin() + static_cast<std::ptrdiff_t>(k), scratch.ranked.end(),
      [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  for (std::size_t i = 0; i < k; ++i) {
    double score = scratch.ranked[i].first;
    if (dense) {
      score = kDenseScoreFloor + kDenseScoreSpan * std::pow(std::min(score / query_norm, 1.0), kDenseScorePower);
      if (score < min_score) break;  // the rest score no higher
    }
    const Document& d = docs[scratch.ranked[i].second];
    out.push_back(SearchResult{d.title, d.link, d.snippet, d.snippet_tokens, score});
  }
}

double VectorIndex::cosine(std::string_view query, std::uint32_t doc) const {
  Scratch scratch;
  const double query_norm = parse(query, SearchMode::dense, scratch);
  double dot = 0;
  for (std::size_t i = 0; i < scratch.terms.size(); ++i) {
    for (const Posting& p : postings(scratch.terms[i])) {
      if (p.doc == doc) dot += scratch.term_weights[i] * p.dense;
    }
  }
  return dot / query_norm;
}

}  // namespace squall
