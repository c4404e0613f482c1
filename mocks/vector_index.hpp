// VectorIndex: the vector-search mock's two rankings over a Corpus, built once per corpus
// file and shared read-only by every provider (and every run of a sweep) that uses it.
//
// Both rankings read the same words: a document's title and snippet, and a query, cut by
// mocks/text.hpp (ASCII case folding, punctuation splits words, no stemming and no stop
// list, so "reset" and "resetting" are two words). A posting list per word holds the
// documents that contain it with the word's count there, and each posting carries its two
// precomputed term weights, so a query touches only the documents that share a word with
// it and does one multiply-add per posting and query word.
//
// Dense mode (the stand-in for embedding similarity; no model weights):
//   TF-IDF vectors with scikit-learn's TfidfVectorizer(sublinear_tf=True, smooth_idf=True)
//   weighting, the textbook choice for cosine retrieval (Manning, Raghavan & Schuetze,
//   "Introduction to Information Retrieval", 2008, sections 6.2-6.4):
//     w(t, x) = (1 + ln tf(t, x)) * idf(t),   idf(t) = ln((N + 1) / (n(t) + 1)) + 1
//   over the words t of text x (tf >= 1), N documents, n(t) of them containing t; a query
//   word no document contains gets n = 0 and counts in the query's norm only, so words
//   the corpus does not know dilute the match as unknown concepts dilute an embedding's.
//     cos(q, d) = sum_t w(t, q) w(t, d) / (sqrt(|q|^2 + 2 u^2) |d|)       in [0, 1)
//   where u = ln(N + 1) + 1 is the weight of a word no document contains: the query's
//   norm is smoothed by two unseen words, so that a one- or two-word query, which says
//   little, cannot reach the similarity of a question that names its subject (embedding
//   models, too, score a bare keyword lower against a document than a full question).
//   Word TF-IDF rather than hashed n-grams: it is exact (no collisions), its postings are
//   as selective as BM25's (hashed character n-grams would touch most of the corpus for
//   every query and miss the 10,000 queries per second the scale corpus needs), and the
//   same words serve both modes.
//   The score is cos mapped onto the range real embedding APIs return:
//     score = 0.70 + 0.30 * cos^0.4                        in [0.70, 1)
//   OpenAI's text-embedding models give unrelated texts cosine similarities of about 0.7
//   and related ones about 0.75 to 0.9 (ada-002's similarities are known to sit between
//   about 0.7 and 1, OpenAI's embeddings FAQ); TF-IDF gives 0 to unrelated texts and about
//   0.2 to 0.6 to a specific question and its answer. The power 0.4 spreads the low
//   cosines that vague queries reach (a word or two shared) over 0.75 to 0.85 and puts a
//   specific question's answer (cos >= 0.2) at 0.85 or above. The floor, the span, the
//   power and the smoothing were calibrated together on scenarios/corpora/kb.jsonl; the
//   figures are in docs/mocks/vector_search.md. Seed 001's thresholds therefore mean
//   what they do in production: 0.85 passes a specific question, a vague one needs 0.75
//   or keyword mode.
//
// Keyword mode: BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25
// and Beyond", 2009, eq. 3.15) with k1 = 1.2, b = 0.75 and the IDF of Lucene's
// BM25Similarity, which cannot go negative:
//     idf(t) = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
//     score(q, d) = sum over the words t of q (repeats count, as Lucene's clauses do) of
//                   idf(t) * tf(t, d) (k1 + 1) / (tf(t, d) + k1 (1 - b + b |d| / avgdl))
// with |d| the document's word count and avgdl the corpus mean. Lucene 8+ drops the
// constant (k1 + 1) factor and stores |d| lossily; neither changes the ranking. Scores
// are unbounded above, so keyword mode has no threshold: min_score is ignored, as sparse
// and hybrid indexes (Pinecone's sparse vectors, Elasticsearch's match) apply none.
//
// Hits: documents sharing at least one word with the query (a document sharing none has
// cosine 0 and BM25 0; it is never a hit, which is stricter than a real vector database,
// whose top_k always returns something), in dense mode only those scoring at least
// min_score; sorted by score descending, ties by corpus order; at most top_k. (Ranking is
// done on the raw sums, which the dense mapping preserves; only the hits returned are
// mapped, so a query costs one multiply-add per posting plus a selection of the top_k.)
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/call.hpp"
#include "mocks/corpus.hpp"

