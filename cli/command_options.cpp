// Every command's flags (cli/command_line.hpp). Optional settings are written through
// add_option_function so that an absent flag leaves the std::optional empty.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <variant>

#include "cli/command_line.hpp"
#include "engine/runtime/duration.hpp"
#include "engine/text.hpp"
#include "reports/writers/report_formats.hpp"

namespace squall::cli {
namespace {

// Every command reads both formats (sim/scenario_loader.hpp): YAML by the file's
// extension (sim/scenario/yaml_document.hpp is_yaml_file), JSON otherwise.
constexpr const char* kScenarioFileHelp =
    "Scenario file: JSON (comments allowed), or YAML when its name ends in .yaml or .yml (any case)";
constexpr const char* kScenarioFilesHelp =
    "Scenario files: JSON (comments allowed), or YAML when a name ends in .yaml or .yml (any case)";
constexpr const char* kCheckInvariantsHelp =
    "Watch every event of the run for a breach of the engine's invariants (docs/ci.md); a breach is exit 70 "
    "and nothing is written";
constexpr const char* kProgressHelp = " for runs over a second, even when stderr is not a terminal; never with --quiet";

void add_seed(CLI::App& cmd, std::optional<std::uint64_t>& seed) {
  cmd.add_option_function<std::string>(
         "--seed", [&seed](const std::string& text) { seed = parse_seed(text); }, "Seed overriding the scenario's")
      ->check(seed_validator());
}

void add_jobs(CLI::App& cmd, std::size_t& jobs, const char* help) {
  cmd.add_option("-j,--jobs", jobs, help)->check(integer_in(1, 1024));
}

// --seeds (cli/seed_list.hpp); `first` says where a count starts.
void add_seeds_option(CLI::App& cmd, std::optional<std::string>& seeds, const char* first) {
  cmd.add_option_function<std::string>(
         "--seeds", [&seeds](const std::string& text) { seeds = text; },
         fmt::format("Run every seed in parallel and report each threshold's pass rate and pass^k: N seeds from {}, "
                     "a list (1,5,9) or a range (100..107); at most 10000",
                     first))
      ->type_name("N|LIST|RANGE");
}

// --seeds and the --jobs that runs them in parallel.
void add_seeds(CLI::App& cmd, std::optional<std::string>& seeds, std::size_t& jobs) {
  add_seeds_option(cmd, seeds, "--seed (or the scenario's)");
  add_jobs(cmd, jobs, "With --seeds: seeds run at once (default: one per hardware thread)");
}

void add_path(CLI::App& cmd, const char* name, std::optional<std::filesystem::path>& path, const std::string& help) {
  cmd.add_option_function<std::string>(
      name, [&path](const std::string& text) { path = text; }, help);
}

void add_reports(CLI::App& cmd, std::vector<std::string>& reports, const std::string& help) {
  cmd.add_option("--report", reports, help)->type_name("FORMAT=PATH");
}

void add_max_in_flight(CLI::App& cmd, std::uint64_t& max_in_flight, const char* help) {
  cmd.add_option("--max-in-flight", max_in_flight, help)->check(integer_in(1, 1'000'000'000))->capture_default_str();
}

void add_fail_on(CLI::App& cmd, std::vector<std::string>& fail_on, const char* sides) {
  cmd.add_option("--fail-on", fail_on,
                 fmt::format("Exit 1 when {} by more than a margin: METRIC:+N or METRIC:-N, N a number or a "
                             "percentage of A (latency_ms.p99:+10%, task_success:-0.01); the sign is the worse "
                             "direction; repeatable",
                             sides))
      ->type_name("METRIC:MARGIN");
}

void add_sweep_gate(CLI::App& cmd, std::vector<std::string>& fail_on, std::optional<std::string>& candidate) {
  cmd.add_option("--fail-on", fail_on,
                 "Exit 1 when the candidate variant is worse than the baseline on a metric (worse) or misses a "
                 "threshold on too many seeds (infeasible); repeatable")
      ->type_name("worse|infeasible");
  cmd.add_option_function<std::string>(
         "--candidate", [&candidate](const std::string& name) { candidate = name; },
         "The variant --fail-on judges (default: the one variant besides the baseline)")
      ->type_name("VARIANT");
}

}  // namespace

CLI::App* add_run_command(CLI::App& app, RunOptions& options) {
  CLI::App* cmd = app.add_subcommand("run", "Run a scenario and report; exit 1 if a threshold fails");
  cmd->add_option("scenario", options.scenario, kScenarioFileHelp)->required();
  add_seed(*cmd, options.seed);
  add_seeds(*cmd, options.seeds, options.jobs);
  add_path(*cmd, "--policy", options.policy, "Policy file replacing the scenario's policy block (JSON or YAML)");
  add_path(*cmd, "--out", options.out, "Write the JSON report here (atomically)");
  add_max_in_flight(*cmd, options.max_in_flight,
                    "Stop (exit 2, no report) when more tasks than this are in flight at once");
  std::string formats;
  for (const ReportFormat& f : report_formats()) formats += fmt::format("\n  {}: {}", f.name, f.description);
  add_reports(*cmd, options.reports, "Write a report in FORMAT to PATH (atomically); repeatable. Formats:" + formats);
  cmd->add_flag("-q,--quiet", options.quiet,
                "Print only the seed line, failing thresholds and the repro line (and errors)");
  cmd->add_flag("--progress", options.progress,
                std::string("Show progress on stderr (simulated time, tasks done, rate)") + kProgressHelp);
  cmd->add_flag("--check-determinism", options.check_determinism,
                "Run twice in fresh worlds and compare the reports; exit 3 if they differ");
  cmd->add_flag("--check-invariants", options.check_invariants, kCheckInvariantsHelp);
  return cmd;
}

CLI::App* add_validate_command(CLI::App& app, ValidateOptions& options) {
  CLI::App* cmd = app.add_subcommand("validate", "Check scenario, sweep and policy files; report every error");
  cmd->add_option("files", options.files, kScenarioFilesHelp);
  cmd->add_option("--policy", options.policies, "Policy files (as `run --policy` takes them), JSON or YAML");
  cmd->add_flag("--print-json", options.print_json,
                "Print the one scenario (or --policy file) given as plain JSON (no comments) for standard JSON "
                "Schema validators");
  return cmd;
}

CLI::App* add_ci_command(CLI::App& app, CiOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "ci",
      "Run many scenarios in parallel; one line each, a table, one JUnit file and one Markdown summary; exit with "
      "the worst code (70, 3, 2, 1, 0)");
  cmd->add_option("inputs", options.inputs,
                  std::string(kScenarioFilesHelp) +
                      "; directories stand for their *.json, *.yaml and *.yml files (any case, not hidden ones)")
      ->required();
  add_jobs(*cmd, options.jobs, "Scenarios (with --seeds, runs) at once (default: one per hardware thread)");
  add_seeds_option(*cmd, options.seeds, "each scenario's own seed");
  add_max_in_flight(*cmd, options.max_in_flight,
                    "Stop a scenario (exit 2 for it) when more tasks than this are in flight at once");
  add_reports(*cmd, options.reports,
              "Write junit=PATH (a test suite per scenario), markdown=PATH, json-dir=DIR (each scenario's JSON "
              "report as DIR/NAME.json, NAME its file's name without the extension) or html-dir=DIR (each "
              "scenario's page as DIR/NAME.html and DIR/index.html linking them); repeatable");
  add_path(*cmd, "--policy", options.policy,
           "Run every scenario under this policy file (JSON or YAML): tools a scenario lacks are skipped, tools it "
           "does not name keep the scenario's own entry, each with a note");
  add_path(*cmd, "--baseline", options.baseline,
           "Gate each scenario's report against DIR/NAME.json (as json-dir=DIR writes them) with --fail-on");
  add_fail_on(*cmd, options.fail_on, "a scenario's report is worse than its --baseline report");
  cmd->add_flag("-q,--quiet", options.quiet,
                "Print only the scenarios that did not pass, their failures and the verdict");
  cmd->add_flag("--check-invariants", options.check_invariants, kCheckInvariantsHelp);
  cmd->add_flag("--progress", options.progress,
                std::string("Show progress on stderr (scenarios done, the running ones and how far each has "
                            "simulated)") +
                    kProgressHelp);
  return cmd;
}

CLI::App* add_compare_command(CLI::App& app, CompareOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "compare", "Headline metrics of two policies on one scenario and seed, or of two JSON reports, side by side");
  cmd->add_option("inputs", options.inputs, "A scenario, JSON or YAML (with --policy), or two JSON reports")
      ->required();
  cmd->add_option("--policy", options.policies,
                  "Policy file; twice for A against B, once for the scenario's own policy against it");
  add_reports(*cmd, options.reports,
              "Also write the comparison as json=PATH (for scripts) or markdown=PATH (a table for a job summary), "
              "atomically; repeatable");
  add_fail_on(*cmd, options.fail_on, "B is worse than A");
  add_seed(*cmd, options.seed);
  return cmd;
}

CLI::App* add_sweep_command(CLI::App& app, SweepOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "sweep",
      "Run policy variants on common seeds in parallel; means, 95% intervals, paired differences against a "
      "baseline, the Pareto front (docs/sweeps.md)");
  cmd->add_option("sweep", options.sweep, "Sweep file (JSON or YAML)")->required();
  add_jobs(*cmd, options.jobs, "Runs at once (default: one per hardware thread)");
  cmd->add_option_function<std::string>(
         "--shard", [&options](const std::string& text) { options.shard = text; },
         "Run slice i of n (1-based) and write a partial result to --out")
      ->type_name("i/n");
  add_path(*cmd, "--out", options.out, "Write the JSON report here (with --shard: the partial result)");
  add_reports(*cmd, options.reports, "Write json, markdown, csv or html to PATH; repeatable");
  cmd->add_flag("-q,--quiet", options.quiet, "Print no table (errors only)");
  cmd->add_flag("--dry-run", options.dry_run,
                "Check the sweep, scenario and policy files and print the variants, seeds and runs; run nothing");
  cmd->add_flag("--progress", options.progress,
                "Show progress with an ETA on stderr even when stderr is not a terminal; never with --quiet");
  add_sweep_gate(*cmd, options.fail_on, options.candidate);
  return cmd;
}

