#include "cli/ci_seeds.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <span>

#include "cli/expected_tasks.hpp"
#include "cli/repro.hpp"
#include "cli/seed_list.hpp"
#include "cli/terminal.hpp"
#include "engine/text.hpp"
#include "reports/pass_k.hpp"
#include "reports/pass_rate.hpp"
#include "reports/rounding.hpp"
#include "reports/seed_summary_text.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/seed_runs.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

// One scenario of the run: loaded and prepared with its seeds, or why not; after the run,
// its summary and first seed's report, or why a seed stopped it.
struct SeedScenario {
  fs::path file;
  std::optional<PreparedScenario> prepared;
  std::vector<std::string> notes;  // how --policy merged into the scenario's policy
  bool own_policy = false;         // --policy named no tool of it: its repro has no --policy
  std::vector<std::uint64_t> seeds;
  std::string described;  // the seeds as --seeds names them
  int exit_code = kExitOk;
  std::string error;  // one problem a line, when there is no summary
  std::optional<SeedSummary> summary;
  std::optional<Report> first;
};

// The repro line of one seed of `file`; without --policy when the file kept its own.
std::string repro_of(const CiOptions& options, const fs::path& file, bool own_policy, std::uint64_t seed) {
  RunOptions as_run;
  as_run.program = options.program;
  as_run.scenario = file;
  if (!own_policy) as_run.policy = options.policy;
  return repro_command(as_run, seed);
}

// Loads `file`, applies --policy and names its seeds (a count from its own seed). Never
// throws: a bad file is exit 2 for this scenario only.
SeedScenario load_one(const fs::path& file, const CiOptions& options) {
  SeedScenario s;
  s.file = file;
  const auto refuse = [&s](int code, std::string error) {
    s.exit_code = code;
    s.error = std::move(error);
    return std::move(s);
  };
  try {
    LoadResult loaded = load_scenario(file);
    if (!loaded.errors.empty()) return refuse(kExitBadInput, error_lines(loaded.errors));
    if (options.policy) {
      const auto errors = apply_policy_file(*loaded.scenario, *options.policy, &s.notes,
                                            UnsharedPolicy::keep_scenario_policy, &s.own_policy);
      if (!errors.empty()) return refuse(kExitBadInput, error_lines(errors));
    }
    auto parsed = parse_seed_list(*options.seeds, loaded.scenario->seed);
    if (const auto* message = std::get_if<std::string>(&parsed)) {
      return refuse(kExitBadInput, fmt::format("{}: {}", file.string(), *message));
    }
    s.seeds = std::get<SeedList>(std::move(parsed)).seeds;
    s.described = describe_seeds(s.seeds);
    s.prepared.emplace(std::move(*loaded.scenario));
    s.prepared->set_limits(RunLimits{options.max_in_flight});
    return s;
  } catch (const CorpusError& e) {
    return refuse(kExitBadInput, e.what());
  } catch (const std::exception& e) {
    return refuse(kExitInternalError, fmt::format("{}: internal error: {}", file.string(), e.what()));
  }
}

// Folds one scenario's seed results into its summary, or the first seed's error: a run
// stopped by its limits is exit 2 for the scenario, anything else a bug (70).
void settle(SeedScenario& s, std::span<const SeedRunResult> results) {
  std::vector<SeedOutcome> outcomes;
  for (std::size_t i = 0; i < results.size(); ++i) {
    try {
      if (results[i].error) std::rethrow_exception(results[i].error);
    } catch (const RunLimitExceeded& e) {
      s.exit_code = kExitBadInput;
      s.error = fmt::format("{}: run on seed {} stopped, no report written: {}", s.file.string(), s.seeds[i],
                            run_limit_message(e));
      return;
    } catch (const std::exception& e) {
      s.exit_code = kExitInternalError;
      s.error = fmt::format("{}: internal error on seed {}: {}", s.file.string(), s.seeds[i], e.what());
      return;
    }
    outcomes.push_back(*results[i].outcome);
  }
  s.summary = summarize_seeds(s.prepared->scenario().thresholds, std::move(outcomes));
  s.exit_code = s.summary->passed ? kExitOk : kExitThresholdFailed;
}

std::size_t missed(const SeedSummary& summary) {
  return static_cast<std::size_t>(
      std::count_if(summary.thresholds.begin(), summary.thresholds.end(), [](const auto& t) { return !t.met; }));
}

