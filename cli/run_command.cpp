#include <fmt/core.h>
#include <chrono>
#include <cstdio>

#include "cli/checked_run.hpp"
#include "cli/commands.hpp"
#include "cli/determinism.hpp"
#include "cli/expected_tasks.hpp"
#include "cli/output_path.hpp"
#include "cli/progress.hpp"
#include "cli/report_requests.hpp"
#include "cli/repro.hpp"
#include "cli/run_inputs.hpp"
#include "cli/run_outputs.hpp"
#include "cli/step_summary.hpp"
#include "cli/terminal.hpp"
#include "engine/tee_sink.hpp"
#include "reports/fingerprint.hpp"
#include "reports/json_writer.hpp"
#include "reports/text_summary.hpp"
#include "sim/invariant_checker.hpp"
#include "sim/run.hpp"
#include "sim/scenario/validation_error.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {
namespace {

// Runs the scenario a second time in a fresh world and compares (DESIGN section 3). Prints
// what differs and returns false on a mismatch.
bool same_when_rerun(const PreparedScenario& prepared, std::uint64_t seed, const Provenance& provenance,
                     const Report& first, bool quiet) {
  const Report second = prepared.run(seed, provenance);
  if (const auto mismatch = determinism_mismatch(first, second)) {
    fmt::print("{}", *mismatch);
    return false;
  }
  if (!quiet) {
    fmt::print("determinism: two runs gave identical reports ({} bytes, fingerprint {})\n", to_json_text(first).size(),
               fingerprint_hex(first.fingerprint));
  }
  return true;
}

// The terminal summary on stdout (unless quiet), then the wall time on stderr.
void print_summary(const Report& report, bool quiet, double wall_seconds) {
  if (!quiet) fmt::print("{}", text_summary(report, use_color(stdout)));
  // Wall time varies between runs, so it goes to stderr: stdout stays byte-identical. It
  // follows everything printed so far in a merged log (stdout is flushed first).
  std::fflush(stdout);
  if (!quiet) {
    fmt::print(stderr, "simulated {:.1f} s of virtual time in {:.2f} s of wall time\n",
               to_millis(report.duration) / 1e3, wall_seconds);
  }
}

// Writes every requested report; false (after saying why) when one cannot be written.
bool write_outputs(RunOutputs& outputs, const Report& report, bool quiet) {
  try {
    for (const std::string& line : outputs.write(report)) {
      if (!quiet) fmt::print("{}\n", line);
    }
    return true;
  } catch (const std::exception& e) {
    fmt::print(stderr, "squall: cannot write report: {}\n", e.what());
    return false;
  }
}

// Runs the scenario with progress on stderr when it is due (cli/progress.hpp). Throws
// RunLimitExceeded, after erasing the progress line.
Report run_with_progress(const RunOptions& options, PreparedScenario& prepared, std::uint64_t seed,
                         const Provenance& provenance, EventSink* observer,
                         std::chrono::steady_clock::time_point wall_start) {
  ProgressLine progress_line(stderr, is_terminal(stderr));
  ProgressCallback progress;
  if (show_progress(options.progress, options.quiet, is_terminal(stderr))) {
    progress = [&](const RunProgress& p) {
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - wall_start;
      progress_line.update(p, elapsed.count());
    };
  }
  try {
    Report report = prepared.run(seed, provenance, observer, progress);
    progress_line.finish();
    return report;
  } catch (const RunLimitExceeded&) {
    progress_line.finish();
    throw;
  }
}

// After the summary that explains them and on its stream, so a merged CI log reads in
// order, the failing thresholds and the repro line last. Returns the exit code.
int threshold_verdict(const Report& report, const Provenance& provenance) {
  if (report.all_thresholds_passed()) return kExitOk;
  for (const ThresholdResult& t : report.thresholds) {
    if (t.passed) continue;
    fmt::print("threshold failed: {}: {} (observed {})\n", t.metric, t.expression, format_observed(t));
  }
  fmt::print("repro: {}\n", provenance.repro);
  return kExitThresholdFailed;
}

Provenance run_provenance(const RunOptions& options, const CheckedRun& checked, std::uint64_t seed) {
  Provenance provenance;
  provenance.scenario_file = options.scenario.string();
  if (options.policy) provenance.policy_file = options.policy->string();
  provenance.policy_notes = checked.policy_notes;
  provenance.repro = repro_command(options, seed);
  return provenance;
}

// What watches the run's events: the streamed reports (jsonl, otlp) and, with
// --check-invariants, the invariant checker beside them. Not movable: the tee views both.
class Watchers {
 public:
  Watchers(RunOutputs& outputs, const Scenario& scenario, bool check_invariants) : sink_(outputs.observer()) {
    if (!check_invariants) return;
    checker_.emplace(scenario);
    sink_ = sink_ != nullptr ? static_cast<EventSink*>(&both_.emplace(*sink_, *checker_)) : &*checker_;
  }
  Watchers(const Watchers&) = delete;
  Watchers& operator=(const Watchers&) = delete;
  EventSink* sink() const { return sink_; }
  // False, after printing the violations and the repro line, when the checker found any: a
  // bug in squall's engine, so the report is not to be trusted and nothing is written.
  bool held(const RunOptions& options, std::uint64_t seed) const {
    if (!checker_) return true;
    if (checker_->violation_count() == 0) {
      if (!options.quiet) {
        fmt::print("invariants: {} rules held over {} attempts\n", InvariantChecker::kRules.size(),
                   checker_->attempts());
      }
      return true;
    }
    std::fflush(stdout);
    fmt::print(stderr, "squall: internal error: {}", checker_->summary());
    fmt::print("repro: {} --check-invariants\n", repro_command(options, seed));
    return false;
  }

