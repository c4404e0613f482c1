// `squall run SCENARIO --seeds N|LIST|RANGE`: every seed in parallel, one line per seed, the
// thresholds' pass rates and pass^k (reports/seed_summary_text.hpp), the JSON report of the
// first seed with a `seeds` section, and a Markdown summary of the seeds.
#include <fmt/core.h>

#include <chrono>
#include <cstdio>

#include "cli/checked_run.hpp"
#include "cli/commands.hpp"
#include "cli/expected_tasks.hpp"
#include "cli/output_path.hpp"
#include "cli/repro.hpp"
#include "cli/seed_list.hpp"
#include "cli/step_summary.hpp"
#include "cli/terminal.hpp"
#include "reports/atomic_file.hpp"
#include "reports/seed_summary_text.hpp"
#include "sim/parallel_runs.hpp"
#include "sim/seed_runs.hpp"

namespace squall::cli {
namespace {

// What --seeds cannot be combined with, and why; nullopt when nothing.
std::optional<std::string> combination_problem(const RunOptions& options, const SeedList& seeds) {
  if (options.seed && !seeds.counted) {
    return fmt::format(
        "--seed cannot be combined with --seeds {}, which names every seed; --seeds N runs N seeds "
        "from --seed",
        *options.seeds);
  }
  if (options.check_determinism) {
    return "--check-determinism cannot be combined with --seeds: it checks one run; use --seed N";
  }
  if (options.check_invariants) {
    return "--check-invariants cannot be combined with --seeds: it watches one run; use --seed N";
  }
  if (options.progress) return "--progress cannot be combined with --seeds: it follows one run";
  for (const std::string& spec : options.reports) {
    const std::string format = spec.substr(0, spec.find('='));
    if (format != "json" && format != "markdown") {
      return fmt::format(
          "--report {} cannot be combined with --seeds: it describes one run (use --seed N); with "
          "--seeds, json and markdown",
          format);
    }
  }
  return std::nullopt;
}

// Writes the requested files (every one before any is published); false after saying why.
bool write_seed_outputs(const CheckedRun& run, const Report& first, const SeedSummary& summary,
                        const std::string& seeds, bool quiet) {
  try {
    const std::string markdown = seed_summary_markdown(run.scenario.name, summary, seeds);
    AtomicFileBatch batch;
    std::vector<std::string> lines;
    for (const ReportRequest& r : run.reports.requests) {
      const bool json = r.format->name == "json";
      // Asked to write the summary to the step summary file itself: appended below, once.
      if (!json && run.step_summary && output_identity(r.path) == output_identity(*run.step_summary)) continue;
      batch.add(resolve_output(r.path), json ? seeds_report_json_text(first, summary) : markdown);
      lines.push_back(fmt::format("{} report written to {}", r.format->name, r.path.string()));
    }
    batch.commit();
    if (run.step_summary) {
      append_to_file(*run.step_summary, markdown);
      lines.push_back(
          fmt::format("markdown summary appended to {} ($GITHUB_STEP_SUMMARY)", run.step_summary->string()));
    }
    for (const std::string& line : lines) {
      if (!quiet) fmt::print("{}\n", line);
    }
    return true;
  } catch (const std::exception& e) {
    fmt::print(stderr, "squall: cannot write report: {}\n", e.what());
    return false;
  }
}

// The thresholds whose requirement failed, then one repro line: the first failed seed of
// the first of them. Returns the exit code.
int seeds_verdict(const SeedSummary& summary, const RunOptions& options) {
  if (summary.passed) return kExitOk;
  std::optional<std::uint64_t> repro_seed;
  for (std::size_t i = 0; i < summary.thresholds.size(); ++i) {
    const ThresholdPassRate& t = summary.thresholds[i];
    if (t.met) continue;
    fmt::print("threshold failed: {}: {} on {}\n", t.metric, t.expression, pass_rate_line(summary, i));
    if (!repro_seed) repro_seed = summary.failed_seeds(i).front();
  }
  fmt::print("repro: {}\n", repro_command(options, *repro_seed));
  return kExitThresholdFailed;
}

// Each seed's outcome; nullopt, after saying which seed and why, when a run was stopped by
// its limits (exit 2, nothing written). Any other exception is a bug: it goes on to main.
std::optional<std::vector<SeedOutcome>> outcomes_of(const std::vector<SeedRunResult>& results,
                                                    const std::vector<std::uint64_t>& seeds) {
  std::vector<SeedOutcome> outcomes;
  for (std::size_t i = 0; i < results.size(); ++i) {
    try {
      if (results[i].error) std::rethrow_exception(results[i].error);
    } catch (const RunLimitExceeded& e) {
      fmt::print(stderr, "squall: run on seed {} stopped, no report written: {}\n", seeds[i], run_limit_message(e));
      return std::nullopt;
    }
    outcomes.push_back(*results[i].outcome);
  }
  return outcomes;
}

}  // namespace

int run_seeds_command(const RunOptions& options) {
  std::optional<CheckedRun> checked = check_run(options);
  if (!checked) return kExitBadInput;
  auto parsed = parse_seed_list(*options.seeds, options.seed.value_or(checked->scenario.seed));
  if (const auto* message = std::get_if<std::string>(&parsed)) {
    fmt::print(stderr, "squall: {}\n", escape_controls(*message));
    return kExitBadInput;
  }
  const SeedList seeds = std::get<SeedList>(std::move(parsed));
  if (const auto problem = combination_problem(options, seeds)) {
    fmt::print(stderr, "squall: {}\n", escape_controls(*problem));
    return kExitBadInput;
  }
  if (const auto warning = many_tasks_warning(checked->scenario)) fmt::print(stderr, "{}\n", *warning);
  const std::string described = describe_seeds(seeds.seeds);
  fmt::print("squall run {}: seeds {}\n", checked->scenario.name, described);
  std::fflush(stdout);

  const auto wall_start = std::chrono::steady_clock::now();
  std::optional<PreparedScenario> prepared;
  try {
    prepared.emplace(checked->scenario);
    prepared->set_limits(RunLimits{options.max_in_flight});
  } catch (const CorpusError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kExitBadInput;
  }
  const auto provenance = [&](std::uint64_t seed) {
    Provenance p;
    p.scenario_file = options.scenario.string();
    if (options.policy) p.policy_file = options.policy->string();
    p.policy_notes = checked->policy_notes;
    p.repro = repro_command(options, seed);
    return p;
  };
  const std::size_t jobs = options.jobs == 0 ? default_jobs() : options.jobs;
  std::vector<SeedRunResult> results = run_seeds(*prepared, prepared->scenario().policy, seeds.seeds, jobs, provenance);
  std::optional<std::vector<SeedOutcome>> outcomes = outcomes_of(results, seeds.seeds);
  if (!outcomes) return kExitBadInput;
  const SeedSummary summary = summarize_seeds(prepared->scenario().thresholds, std::move(*outcomes));
  if (!options.quiet) fmt::print("{}", seed_summary_text(summary, described, use_color(stdout)));
  std::fflush(stdout);
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
  if (!options.quiet) {
    fmt::print(stderr, "simulated {} seeds on {} in {:.2f} s of wall time\n", seeds.seeds.size(),
               jobs == 1 ? std::string("1 job") : fmt::format("{} jobs", jobs), wall.count());
  }
  if (!write_seed_outputs(*checked, *results.front().report, summary, described, options.quiet)) return kExitBadInput;
  return seeds_verdict(summary, options);
}

}  // namespace squall::cli
