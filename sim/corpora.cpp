#include "sim/corpora.hpp"

#include <variant>

namespace squall {

Corpora load_corpora(const Scenario& scenario) {
  Corpora corpora;
  for (const ProviderConfig& config : scenario.providers) {
    const auto* search = std::get_if<WebSearchConfig>(&config.spec);
    if (search == nullptr) continue;
    auto& slot = corpora[corpus_path(scenario, *search)];
    if (!slot) slot = std::make_shared<const Corpus>(Corpus::load(corpus_path(scenario, *search)));
  }
  return corpora;
}

std::shared_ptr<const Corpus> corpus_of(const Scenario& scenario, const Corpora& corpora, const ProviderConfig& config) {
  const auto* search = std::get_if<WebSearchConfig>(&config.spec);
  if (search == nullptr) return nullptr;
  return corpora.at(corpus_path(scenario, *search));
}

}  // namespace squall
