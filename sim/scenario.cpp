#include "sim/scenario.hpp"

namespace squall {

std::filesystem::path corpus_path(const std::filesystem::path& scenario_dir, const std::string& corpus) {
  std::filesystem::path path = corpus;
  if (path.is_relative()) path = scenario_dir / path;
  return path.lexically_normal();
}

std::filesystem::path corpus_path(const Scenario& scenario, const WebSearchConfig& config) {
  return corpus_path(scenario.source.parent_path(), config.corpus);
}

}  // namespace squall