 private:
  std::optional<InvariantChecker> checker_;
  std::optional<TeeSink> both_;
  EventSink* sink_;
};

}  // namespace

int run_command(const RunOptions& options) {
  if (options.seeds) return run_seeds_command(options);
  if (options.jobs != 0) {
    fmt::print(stderr, "squall: --jobs runs seeds in parallel: it needs --seeds\n");
    return kExitBadInput;
  }
  std::optional<CheckedRun> checked = check_run(options);
  if (!checked) return kExitBadInput;
  // Before the seed line, so a run that will not end soon says so first.
  if (const auto warning = many_tasks_warning(checked->scenario)) fmt::print(stderr, "{}\n", *warning);
  const std::uint64_t seed = options.seed.value_or(checked->scenario.seed);
  // The seed comes first, so that even a crashed run can be reproduced.
  fmt::print("squall run {}: seed {}\n", checked->scenario.name, seed);
  std::fflush(stdout);

  const auto wall_start = std::chrono::steady_clock::now();
  const Provenance provenance = run_provenance(options, *checked, seed);
  std::optional<PreparedScenario> prepared;
  std::optional<RunOutputs> outputs;
  try {
    prepared.emplace(std::move(checked->scenario));
    prepared->set_limits(RunLimits{options.max_in_flight});
  } catch (const CorpusError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kExitBadInput;
  }
  try {
    outputs.emplace(std::move(checked->reports.requests), checked->step_summary,
                    TraceHeader{prepared->scenario().name, seed, std::string(squall_version())},
                    otlp_run_info(prepared->scenario(), seed));
  } catch (const std::runtime_error& e) {  // a temporary file of a streamed report
    fmt::print(stderr, "squall: {}\n", e.what());
    return kExitBadInput;
  }
  Watchers watchers(*outputs, prepared->scenario(), options.check_invariants);
  Report report;
  try {
    report = run_with_progress(options, *prepared, seed, provenance, watchers.sink(), wall_start);
  } catch (const RunLimitExceeded& e) {
    // outputs' temporary files go with it: nothing is written.
    fmt::print(stderr, "squall: run stopped, no report written: {}\n", run_limit_message(e));
    return kExitBadInput;
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
  print_summary(report, options.quiet, wall.count());
  if (!watchers.held(options, seed)) return kExitInternalError;
  if (options.check_determinism && !same_when_rerun(*prepared, seed, provenance, report, options.quiet)) {
    // The report is not to be trusted: nothing is written (outputs' temporary files go).
    fmt::print("repro: {} --check-determinism\n", repro_command(options, seed));
    return kExitNondeterministic;
  }
  if (!write_outputs(*outputs, report, options.quiet)) return kExitBadInput;
  return threshold_verdict(report, provenance);
}

}  // namespace squall::cli
