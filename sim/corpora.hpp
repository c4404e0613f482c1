// The corpora of a scenario's search providers, loaded once and shared read-only by every
// run and every provider that names the same file.
#pragma once

#include <filesystem>
#include <map>
#include <memory>

#include "mocks/corpus.hpp"
#include "sim/scenario.hpp"

namespace squall {

// Resolved corpus path (corpus_path) -> the loaded corpus.
using Corpora = std::map<std::filesystem::path, std::shared_ptr<const Corpus>>;

// Loads every corpus `scenario` names. Throws CorpusError.
Corpora load_corpora(const Scenario& scenario);

// The corpus of `config` in `corpora`, or null when `config` is not a search provider.
std::shared_ptr<const Corpus> corpus_of(const Scenario& scenario, const Corpora& corpora, const ProviderConfig& config);

}  // namespace squall
