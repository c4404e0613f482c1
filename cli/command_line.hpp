// Every command's flags on one CLI11 App: each add_*_command registers a subcommand whose
// options write into the given options struct (which must outlive the parse) and returns
// it, so main only parses and dispatches. Shared here so that every command reads a seed,
// a count or a scenario file the same way.
#pragma once

#include <cstdint>

#include "cli/commands.hpp"
#include "cli/replay_command.hpp"
#include "cli/serve_command.hpp"
#include "cli/shrink_command.hpp"

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace squall::cli {

// A seed as parse_seed reads it: decimal digits only, within uint64. CLI11 itself would
// wrap "-1" to 2^64-1 and read "010" as octal.
CLI::Validator seed_validator();
// A count read as a seed is, within [lo, hi]: CLI11's Range said "Value 1.5 not in range 1
// to 1000000000" for a value that is not an integer.
CLI::Validator integer_in(std::uint64_t lo, std::uint64_t hi);
// A duration as the scenario file writes it (engine/runtime/duration.hpp): 90s, 15m.
CLI::Validator duration_validator();

// `squall validate`'s operands: --print-json takes exactly one file.
struct ValidateOptions {
  std::vector<std::filesystem::path> files;
  std::vector<std::filesystem::path> policies;
  bool print_json = false;
};
int validate_main(const ValidateOptions& options);

CLI::App* add_run_command(CLI::App& app, RunOptions& options);
CLI::App* add_validate_command(CLI::App& app, ValidateOptions& options);
CLI::App* add_ci_command(CLI::App& app, CiOptions& options);
CLI::App* add_compare_command(CLI::App& app, CompareOptions& options);
CLI::App* add_sweep_command(CLI::App& app, SweepOptions& options);
CLI::App* add_merge_command(CLI::App& app, MergeOptions& options);
CLI::App* add_replay_command(CLI::App& app, ReplayOptions& options);
CLI::App* add_serve_command(CLI::App& app, ServeOptions& options);
CLI::App* add_shrink_command(CLI::App& app, ShrinkOptions& options);

// Every option of every registered command takes one value per occurrence. CLI11 lets an
// option that collects a vector (--report, --policy) take every following word, so
// `run --report junit=X s.json`, the order CI steps are written in, read the scenario as a
// second report. Called once every command is registered, so a command added later gets it.
void one_value_per_occurrence(CLI::App& app);

}  // namespace squall::cli