namespace squall {

// The mapping's constants (see above): score = kDenseScoreFloor + kDenseScoreSpan * cos^kDenseScorePower.
inline constexpr double kDenseScoreFloor = 0.70;
inline constexpr double kDenseScoreSpan = 0.30;
inline constexpr double kDenseScorePower = 0.4;
// BM25's parameters, the defaults of Lucene and Elasticsearch.
inline constexpr double kBm25K1 = 1.2;
inline constexpr double kBm25B = 0.75;

class VectorIndex {
 public:
  // Per-caller working memory: a search writes only into it, so one const index serves
  // any number of mocks. Sized on first use; later searches allocate nothing.
  struct Scratch {
    std::string text;                     // the normalized query
    std::vector<std::string_view> words;  // its words, sorted; views into `text`
    std::vector<std::uint32_t> terms;     // the query's known words, as term ids
    std::vector<double> term_weights;     // and their query-side weights
    std::vector<double> scores;           // by document; 0 for documents not touched
    std::vector<std::uint32_t> touched;   // documents with a score, in first-touch order
    std::vector<std::pair<double, std::uint32_t>> ranked;
  };

  // Indexes `corpus` (not null), which the index keeps alive.
  explicit VectorIndex(std::shared_ptr<const Corpus> corpus);

  const Corpus& corpus() const { return *corpus_; }
  std::size_t term_count() const { return idf_dense_.size(); }
  double average_length() const { return avgdl_; }

  // Appends to `out` the hits for `query` in `mode` (see above), at most `top_k`, each a
  // view into the corpus with its score. In keyword mode `min_score` is ignored.
  void search(std::string_view query, SearchMode mode, std::size_t top_k, double min_score, Scratch& scratch,
              std::vector<SearchResult>& out) const;

  // The raw dense cosine of `query` and document `doc` (before the mapping, with the
  // smoothed query norm), for tests and calibration; allocates.
  double cosine(std::string_view query, std::uint32_t doc) const;

 private:
  struct Posting {
    std::uint32_t doc;
    std::uint32_t tf;
    double dense;  // w(t, d) / |d|: the document side of the cosine
    double bm25;   // tf (k1 + 1) / (tf + k1 (1 - b + b |d| / avgdl)): BM25 without idf
  };
  // Fills the idfs and every posting's weights from the postings' tf, term by term, and
  // divides the dense weights by their document's norm. `n`: documents; `lengths`: each
  // document's length in words.
  void weigh_postings(double n, const std::vector<std::uint32_t>& lengths);
  // The term id of `word`, or -1.
  std::int64_t term_of(std::string_view word) const;
  std::span<const Posting> postings(std::uint32_t term) const {
    return {postings_.data() + offsets_[term], postings_.data() + offsets_[term + 1]};
  }
  // Fills scratch.terms/term_weights from `query`; returns the query vector's smoothed
  // norm (dense: sqrt(|q|^2 + 2 u^2), the words the corpus does not know included).
  double parse(std::string_view query, SearchMode mode, Scratch& scratch) const;

  std::shared_ptr<const Corpus> corpus_;
  std::vector<std::string> words_;      // sorted; the term id is the index
  std::vector<std::uint32_t> offsets_;  // term -> its postings [offsets_[t], offsets_[t + 1])
  std::vector<Posting> postings_;       // by term, then by document ascending
  std::vector<double> idf_dense_;       // by term
  std::vector<double> idf_bm25_;        // by term
  double avgdl_ = 0;
  double unknown_idf_ = 0;  // the dense idf of a word no document contains
};

}  // namespace squall
