#include "sim/scenario.hpp"

namespace squall {

std::filesystem::path corpus_path(const Scenario& scenario, const WebSearchConfig& config) {
  std::filesystem::path path = config.corpus;
  if (path.is_relative()) path = scenario.source.parent_path() / path;
  return path.lexically_normal();
}

}  // namespace squall
