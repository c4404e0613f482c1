// squall: the command line. The only place where wall-clock time may be read.
#include <fmt/core.h>
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <functional>
#include <system_error>

#include "cli/commands.hpp"
#include "cli/huge_pages.hpp"
#include "cli/interrupt.hpp"
#include "cli/replay_command.hpp"
#include "cli/serve_command.hpp"
#include "cli/standard_output.hpp"
#include "reports/writers/report_formats.hpp"

namespace {

// Every command reads both formats (sim/scenario_loader.hpp): YAML by the file's
// extension (sim/scenario/yaml_document.hpp is_yaml_file), JSON otherwise.
constexpr const char* kScenarioFileHelp =
    "Scenario file: JSON (comments allowed), or YAML when its name ends in .yaml or .yml (any case)";
constexpr const char* kScenarioFilesHelp =
    "Scenario files: JSON (comments allowed), or YAML when a name ends in .yaml or .yml (any case)";

// A count option read as --seed is (parse_seed: decimal digits only) and bounded: CLI11's
// Range said "Value 1.5 not in range 1 to 1000000000" for a value that is not an integer.
CLI::Validator integer_in(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        const auto value = squall::cli::parse_seed(text);
        if (value && *value >= lo && *value <= hi) return {};
        return fmt::format("expected an integer in [{}, {}], got \"{}\"", lo, hi, text);
      },
      fmt::format("INT in [{}, {}]", lo, hi));
}