// A scenario's line as it finishes (cli/ci_seeds.hpp), its notes or errors indented.
std::string result_line(const SeedScenario& s) {
  const std::string name = escape_controls(s.file.string());
  std::string line;
  if (!s.summary) {
    line = fmt::format("ERROR {} (exit {}, not run)\n", name, s.exit_code);
    for (std::size_t start = 0; start <= s.error.size();) {
      const std::size_t end = std::min(s.error.find('\n', start), s.error.size());
      line += fmt::format("      {}\n", escape_controls(s.error.substr(start, end - start)));
      start = end + 1;
    }
    return line;
  }
  const SeedSummary& summary = *s.summary;
  const std::size_t n = summary.thresholds.size();
  const std::string verdict = missed(summary) == 0
                                  ? fmt::format("{} met", counted(n, "threshold"))
                                  : fmt::format("{} of {} below the required pass rate", missed(summary), n);
  line = fmt::format("{}  {} (seeds {}, {}, {}/{} seeds passed all)\n", summary.passed ? "PASS" : "FAIL", name,
                     escape_controls(s.described), verdict, summary.seeds_passed, summary.seeds.size());
  for (const std::string& note : s.notes) line += fmt::format("      note: {}\n", escape_controls(note));
  return line;
}

// Loads every file, then runs every loaded scenario's seeds on one pool, printing each
// scenario's line in input order as soon as it and every one before it are settled.
std::vector<SeedScenario> run_all(const CiOptions& options, const std::vector<fs::path>& files, std::size_t jobs) {
  std::vector<SeedScenario> scenarios;
  for (const fs::path& file : files) scenarios.push_back(load_one(file, options));
  std::vector<SeedBatch> batches;
  std::vector<std::size_t> scenario_of;  // batch -> scenario
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    SeedScenario& s = scenarios[i];
    if (!s.prepared) continue;
    const auto provenance = [&options, &s](std::uint64_t seed) {
      Provenance p;
      p.scenario_file = s.file.string();
      if (options.policy) p.policy_file = options.policy->string();
      p.policy_notes = s.notes;
      p.repro = repro_of(options, s.file, s.own_policy, seed);
      return p;
    };
    batches.push_back({&*s.prepared, &s.prepared->scenario().policy, s.seeds, provenance});
    scenario_of.push_back(i);
  }
  std::size_t printed = 0;
  const auto print_up_to = [&](std::size_t end) {
    for (; printed < end; ++printed) {
      if (options.quiet && scenarios[printed].exit_code == kExitOk) continue;
      fmt::print("{}", result_line(scenarios[printed]));
      std::fflush(stdout);
    }
  };
  const auto results = run_seed_batches(batches, jobs, [&](std::size_t b, std::span<const SeedRunResult> ready) {
    settle(scenarios[scenario_of[b]], ready);
    print_up_to(scenario_of[b] + 1);
  });
  print_up_to(scenarios.size());
  for (std::size_t b = 0; b < batches.size(); ++b) {
    SeedScenario& s = scenarios[scenario_of[b]];
    if (s.summary) s.first = results[b].front().report;
  }
  return scenarios;
}

std::string pass_k_cells(const SeedSummary& summary) {
  std::string cells;
  for (const double p : summary.pass_k) cells += fmt::format("  {:>8}", round_ratio(p));
  return cells;
}

// The table: a row per scenario with the seeds that passed every threshold and pass^k,
// under it a row per threshold with its seeds passed and required pass rate ("MISS" in the
// result column when the requirement is not met).
std::string final_table(std::span<const SeedScenario> scenarios, std::size_t seed_count) {
  std::size_t width = std::string_view("scenario / threshold").size();
  for (const SeedScenario& s : scenarios) {
    width = std::max(width, escape_controls(s.file.string()).size());
    if (!s.summary) continue;
    for (const ThresholdPassRate& t : s.summary->thresholds) {
      width = std::max(width, escape_controls(t.metric + " " + t.expression).size() + 2);
    }
  }
  std::string out =
      fmt::format("\n{:<7}{:<{}}  {:>12}  {:<10}", "result", "scenario / threshold", width, "seeds passed", "required");
  for (std::size_t k = 1; k <= std::min(seed_count, kMaxPassK); ++k)
    out += fmt::format("  {:>8}", fmt::format("pass^{}", k));
  out += '\n';
  for (const SeedScenario& s : scenarios) {
    const std::string name = escape_controls(s.file.string());
    if (!s.summary) {
      out += fmt::format("{:<7}{:<{}}  {:>12}  {}\n", "ERROR", name, width, "-",
                         fmt::format("not run (exit {})", s.exit_code));
      continue;
    }
    const SeedSummary& summary = *s.summary;
    const std::size_t n = summary.seeds.size();
    out += fmt::format("{:<7}{:<{}}  {:>12}  {:<10}{}\n", summary.passed ? "PASS" : "FAIL", name, width,
                       fmt::format("{}/{}", summary.seeds_passed, n), "", pass_k_cells(summary));
    for (const ThresholdPassRate& t : summary.thresholds) {
      const std::string required = t.required ? to_string(*t.required) : "every seed";
      const std::string row = fmt::format("{:<7}{:<{}}  {:>12}  {}", t.met ? "" : "MISS",
                                          "  " + escape_controls(t.metric + " " + t.expression), width,
                                          fmt::format("{}/{}", t.passed, n), required);
      out += row + '\n';
    }
  }
  return out;
}

