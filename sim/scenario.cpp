#include "sim/scenario.hpp"

#include <variant>

namespace squall {

std::filesystem::path corpus_path(const std::filesystem::path& scenario_dir, const std::string& corpus) {
  std::filesystem::path path = corpus;
  if (path.is_relative()) path = scenario_dir / path;
  return path.lexically_normal();
}

std::filesystem::path corpus_path(const Scenario& scenario, const WebSearchConfig& config) {
  return corpus_path(scenario.source.parent_path(), config.corpus);
}

std::filesystem::path corpus_path(const Scenario& scenario, const VectorSearchConfig& config) {
  return corpus_path(scenario.source.parent_path(), config.corpus);
}

std::optional<std::filesystem::path> corpus_path(const Scenario& scenario, const ProviderConfig& config) {
  if (const auto* web = std::get_if<WebSearchConfig>(&config.spec)) return corpus_path(scenario, *web);
  if (const auto* vector = std::get_if<VectorSearchConfig>(&config.spec)) return corpus_path(scenario, *vector);
  return std::nullopt;
}

}  // namespace squall
