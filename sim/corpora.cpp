#include "sim/corpora.hpp"

#include <optional>
#include <variant>

namespace squall {
Corpora load_corpora(const Scenario& scenario) {
  Corpora corpora;
  for (const ProviderConfig& config : scenario.providers) {
    const auto file = corpus_path(scenario, config);
    if (!file) continue;
    LoadedCorpus& slot = corpora[*file];
    if (!slot.corpus) slot.corpus = std::make_shared<const Corpus>(Corpus::load(*file));
    if (!slot.index && std::holds_alternative<VectorSearchConfig>(config.spec)) {
      slot.index = std::make_shared<const VectorIndex>(slot.corpus);
    }
  }
  return corpora;
}

const LoadedCorpus* corpus_of(const Scenario& scenario, const Corpora& corpora, const ProviderConfig& config) {
  const auto file = corpus_path(scenario, config);
  if (!file) return nullptr;
  return &corpora.at(*file);
}

}  // namespace squall
