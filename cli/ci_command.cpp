#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <span>

#include <fmt/core.h>

#include "cli/ci_baseline.hpp"
#include "cli/ci_outputs.hpp"
#include "cli/ci_progress.hpp"
#include "cli/ci_seeds.hpp"
#include "cli/commands.hpp"
#include "cli/expected_tasks.hpp"
#include "cli/repro.hpp"
#include "cli/scenario_inputs.hpp"
#include "cli/terminal.hpp"
#include "reports/rounding.hpp"
#include "reports/text_summary.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/parallel_runs.hpp"
#include "sim/run.hpp"
#include "sim/scenario/validation_error.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

// One scenario's run: its report, or why it has none.
struct CiRun {
  int exit_code = kExitOk;
  std::optional<Report> report;
  std::string error;               // one problem a line, when there is no report
  std::vector<std::string> notes;  // how --policy merged into the scenario's policy
};

CiRun not_run(int exit_code, std::string error) {
  CiRun r;
  r.exit_code = exit_code;
  r.error = std::move(error);
  return r;
}

// Loads, prepares and runs one scenario file as `squall run FILE` would. Never throws: a
// bad file is exit 2 and a bug in squall exit 70, for this scenario only.
CiRun run_one(const fs::path& file, const CiOptions& options, const ProgressCallback& progress) {
  try {
    LoadResult loaded = load_scenario(file);
    if (!loaded.errors.empty()) return not_run(kExitBadInput, error_lines(loaded.errors));
    CiRun r;
    bool own_policy = false;  // the file named no tool of the scenario: its repro has no --policy
    if (options.policy) {
      const auto errors = apply_policy_file(*loaded.scenario, *options.policy, &r.notes,
                                            UnsharedPolicy::keep_scenario_policy, &own_policy);
      if (!errors.empty()) return not_run(kExitBadInput, error_lines(errors));
    }
    RunOptions as_run;
    as_run.program = options.program;
    as_run.scenario = file;
    if (!own_policy) as_run.policy = options.policy;
    const std::uint64_t seed = loaded.scenario->seed;
    Provenance provenance;
    provenance.scenario_file = file.string();
    if (options.policy) provenance.policy_file = options.policy->string();
    provenance.policy_notes = r.notes;
    provenance.repro = repro_command(as_run, seed);
    PreparedScenario prepared(std::move(*loaded.scenario));
    prepared.set_limits(RunLimits{options.max_in_flight});
    std::optional<InvariantChecker> checker;
    if (options.check_invariants) checker.emplace(prepared.scenario());
    r.report = prepared.run(seed, std::move(provenance), checker ? &*checker : nullptr, progress);
    if (checker && checker->violation_count() > 0) {
      return not_run(kExitInternalError, fmt::format("{}: internal error: {}", file.string(), checker->summary()));
    }
    r.exit_code = r.report->all_thresholds_passed() ? kExitOk : kExitThresholdFailed;
    return r;
  } catch (const CorpusError& e) {
    return not_run(kExitBadInput, e.what());
  } catch (const RunLimitExceeded& e) {
    return not_run(kExitBadInput,
                   fmt::format("{}: run stopped, no report written: {}", file.string(), run_limit_message(e)));
  } catch (const std::exception& e) {
    return not_run(kExitInternalError, fmt::format("{}: internal error: {}", file.string(), e.what()));
  }
}

std::size_t failed_thresholds(const Report& r) {
  std::size_t n = 0;
  for (const ThresholdResult& t : r.thresholds) n += t.passed ? 0 : 1;
  return n;
}

// The line printed as a scenario's result comes in, e.g.
//   PASS  scenarios/ci/llm-budget-guard.json (seed 11, 3 thresholds)
//   FAIL  scenarios/incidents/x.json (seed 7, 2 of 5 thresholds failed)
//   ERROR scenarios/bad.json (exit 2, not run)
// followed, for ERROR, by the error lines indented. Names read from files or directories
// are escaped for the terminal (escape_controls), here and in every line `ci` prints.
std::string result_line(const fs::path& file, const CiRun& run) {
  const std::string name = escape_controls(file.string());
  if (!run.report) {
    std::string line = fmt::format("ERROR {} (exit {}, not run)\n", name, run.exit_code);
    std::size_t start = 0;
    while (start <= run.error.size()) {
      const std::size_t end = std::min(run.error.find('\n', start), run.error.size());
      line += fmt::format("      {}\n", escape_controls(run.error.substr(start, end - start)));
      start = end + 1;
    }
    return line;
  }
  const Report& r = *run.report;
  const std::size_t failed = failed_thresholds(r);
  std::string line = failed == 0 ? fmt::format("PASS  {} (seed {}, {} thresholds)\n", name, r.seed, r.thresholds.size())
                                 : fmt::format("FAIL  {} (seed {}, {} of {} thresholds failed)\n", name, r.seed, failed,
                                               r.thresholds.size());
  for (const std::string& note : run.notes) line += fmt::format("      note: {}\n", escape_controls(note));
  return line;
}

