#include <chrono>
#include <cstdio>
#include <fmt/core.h>
#include <unistd.h>

#include "cli/commands.hpp"
#include "cli/output_path.hpp"
#include "cli/repro.hpp"
#include "mocks/corpus.hpp"
#include "reports/json_writer.hpp"
#include "reports/text_summary.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/run.hpp"

namespace squall::cli {
namespace {

void print_errors(const std::vector<ValidationError>& errors) {
  for (const ValidationError& error : errors) fmt::print(stderr, "{}\n", to_string(error));
}

// Every file the run reads, which --out must not overwrite.
std::vector<std::filesystem::path> run_inputs(const RunOptions& options, const Scenario& scenario) {
  std::vector<std::filesystem::path> inputs{options.scenario};
  if (options.policy) inputs.push_back(*options.policy);
  for (const ProviderConfig& provider : scenario.providers) {
    if (const auto corpus = corpus_path(scenario, provider)) inputs.push_back(*corpus);
  }
  return inputs;
}

}  // namespace

int run_command(const RunOptions& options) {
  LoadResult loaded = load_scenario(options.scenario);
  if (!loaded.errors.empty()) {
    print_errors(loaded.errors);
    return kExitBadInput;
  }
  Scenario scenario = std::move(*loaded.scenario);
  if (options.policy) {
    // The same checks as `squall validate SCENARIO --policy FILE`.
    if (const auto errors = apply_policy_file(scenario, *options.policy); !errors.empty()) {
      print_errors(errors);
      return kExitBadInput;
    }
  }
  if (options.out) {
    if (const auto problem = output_problem(*options.out, run_inputs(options, scenario))) {
      fmt::print(stderr, "squall: cannot write the report: {}\n", *problem);
      return kExitBadInput;
    }
  }
  const std::uint64_t seed = options.seed.value_or(scenario.seed);
  // The seed comes first, so that even a crashed run can be reproduced.
  fmt::print("squall run {}: seed {}\n", scenario.name, seed);
  std::fflush(stdout);

  const auto wall_start = std::chrono::steady_clock::now();
  Report report;
  try {
    PreparedScenario prepared(std::move(scenario));
    prepared.set_limits(RunLimits{options.max_in_flight});
    Provenance provenance;
    provenance.scenario_file = options.scenario.string();
    if (options.policy) provenance.policy_file = options.policy->string();
    provenance.repro = repro_command(options, seed);
    report = prepared.run(seed, std::move(provenance));
  } catch (const CorpusError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kExitBadInput;
  } catch (const RunLimitExceeded& e) {
    fmt::print(stderr, "squall: run stopped, no report written: {}\n", e.what());
    return kExitBadInput;
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;

  fmt::print("{}", text_summary(report, isatty(fileno(stdout)) != 0));
  // Wall time varies between runs, so it goes to stderr: stdout stays byte-identical.
  fmt::print(stderr, "simulated {:.1f} s of virtual time in {:.2f} s of wall time\n", to_millis(report.duration) / 1e3,
             wall.count());

  if (options.out) {
    try {
      write_json_atomic(report, resolve_output(*options.out));
    } catch (const std::exception& e) {
      fmt::print(stderr, "squall: cannot write report: {}\n", e.what());
      return kExitBadInput;
    }
    fmt::print("report written to {}\n", options.out->string());
  }

  if (!report.all_thresholds_passed()) {
    for (const ThresholdResult& t : report.thresholds) {
      if (t.passed) continue;
      fmt::print(stderr, "threshold failed: {}: {} (observed {})\n", t.metric, t.expression, format_observed(t));
    }
    fmt::print(stderr, "repro: {}\n", repro_command(options, seed));
    return kExitThresholdFailed;
  }
  return kExitOk;
}

}  // namespace squall::cli
