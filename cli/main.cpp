// squall: the command line. The only place where wall-clock time may be read.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/huge_pages.hpp"
#include "cli/interrupt.hpp"
#include "cli/standard_output.hpp"
#include "sim/run.hpp"

int main(int argc, char** argv) {
  using namespace squall::cli;
  back_heap_with_huge_pages();
  clean_up_on_interrupt();
  CLI::App app{"squall: deterministic chaos testing for the resilience layer of AI agents"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "squall " + std::string(squall::squall_version()));

  // argv[0] goes into the repro lines.
  RunOptions run;
  run.program = argv[0];
  ValidateOptions validate;
  CiOptions ci;
  ci.program = argv[0];
  CompareOptions compare;
  compare.program = argv[0];
  SweepOptions sweep;
  MergeOptions merge;
  ReplayOptions replay;
  ServeOptions serve;
  serve.program = argv[0];
  ShrinkOptions shrink;
  const std::vector<std::pair<CLI::App*, std::function<int()>>> commands = {
      {add_run_command(app, run), [&] { return run_command(run); }},
      {add_validate_command(app, validate), [&] { return validate_main(validate); }},
      {add_ci_command(app, ci), [&] { return ci_command(ci); }},
      {add_compare_command(app, compare), [&] { return compare_command(compare); }},
      {add_sweep_command(app, sweep), [&] { return sweep_command(sweep); }},
      {add_merge_command(app, merge), [&] { return merge_command(merge); }},
      {add_replay_command(app, replay), [&] { return replay_command(replay); }},
      {add_serve_command(app, serve), [&] { return serve_command(serve); }},
      {add_shrink_command(app, shrink), [&] { return shrink_command(shrink); }},
  };
  one_value_per_occurrence(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and version exit 0; every usage error is exit 2, whatever CLI11's own code.
    return app.exit(e) == 0 ? kExitOk : kExitBadInput;
  }

  try {
    for (const auto& [command, run_it] : commands)
      if (*command) return finish_standard_output(run_it());
    return kExitBadInput;  // unreachable: require_subcommand(1)
  } catch (const std::exception& e) {
    // fmt's print throws std::system_error when stdout cannot take more (/dev/full).
    const auto* system = dynamic_cast<const std::system_error*>(&e);
    if (system != nullptr && standard_output_failed()) return report_standard_output_failure(system->code().value());
    fmt::print(stderr, "squall: internal error: {}\n", e.what());
    return kExitInternalError;
  }
}