CLI::App* add_merge_command(CLI::App& app, MergeOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "merge", "Combine the partial results of every shard of a sweep into the unsharded sweep's outputs");
  cmd->add_option("partials", options.partials, "Partial results written by `squall sweep --shard i/n --out`")
      ->required();
  add_path(*cmd, "--out", options.out, "Write the JSON report here");
  add_reports(*cmd, options.reports, "Write json, markdown, csv or html to PATH; repeatable");
  cmd->add_flag("-q,--quiet", options.quiet, "Print no table (errors only)");
  add_sweep_gate(*cmd, options.fail_on, options.candidate);
  return cmd;
}

CLI::App* add_replay_command(CLI::App& app, ReplayOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "replay", "Read production traces (OTLP JSON, LiteLLM JSONL): the tasks, logical calls and attempts they hold");
  cmd->add_option("traces", options.traces, "Trace files")->required();
  cmd->add_option("--format", options.format, "otlp, litellm or auto (default: by content)");
  add_path(*cmd, "--out-dir", options.out_dir,
           "Write the fitted scenario.yaml, as-deployed.yaml (policy) and the calibration report (calibration.json, "
           "calibration.md) here, all or none; created when missing, those files replaced when present");
  cmd->add_option("--calibration-seeds", options.calibration_seeds,
                  "With --out-dir: seeds the fitted scenario runs under the as-deployed policy (default 20)")
      ->check(integer_in(1, 10000));
  add_jobs(*cmd, options.jobs, "Calibration runs at once (default: one per hardware thread)");
  add_path(*cmd, "--policy", options.policy,
           "With --out-dir: also run this policy file on the fitted world on the calibration's seeds (common random "
           "numbers), beside the trace and the as-deployed runs, with paired 95% intervals");
  return cmd;
}

