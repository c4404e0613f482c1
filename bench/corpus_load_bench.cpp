// Building a corpus's word index and the vector index over it, for ordinary text and for
// text whose every word is new (identifiers, hashes): the same number of documents and
// bytes, so the ratio of the two times says whether indexing is linear in the text or
// grows with the vocabulary (a std::map of millions of words took minutes where ordinary
// text of the same size took seconds). The ordinary corpus is the baseline, measured in
// the same run.
//
//   squall_bench --benchmark_filter=CorpusIndex
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "mocks/corpus.hpp"
#include "mocks/vector_index.hpp"

namespace {

using namespace squall;

constexpr std::size_t kDocuments = 20'000;
constexpr std::size_t kWordsPerDocument = 50;  // 1,000,000 words, half of kMaxCorpusWords distinct

// Words of 16 hex digits: from splitmix64 of their number when `distinct`, else from a
// vocabulary of 5,000 (ordinary text's size), so both corpora have the same bytes.
std::vector<Document> documents(bool distinct) {
  std::vector<Document> docs;
  docs.reserve(kDocuments);
  std::uint64_t n = 0;
  for (std::size_t d = 0; d < kDocuments; ++d) {
    std::string snippet;
    for (std::size_t w = 0; w < kWordsPerDocument; ++w, ++n) {
      std::uint64_t z = (distinct ? n : n * 7919 % 5'000) + 0x9E3779B97F4A7C15ULL;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      snippet += fmt::format("{:016x} ", z ^ (z >> 31));
    }
    docs.push_back(Document{"title", fmt::format("https://example.com/{}", d), std::move(snippet), 0, {}});
  }
  return docs;
}

void index_corpus(benchmark::State& state, bool distinct) {
  const std::vector<Document> docs = documents(distinct);
  for (auto _ : state) {
    auto corpus = std::make_shared<const Corpus>(std::vector<Document>(docs));
    const VectorIndex index(corpus);
    benchmark::DoNotOptimize(index.term_count());
  }
  state.counters["words_per_s"] = benchmark::Counter(static_cast<double>(kDocuments * kWordsPerDocument),
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

void BM_CorpusIndexOrdinaryText(benchmark::State& state) { index_corpus(state, false); }
void BM_CorpusIndexDistinctWords(benchmark::State& state) { index_corpus(state, true); }

BENCHMARK(BM_CorpusIndexOrdinaryText)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_CorpusIndexDistinctWords)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
