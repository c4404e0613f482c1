// squall: the command line. The only place where wall-clock time may be read.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <fmt/core.h>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  using namespace squall::cli;
  CLI::App app{"squall: deterministic chaos testing for the resilience layer of AI agents"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "squall 0.1.0");

  RunOptions run;
  run.program = argv[0];
  std::string seed;
  std::string policy;
  std::string out;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a scenario and report; exit 1 if a threshold fails");
  run_cmd->add_option("scenario", run.scenario, "Scenario file (JSON, comments allowed)")->required();
  // Read as text and parsed strictly: CLI11 would wrap "-1" to 2^64-1 and read "010" as octal.
  const CLI::Validator seed_check(
      [](std::string& text) -> std::string {
        return parse_seed(text) ? std::string() : "expected an integer in [0, 18446744073709551615], got \"" + text + "\"";
      },
      "UINT64");
  CLI::Option* seed_opt = run_cmd->add_option("--seed", seed, "Seed overriding the scenario's")->check(seed_check);
  CLI::Option* policy_opt =
      run_cmd->add_option("--policy", policy, "Policy file replacing the scenario's policy block");
  CLI::Option* out_opt = run_cmd->add_option("--out", out, "Write the JSON report here (atomically)");
  run_cmd
      ->add_option("--max-in-flight", run.max_in_flight,
                   "Stop (exit 2, no report) when more tasks than this are in flight at once")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000}))
      ->capture_default_str();

  std::vector<std::filesystem::path> files;
  std::vector<std::filesystem::path> policies;
  CLI::App* validate_cmd = app.add_subcommand("validate", "Check scenario and policy files; report every error");
  validate_cmd->add_option("files", files, "Scenario files");
  validate_cmd->add_option("--policy", policies, "Policy files (as `run --policy` takes them)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and version exit 0; every usage error is exit 2, whatever CLI11's own code.
    return app.exit(e) == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (*run_cmd) {
      if (seed_opt->count() > 0) run.seed = parse_seed(seed);
      if (policy_opt->count() > 0) run.policy = policy;
      if (out_opt->count() > 0) run.out = out;
      return run_command(run);
    }
    if (files.empty() && policies.empty()) {
      fmt::print(stderr, "validate: give at least one scenario file or --policy file\n");
      return kExitBadInput;
    }
    return validate_command(files, policies);
  } catch (const std::exception& e) {
    fmt::print(stderr, "squall: internal error: {}\n", e.what());
    return kExitInternalError;
  }
}