CLI::App* add_shrink_command(CLI::App& app, ShrinkOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "shrink", "Find a smaller fault schedule that still fails a threshold the scenario fails, and write it");
  cmd->add_option("scenario", options.scenario, kScenarioFileHelp)->required();
  add_path(*cmd, "--policy", options.policy, "Shrink under this policy file (as run --policy takes it)");
  add_seed(*cmd, options.seed);
  cmd->add_option("--threshold", options.threshold,
                  "Keep only this metric's failing thresholds failing (as written, tags included); default: all "
                  "the run fails");
  add_path(*cmd, "--out", options.out,
           "Write the shrunk scenario here (atomically; default STEM.shrunk.json in the current directory)");
  return cmd;
}

CLI::App* add_serve_command(CLI::App& app, ServeOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "serve", "Serve the scenario's providers over HTTP (OpenAI API) to a real client; exit 1 if a threshold fails");
  cmd->add_option("scenario", options.scenario, kScenarioFileHelp)->required();
  cmd->add_option("--listen", options.listen, "HOST:PORT to listen on, a numeric address; port 0 picks a free port")
      ->capture_default_str();
  add_seed(*cmd, options.seed);
  cmd->add_option("--time-scale", options.time_scale,
                  "Scenario seconds per real second (windows, latencies and Retry-After delays are divided by it)")
      ->check(CLI::Range(1e-3, 1e3))
      ->capture_default_str();
  cmd->add_option_function<std::string>(
         "--duration",
         [&options](const std::string& text) { options.duration = std::get<Nanos>(parse_duration(text)); },
         "Serve this long (scenario time, e.g. 90s, 15m), then report; default: until stopped")
      ->check(duration_validator());
  cmd->add_option_function<std::string>(
         "--request-timeout",
         [&options](const std::string& text) { options.request_timeout = std::get<Nanos>(parse_duration(text)); },
         "Real time a client has to send a whole request (an idle keep-alive connection included) or to take one "
         "write, from 1ms; then the connection is closed without an answer (default 30s)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            const auto parsed = parse_duration(text);
            if (std::holds_alternative<Nanos>(parsed) && std::get<Nanos>(parsed) >= kMillisecond) return {};
            return fmt::format("expected a duration of at least 1ms (30s, 500ms), got \"{}\"", escape_controls(text));
          },
          "DURATION"));
  cmd->add_option("--max-connections", options.max_connections,
                  "Connections served at once; more are answered 503 and closed, and beyond 64 of those being "
                  "refused at once, closed without an answer")
      ->check(integer_in(1, 1'000'000))
      ->capture_default_str();
  cmd->add_option("--loop-resends", options.loop_resends,
                  "A payload a client sends again this many times counts as a loop (metric client_loops)")
      ->check(integer_in(1, 1'000'000))
      ->capture_default_str();
  add_path(*cmd, "--out", options.out, "Write the JSON report here (atomically)");
  add_reports(*cmd, options.reports, "Write a report in FORMAT to PATH (atomically); repeatable");
  cmd->add_flag("-q,--quiet", options.quiet, "Print only the base URL, failing thresholds and errors");
  return cmd;
}

}  // namespace squall::cli
