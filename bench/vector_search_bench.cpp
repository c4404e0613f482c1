// Vector-search throughput on the scale corpus (bench/README.md): top-10 queries per second
// of the vector index over every Debian package (scripts/build-debian-corpus.sh), in dense
// and keyword (BM25) mode, on one core; and the time to build the index.
//
// The corpus is built at setup time and not committed; without it these benchmarks skip
// with a message saying how to build it.
#include <benchmark/benchmark.h>

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "mocks/vector_index.hpp"

namespace {

using namespace squall;

constexpr const char* kCorpus = SQUALL_SOURCE_DIR "/build/corpora/debian.jsonl";

// What people search a package index for: a few words each, common and rare ones mixed.
constexpr std::array<std::string_view, 32> kQueries{
    "pdf viewer",
    "python library for http requests",
    "command line json processor",
    "image editor for photographs",
    "video player with subtitles",
    "ssh server",
    "postgresql database server",
    "font for programming",
    "tool to resize partitions",
    "web browser",
    "email client with pgp support",
    "audio converter mp3 flac",
    "password manager",
    "c++ json library",
    "network monitoring daemon",
    "spell checker dictionary german",
    "java development kit",
    "backup tool with deduplication",
    "markdown to html converter",
    "vpn client",
    "terminal multiplexer",
    "ocr text recognition",
    "rust compiler",
    "dns server",
    "xml parsing library for perl",
    "game of chess engine",
    "documentation for the linux kernel",
    "bluetooth tools",
    "latex editor",
    "music notation software",
    "static site generator",
    "scientific plotting library python",
};

// The index, built once per process; null when the corpus has not been built.
const VectorIndex* scale_index() {
  static const std::unique_ptr<const VectorIndex> index = []() -> std::unique_ptr<const VectorIndex> {
    if (!std::filesystem::exists(kCorpus)) return nullptr;
    return std::make_unique<const VectorIndex>(std::make_shared<const Corpus>(Corpus::load(kCorpus)));
  }();
  return index.get();
}

bool skip_without_corpus(benchmark::State& state) {
  if (scale_index() != nullptr) return false;
  state.SkipWithError("scale corpus not built: run scripts/build-debian-corpus.sh (scripts/setup.sh does)");
  return true;
}

// Top-10 queries in `mode`, cycling through kQueries. min_score 0 in dense mode, so every
// document sharing a word is scored, mapped and ranked: the threshold would only make it
// cheaper. Each iteration is one query; items_per_second is queries per second.
void run_queries(benchmark::State& state, SearchMode mode) {
  if (skip_without_corpus(state)) return;
  const VectorIndex& index = *scale_index();
  VectorIndex::Scratch scratch;
  std::vector<SearchResult> hits;
  std::size_t i = 0;
  std::size_t returned = 0;
  for (auto _ : state) {
    hits.clear();
    index.search(kQueries[i], mode, 10, 0.0, scratch, hits);
    returned += hits.size();
    benchmark::DoNotOptimize(hits.data());
    i = (i + 1) % kQueries.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["hits_per_query"] = static_cast<double>(returned) / static_cast<double>(state.iterations());
  state.counters["documents"] = static_cast<double>(index.corpus().documents().size());
}

void BM_VectorSearchDenseTop10(benchmark::State& state) { run_queries(state, SearchMode::dense); }
BENCHMARK(BM_VectorSearchDenseTop10)->Unit(benchmark::kMicrosecond);

void BM_VectorSearchBm25Top10(benchmark::State& state) { run_queries(state, SearchMode::keyword); }
BENCHMARK(BM_VectorSearchBm25Top10)->Unit(benchmark::kMicrosecond);

// Building the index from the loaded corpus (loading the JSONL file is not timed).
void BM_VectorIndexBuild(benchmark::State& state) {
  if (skip_without_corpus(state)) return;
  // Loaded again: a corpus is moved, never copied (its index views its documents).
  const auto corpus = std::make_shared<const Corpus>(Corpus::load(kCorpus));
  for (auto _ : state) {
    const VectorIndex index(corpus);
    benchmark::DoNotOptimize(index.term_count());
  }
}
BENCHMARK(BM_VectorIndexBuild)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