std::string percent(std::uint64_t n, std::uint64_t total) {
  if (total == 0) return "-";
  return fmt::format("{:.2f}%", 100.0 * static_cast<double>(n) / static_cast<double>(total));
}

// The final table: one row per scenario in input order, with the headline figures.
std::string final_table(std::span<const fs::path> files, std::span<const CiRun> runs) {
  std::vector<std::string> names;
  for (const fs::path& f : files) names.push_back(escape_controls(f.string()));
  std::size_t width = std::string_view("scenario").size();
  for (const std::string& name : names) width = std::max(width, name.size());
  std::string out = fmt::format("\n{:<7}{:<{}}  {:>8}  {:>8}  {:>14}  {:>12}  {}\n", "result", "scenario", width,
                                "tasks", "success", "p99 latency ms", "cost USD", "thresholds");
  for (std::size_t i = 0; i < files.size(); ++i) {
    const CiRun& run = runs[i];
    if (!run.report) {
      out += fmt::format("{:<7}{:<{}}  {:>8}  {:>8}  {:>14}  {:>12}  {}\n", "ERROR", names[i], width, "-", "-", "-",
                         "-", fmt::format("not run (exit {})", run.exit_code));
      continue;
    }
    const Report& r = *run.report;
    const std::uint64_t ok =
        r.tasks.by_status[index_of(TaskStatus::succeeded)] + r.tasks.by_status[index_of(TaskStatus::degraded)];
    const std::size_t failed = failed_thresholds(r);
    out += fmt::format("{:<7}{:<{}}  {:>8}  {:>8}  {:>14.3f}  {:>12.6f}  {}\n", failed == 0 ? "PASS" : "FAIL", names[i],
                       width, r.tasks.total, percent(ok, r.tasks.total), round_ms(r.latency.p99_ms),
                       round_usd(r.cost.total_usd),
                       fmt::format("{}/{} passed", r.thresholds.size() - failed, r.thresholds.size()));
  }
  return out;
}

// After the table that explains them: each failed scenario's failing thresholds and its
// repro line, in input order, then the verdict line.
std::string failures_and_verdict(std::span<const fs::path> files, std::span<const CiRun> runs, int exit_code) {
  std::string out;
  std::size_t passed = 0;
  std::size_t failed = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!runs[i].report) continue;
    const Report& r = *runs[i].report;
    if (r.all_thresholds_passed()) {
      ++passed;
      continue;
    }
    ++failed;
    for (const ThresholdResult& t : r.thresholds) {
      if (t.passed) continue;
      out += escape_controls(fmt::format("threshold failed: {}: {}: {} (observed {})", files[i].string(), t.metric,
                                         t.expression, format_observed(t))) +
             "\n";
    }
    out += escape_controls(fmt::format("repro: {}", r.produced_by.repro)) + "\n";
  }
  out += ci_verdict(files.size(), passed, failed, exit_code);
  return out;
}

std::vector<SuiteOutcome> suite_outcomes(std::span<const fs::path> files, std::span<const CiRun> runs) {
  std::vector<SuiteOutcome> outcomes;
  for (std::size_t i = 0; i < files.size(); ++i) {
    outcomes.push_back({files[i].string(), runs[i].report ? &*runs[i].report : nullptr, runs[i].error});
  }
  return outcomes;
}

