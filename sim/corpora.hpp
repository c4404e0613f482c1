// The corpora of a scenario's search providers, loaded once and shared read-only by every
// run and every provider that names the same file; and the vector index of each corpus a
// vector_search provider uses, built once with it (mocks/vector_index.hpp).
#pragma once

#include <filesystem>
#include <map>
#include <memory>

#include "mocks/corpus.hpp"
#include "mocks/vector_index.hpp"
#include "sim/scenario.hpp"

namespace squall {

struct LoadedCorpus {
  std::shared_ptr<const Corpus> corpus;
  std::shared_ptr<const VectorIndex> index;  // null unless a vector_search provider reads it
};

// Resolved corpus path (corpus_path) -> the loaded corpus.
using Corpora = std::map<std::filesystem::path, LoadedCorpus>;

// Loads every corpus `scenario` names and indexes those vector_search providers read.
// Throws CorpusError.
Corpora load_corpora(const Scenario& scenario);

// Checks that every ground-truth link of the workload's queries (PoolQuery::relevant) is
// the link of a document in `corpora`: a link no search can return would make every
// answer to its query wrong, silently. Throws CorpusError naming the file, the query's
// JSON path and the link.
void check_ground_truth(const Scenario& scenario, const Corpora& corpora);

// The corpus of `config` in `corpora`, or null when `config` is not a search provider.
const LoadedCorpus* corpus_of(const Scenario& scenario, const Corpora& corpora, const ProviderConfig& config);

}  // namespace squall
