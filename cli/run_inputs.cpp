#include "cli/run_inputs.hpp"

#include "sim/scenario_loader.hpp"

namespace squall::cli {

namespace fs = std::filesystem;

std::vector<fs::path> run_inputs(const fs::path& scenario_file, const std::optional<fs::path>& policy_file,
                                 const Scenario& scenario) {
  std::vector<fs::path> inputs{scenario_file};
  if (policy_file) inputs.push_back(*policy_file);
  for (const ProviderConfig& provider : scenario.providers) {
    if (const auto corpus = corpus_path(scenario, provider)) inputs.push_back(*corpus);
  }
  return inputs;
}

std::vector<fs::path> run_inputs(const fs::path& scenario_file) {
  const LoadResult loaded = load_scenario(scenario_file);
  if (!loaded.errors.empty() || !loaded.scenario) return {scenario_file};
  return run_inputs(scenario_file, std::nullopt, *loaded.scenario);
}

}  // namespace squall::cli