// Runs every file on `jobs` threads, printing each result line in input order as it comes
// in, with progress on stderr when it is due (cli/ci_progress.hpp).
std::vector<CiRun> run_all(const std::vector<fs::path>& files, std::size_t jobs, const CiOptions& options,
                           std::chrono::steady_clock::time_point wall_start) {
  const auto wall_seconds = [&wall_start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  };
  std::vector<std::string> names;
  for (const fs::path& f : files) names.push_back(escape_controls(f.string()));
  CiProgress progress(stderr, is_terminal(stderr), show_progress(options.progress, options.quiet, is_terminal(stderr)),
                      std::move(names));
  std::vector<CiRun> runs = run_parallel<CiRun>(
      files.size(), jobs,
      [&](std::size_t i) {
        progress.started(i, wall_seconds());
        CiRun run =
            run_one(files[i], options, [&, i](const RunProgress& p) { progress.advanced(i, p, wall_seconds()); });
        progress.finished(i, wall_seconds());
        return run;
      },
      [&](std::size_t i, const CiRun& run) {
        if (options.quiet && run.exit_code == kExitOk) return;
        progress.clear();
        fmt::print("{}", result_line(files[i], run));
        std::fflush(stdout);
      });
  progress.clear();
  return runs;
}

// Each scenario that ran against its baseline report, in input order; returns the worst
// exit code of the comparisons and prints their lines (with --quiet, only the failed ones)
// and a line counting them.
int check_baselines(const CiOptions& options, std::span<const fs::path> files, std::span<const CiRun> runs,
                    const std::vector<FailOn>& gates) {
  int exit_code = kExitOk;
  std::size_t counts[3] = {0, 0, 0};  // passed, failed a gate, unreadable baseline
  std::size_t missing = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!runs[i].report) continue;
    const BaselineResult r = check_against_baseline(*options.baseline, files[i], *runs[i].report, gates);
    exit_code = worst_exit_code(exit_code, r.exit_code);
    if (r.compared || r.exit_code != kExitOk) {
      ++counts[std::min(r.exit_code, 2)];
    } else {
      ++missing;
    }
    if (!options.quiet || r.exit_code != kExitOk) fmt::print("{}", r.text);
  }
  fmt::print("squall ci: baselines: {} passed, {} failed, {} unreadable, {} missing\n", counts[0], counts[1], counts[2],
             missing);
  return exit_code;
}

}  // namespace

int worst_exit_code(int a, int b) {
  // The codes are numbered so that a worse one is larger: internal error (70) over a
  // determinism failure (3) over bad input (2) over a failed threshold (1) over success.
  static_assert(kExitOk < kExitThresholdFailed && kExitThresholdFailed < kExitBadInput &&
                kExitBadInput < kExitNondeterministic && kExitNondeterministic < kExitInternalError);
  return std::max(a, b);
}

int ci_command(const CiOptions& options) {
  const ScenarioInputs inputs = expand_scenario_inputs(options.inputs);
  if (inputs.error) {
    fmt::print(stderr, "squall ci: {}\n", escape_controls(*inputs.error));
    return kExitBadInput;
  }
  if (options.seeds) {
    if (const auto problem = ci_seeds_problem(options)) {
      fmt::print(stderr, "squall ci: {}\n", escape_controls(*problem));
      return kExitBadInput;
    }
  }
  const std::optional<CiOutputs> outputs = checked_outputs(options, inputs.files);
  if (!outputs) return kExitBadInput;
  const std::vector<fs::path>& files = inputs.files;
  const std::size_t jobs = options.jobs == 0 ? default_jobs() : options.jobs;
  if (options.seeds) return ci_seeds_command(options, files, jobs, *outputs);
  fmt::print("squall ci: {}\n", counted(files.size(), "scenario"));
  std::fflush(stdout);

  const auto wall_start = std::chrono::steady_clock::now();
  const std::vector<CiRun> runs = run_all(files, jobs, options, wall_start);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;

  int exit_code = kExitOk;
  for (const CiRun& run : runs) exit_code = worst_exit_code(exit_code, run.exit_code);
  if (!options.quiet) fmt::print("{}", final_table(files, runs));
  std::fflush(stdout);
  // Wall time varies from run to run: stderr, so stdout is the same for any --jobs.
  if (!options.quiet)
    fmt::print(stderr, "ran {} on {} in {:.2f} s of wall time\n", counted(files.size(), "scenario"),
               counted(jobs, "job"), wall.count());

  const std::vector<SuiteOutcome> outcomes = suite_outcomes(files, runs);
  try {
    for (const std::string& line : write_outputs(*outputs, files, outcomes)) {
      if (!options.quiet) fmt::print("{}\n", line);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "squall ci: cannot write report: {}\n", e.what());
    exit_code = worst_exit_code(exit_code, kExitBadInput);
  }
  if (options.baseline) exit_code = worst_exit_code(exit_code, check_baselines(options, files, runs, outputs->gates));
  fmt::print("{}", failures_and_verdict(files, runs, exit_code));
  return exit_code;
}

}  // namespace squall::cli