// Every option takes one value per occurrence. CLI11 lets an option that collects a vector
// (--report, --policy) take every following word, so `run --report junit=X s.json`, the
// order CI steps are written in, read the scenario as a second report. Applied to every
// command once they are all registered, so a command added later gets it too.
void one_value_per_occurrence(CLI::App& app) {
  for (CLI::App* command : app.get_subcommands(std::function<bool(CLI::App*)>{}))
    for (CLI::Option* option : command->get_options())
      if (option->nonpositional()) option->allow_extra_args(false);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace squall::cli;
  back_heap_with_huge_pages();
  clean_up_on_interrupt();
  CLI::App app{"squall: deterministic chaos testing for the resilience layer of AI agents"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "squall 0.1.0");

  RunOptions run;
  run.program = argv[0];
  std::string seed;
  std::string policy;
  std::string out;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a scenario and report; exit 1 if a threshold fails");
  run_cmd->add_option("scenario", run.scenario, kScenarioFileHelp)->required();
  // Read as text and parsed strictly: CLI11 would wrap "-1" to 2^64-1 and read "010" as octal.
  const CLI::Validator seed_check(
      [](std::string& text) -> std::string {
        return parse_seed(text) ? std::string()
                                : "expected an integer in [0, 18446744073709551615], got \"" + text + "\"";
      },
      "UINT64");
  CLI::Option* seed_opt = run_cmd->add_option("--seed", seed, "Seed overriding the scenario's")->check(seed_check);
  CLI::Option* policy_opt =
      run_cmd->add_option("--policy", policy, "Policy file replacing the scenario's policy block (JSON or YAML)");
  CLI::Option* out_opt = run_cmd->add_option("--out", out, "Write the JSON report here (atomically)");
  run_cmd
      ->add_option("--max-in-flight", run.max_in_flight,
                   "Stop (exit 2, no report) when more tasks than this are in flight at once")
      ->check(integer_in(1, 1'000'000'000))
      ->capture_default_str();
  std::string formats;
  for (const squall::ReportFormat& f : squall::report_formats())
    formats += fmt::format("\n  {}: {}", f.name, f.description);
  run_cmd
      ->add_option("--report", run.reports,
                   "Write a report in FORMAT to PATH (atomically); repeatable. Formats:" + formats)
      ->type_name("FORMAT=PATH");
  run_cmd->add_flag("-q,--quiet", run.quiet,
                    "Print only the seed line, failing thresholds and the repro line (and errors)");
  run_cmd->add_flag("--progress", run.progress,
                    "Show progress on stderr (simulated time, tasks done, rate) for runs over a second, even when "
                    "stderr is not a terminal; never with --quiet");
  run_cmd->add_flag("--check-determinism", run.check_determinism,
                    "Run twice in fresh worlds and compare the reports; exit 3 if they differ");

  std::vector<std::filesystem::path> files;
  std::vector<std::filesystem::path> policies;
  CLI::App* validate_cmd = app.add_subcommand("validate", "Check scenario, sweep and policy files; report every error");
  validate_cmd->add_option("files", files, kScenarioFilesHelp);
  validate_cmd->add_option("--policy", policies, "Policy files (as `run --policy` takes them), JSON or YAML");
  bool print_json = false;
  validate_cmd->add_flag("--print-json", print_json,
                         "Print the one scenario (or --policy file) given as plain JSON (no comments) for standard "
                         "JSON Schema validators");

  CiOptions ci;
  ci.program = argv[0];
  CLI::App* ci_cmd = app.add_subcommand(
      "ci",
      "Run many scenarios in parallel; one line each, a table, one JUnit file and one Markdown summary; "
      "exit with the worst code (70, 3, 2, 1, 0)");
  ci_cmd
      ->add_option("inputs", ci.inputs,
                   std::string(kScenarioFilesHelp) +
                       "; directories stand for their *.json, *.yaml and *.yml files (any case, not hidden ones)")
      ->required();
  ci_cmd->add_option("-j,--jobs", ci.jobs, "Scenarios run at once (default: one per hardware thread)")
      ->check(integer_in(1, 1024));
  ci_cmd
      ->add_option("--max-in-flight", ci.max_in_flight,
                   "Stop a scenario (exit 2 for it) when more tasks than this are in flight at once")
      ->check(integer_in(1, 1'000'000'000))
      ->capture_default_str();
  ci_cmd
      ->add_option("--report", ci.reports, "Write junit=PATH (a test suite per scenario) or markdown=PATH; repeatable")
      ->type_name("FORMAT=PATH");
  ci_cmd->add_flag("-q,--quiet", ci.quiet,
                   "Print only the scenarios that did not pass, their failures and the verdict");
  ci_cmd->add_flag("--progress", ci.progress,
                   "Show progress on stderr (scenarios done, the running ones and how far each has simulated) for "
                   "runs over a second, even when stderr is not a terminal; never with --quiet");

  CompareOptions compare;
  compare.program = argv[0];
  std::string compare_seed;
  CLI::App* compare_cmd = app.add_subcommand(
      "compare", "Headline metrics of two policies on one scenario and seed, or of two JSON reports, side by side");
  compare_cmd->add_option("inputs", compare.inputs, "A scenario, JSON or YAML (with --policy), or two JSON reports")
      ->required();
  compare_cmd->add_option("--policy", compare.policies,
                          "Policy file; twice for A against B, once for the scenario's own policy against it");
  compare_cmd
      ->add_option("--report", compare.reports,
                   "Also write the comparison as json=PATH (for scripts) or markdown=PATH (a table for a job "
                   "summary), atomically; repeatable")
      ->type_name("FORMAT=PATH");
  CLI::Option* compare_seed_opt =
      compare_cmd->add_option("--seed", compare_seed, "Seed overriding the scenario's")->check(seed_check);

  SweepOptions sweep;
  std::string sweep_shard;
  std::string sweep_out;
  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep",
      "Run policy variants on common seeds in parallel; means, 95% intervals, paired differences against a "
      "baseline, the Pareto front (docs/sweeps.md)");
  sweep_cmd->add_option("sweep", sweep.sweep, "Sweep file (JSON or YAML)")->required();
  sweep_cmd->add_option("-j,--jobs", sweep.jobs, "Runs at once (default: one per hardware thread)")
      ->check(integer_in(1, 1024));
  CLI::Option* shard_opt =
      sweep_cmd->add_option("--shard", sweep_shard, "Run slice i of n (1-based) and write a partial result to --out")
          ->type_name("i/n");
  CLI::Option* sweep_out_opt =
      sweep_cmd->add_option("--out", sweep_out, "Write the JSON report here (with --shard: the partial result)");
  sweep_cmd->add_option("--report", sweep.reports, "Write json, markdown, csv or html to PATH; repeatable")
      ->type_name("FORMAT=PATH");
  sweep_cmd->add_flag("-q,--quiet", sweep.quiet, "Print no table (errors only)");
  sweep_cmd->add_flag("--dry-run", sweep.dry_run,
                      "Check the sweep, scenario and policy files and print the variants, seeds and runs; run nothing");
  sweep_cmd->add_flag("--progress", sweep.progress,
                      "Show progress with an ETA on stderr even when stderr is not a terminal; never with --quiet");

  MergeOptions merge;
  std::string merge_out;
  CLI::App* merge_cmd = app.add_subcommand(
      "merge", "Combine the partial results of every shard of a sweep into the unsharded sweep's outputs");
  merge_cmd->add_option("partials", merge.partials, "Partial results written by `squall sweep --shard i/n --out`")
      ->required();
  CLI::Option* merge_out_opt = merge_cmd->add_option("--out", merge_out, "Write the JSON report here");
  merge_cmd->add_option("--report", merge.reports, "Write json, markdown, csv or html to PATH; repeatable")
      ->type_name("FORMAT=PATH");
  merge_cmd->add_flag("-q,--quiet", merge.quiet, "Print no table (errors only)");

  ReplayOptions replay;
  CLI::App* replay_cmd = app.add_subcommand(
      "replay", "Read production traces (OTLP JSON, LiteLLM JSONL): the tasks, logical calls and attempts they hold");
  replay_cmd->add_option("traces", replay.traces, "Trace files")->required();
  replay_cmd->add_option("--format", replay.format, "otlp, litellm or auto (default: by content)");

  ServeOptions serve;
  serve.program = argv[0];
  CLI::App* serve_cmd = add_serve_command(app, serve);

  one_value_per_occurrence(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and version exit 0; every usage error is exit 2, whatever CLI11's own code.
    return app.exit(e) == 0 ? kExitOk : kExitBadInput;
  }

  const auto dispatch = [&]() -> int {
    if (*run_cmd) {
      if (seed_opt->count() > 0) run.seed = parse_seed(seed);
      if (policy_opt->count() > 0) run.policy = policy;
      if (out_opt->count() > 0) run.out = out;
      return run_command(run);
    }
    if (*ci_cmd) return ci_command(ci);
    if (*replay_cmd) return replay_command(replay);
    if (*serve_cmd) return serve_command(serve);
    if (*sweep_cmd) {
      if (shard_opt->count() > 0) sweep.shard = sweep_shard;
      if (sweep_out_opt->count() > 0) sweep.out = sweep_out;
      return sweep_command(sweep);
    }
    if (*merge_cmd) {
      if (merge_out_opt->count() > 0) merge.out = merge_out;
      return merge_command(merge);
    }
    if (*compare_cmd) {
      if (compare_seed_opt->count() > 0) compare.seed = parse_seed(compare_seed);
      return compare_command(compare);
    }
    if (print_json) {
      if (files.size() + policies.size() != 1) {
        fmt::print(stderr, "validate --print-json: give exactly one scenario file or one --policy file\n");
        return kExitBadInput;
      }
      return files.empty() ? print_json_command(policies[0], /*policy=*/true) : print_json_command(files[0]);
    }
    if (files.empty() && policies.empty()) {
      fmt::print(stderr, "validate: give at least one scenario file or --policy file\n");
      return kExitBadInput;
    }
    return validate_command(files, policies);
  };
  try {
    return finish_standard_output(dispatch());
  } catch (const std::exception& e) {
    // fmt's print throws std::system_error when stdout cannot take more (/dev/full).
    const auto* system = dynamic_cast<const std::system_error*>(&e);
    if (system != nullptr && standard_output_failed()) return report_standard_output_failure(system->code().value());
    fmt::print(stderr, "squall: internal error: {}\n", e.what());
    return kExitInternalError;
  }
}
