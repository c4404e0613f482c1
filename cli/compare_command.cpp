#include <fstream>
#include <sstream>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/repro.hpp"
#include "reports/compare.hpp"
#include "reports/json_writer.hpp"
#include "sim/run.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

struct Side {
  std::string label;
  nlohmann::json report;
};

// Thrown for bad input: the message is printed and the exit code is 2.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

nlohmann::json read_report(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw BadInput(fmt::format("{}: cannot be read", file.string()));
  std::stringstream text;
  text << in.rdbuf();
  try {
    nlohmann::json report = nlohmann::json::parse(text.str());
    if (!report.is_object() || !report.contains("squall_report_version")) {
      throw BadInput(fmt::format("{}: not a squall report: no squall_report_version", file.string()));
    }
    return report;
  } catch (const nlohmann::json::parse_error& e) {
    throw BadInput(fmt::format("{}: not JSON: {}", file.string(), e.what()));
  }
}

void throw_errors(const std::vector<ValidationError>& errors) {
  std::string text;
  for (const ValidationError& e : errors) {
    if (!text.empty()) text += '\n';
    text += to_string(e);
  }
  throw BadInput(text);
}

// Runs the scenario under each policy (the scenario's own when `policy` is nullopt) on the
// same seed, so both meet the same seeded faults where their calls coincide.
std::pair<Side, Side> run_policies(const CompareOptions& options) {
  LoadResult loaded = load_scenario(options.inputs[0]);
  if (!loaded.errors.empty()) throw_errors(loaded.errors);
  const std::uint64_t seed = options.seed.value_or(loaded.scenario->seed);
  std::vector<std::optional<fs::path>> policies(options.policies.begin(), options.policies.end());
  if (policies.size() == 1) policies.insert(policies.begin(), std::nullopt);
  std::vector<PolicyConfig> configs;
  for (const auto& policy : policies) {
    Scenario copy = *loaded.scenario;
    if (policy) {
      if (const auto errors = apply_policy_file(copy, *policy); !errors.empty()) throw_errors(errors);
    }
    configs.push_back(copy.policy);
  }
  PreparedScenario prepared(std::move(*loaded.scenario));
  Side sides[2];
  for (std::size_t i = 0; i < 2; ++i) {
    RunOptions as_run;
    as_run.program = options.program;
    as_run.scenario = options.inputs[0];
    as_run.policy = policies[i];
    Provenance provenance;
    provenance.scenario_file = options.inputs[0].string();
    if (policies[i]) provenance.policy_file = policies[i]->string();
    provenance.repro = repro_command(as_run, seed);
    sides[i].label = policies[i] ? policies[i]->filename().string() : "scenario policy";
    sides[i].report = to_json(prepared.run(configs[i], seed, std::move(provenance)));
  }
  fmt::print("squall compare {}: seed {}\n", prepared.scenario().name, seed);
  return {std::move(sides[0]), std::move(sides[1])};
}

}  // namespace

int compare_command(const CompareOptions& options) {
  const bool reports = options.inputs.size() == 2 && options.policies.empty() && !options.seed;
  const bool policies = options.inputs.size() == 1 && (options.policies.size() == 1 || options.policies.size() == 2);
  if (!reports && !policies) {
    fmt::print(stderr,
               "squall compare: give a scenario and one or two --policy files (and optionally --seed), or two JSON "
               "reports\n");
    return kExitBadInput;
  }
  try {
    std::pair<Side, Side> sides;
    if (reports) {
      sides = {Side{options.inputs[0].filename().string(), read_report(options.inputs[0])},
               Side{options.inputs[1].filename().string(), read_report(options.inputs[1])}};
      fmt::print("squall compare: {} and {}\n", options.inputs[0].string(), options.inputs[1].string());
    } else {
      sides = run_policies(options);
    }
    fmt::print("{}", comparison_table(sides.first.label, sides.second.label,
                                      compare_reports(sides.first.report, sides.second.report)));
    return kExitOk;
  } catch (const BadInput& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kExitBadInput;
  } catch (const CorpusError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kExitBadInput;
  } catch (const RunLimitExceeded& e) {
    fmt::print(stderr, "squall: run stopped: {}\n", e.what());
    return kExitBadInput;
  }
}

}  // namespace squall::cli