// Each failed scenario's thresholds that missed their pass rate and a repro line (the first
// failed seed of the first of them), then the verdict line.
std::string failures_and_verdict(const CiOptions& options, std::span<const SeedScenario> scenarios, int exit_code) {
  std::string out;
  std::size_t passed = 0;
  std::size_t failed = 0;
  for (const SeedScenario& s : scenarios) {
    if (!s.summary) continue;
    if (s.summary->passed) {
      ++passed;
      continue;
    }
    ++failed;
    for (std::size_t i = 0; i < s.summary->thresholds.size(); ++i) {
      const ThresholdPassRate& t = s.summary->thresholds[i];
      if (t.met) continue;
      const std::vector<std::uint64_t> seeds = s.summary->failed_seeds(i);
      out += escape_controls(fmt::format("threshold failed: {}: {}: {} on {}, failed on seed{} {}", s.file.string(),
                                         t.metric, t.expression, pass_rate_line(*s.summary, i),
                                         seeds.size() == 1 ? "" : "s", fmt::join(seeds, ", "))) +
             "\n";
    }
    out += escape_controls("repro: " + repro_of(options, s.file, s.own_policy, s.summary->repro_seed())) + "\n";
  }
  return out + ci_verdict(scenarios.size(), passed, failed, exit_code);
}

std::vector<SuiteOutcome> suite_outcomes(const CiOptions& options, std::span<const SeedScenario> scenarios) {
  std::vector<SuiteOutcome> outcomes;
  for (const SeedScenario& s : scenarios) {
    SuiteOutcome o{s.file.string(), s.first ? &*s.first : nullptr, s.error, {}};
    if (s.summary) {
      o.seeds = {&*s.summary, s.described, [&options, file = s.file, own = s.own_policy](std::uint64_t seed) {
                   return repro_of(options, file, own, seed);
                 }};
    }
    outcomes.push_back(std::move(o));
  }
  return outcomes;
}

}  // namespace

std::optional<std::string> ci_seeds_problem(const CiOptions& options) {
  // The syntax is checked once here; a count is checked again from each scenario's seed.
  auto parsed = parse_seed_list(*options.seeds, 0);
  if (const auto* message = std::get_if<std::string>(&parsed)) return *message;
  if (options.baseline) {
    return "--baseline cannot be combined with --seeds: a baseline report is one run's; with --seeds, gate on the "
           "thresholds' pass rates (\"pass_rate\")";
  }
  if (options.progress) return "--progress cannot be combined with --seeds: it follows one run per scenario";
  if (options.check_invariants) {
    return "--check-invariants cannot be combined with --seeds: it watches each scenario's one run";
  }
  return std::nullopt;
}

int ci_seeds_command(const CiOptions& options, const std::vector<fs::path>& files, std::size_t jobs,
                     const CiOutputs& outputs) {
  fmt::print("squall ci: {}, seeds {}\n", counted(files.size(), "scenario"), escape_controls(*options.seeds));
  std::fflush(stdout);
  const auto wall_start = std::chrono::steady_clock::now();
  const std::vector<SeedScenario> scenarios = run_all(options, files, jobs);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
  int exit_code = kExitOk;
  std::size_t runs = 0;
  std::size_t seed_count = 0;
  for (const SeedScenario& s : scenarios) {
    exit_code = worst_exit_code(exit_code, s.exit_code);
    if (s.summary) runs += s.seeds.size();
    seed_count = std::max(seed_count, s.seeds.size());
  }
  if (!options.quiet) fmt::print("{}", final_table(scenarios, seed_count));
  std::fflush(stdout);
  // Wall time varies from run to run: stderr, so stdout is the same for any --jobs.
  if (!options.quiet) {
    fmt::print(stderr, "ran {} of {} on {} in {:.2f} s of wall time\n", counted(runs, "run"),
               counted(files.size(), "scenario"), counted(jobs, "job"), wall.count());
  }
  const std::vector<SuiteOutcome> outcomes = suite_outcomes(options, scenarios);
  try {
    for (const std::string& line : write_outputs(outputs, files, outcomes)) {
      if (!options.quiet) fmt::print("{}\n", line);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "squall ci: cannot write report: {}\n", e.what());
    exit_code = worst_exit_code(exit_code, kExitBadInput);
  }
  fmt::print("{}", failures_and_verdict(options, scenarios, exit_code));
  return exit_code;
}

}  // namespace squall::cli
