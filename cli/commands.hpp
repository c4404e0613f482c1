// The `squall` subcommands. Each returns the process exit code (DESIGN section 7; the
// README and docs/ci.md list them for users):
//   0   every threshold holds (run) / every file is valid (validate)
//   1   a threshold failed
//   2   bad input or usage; nothing was written
//   3   `run --check-determinism`: two runs of the same scenario, policy and seed differed;
//       nothing was written
//   70  internal error (a bug in squall; EX_SOFTWARE of BSD's sysexits.h), with a message
// `squall ci` runs many scenarios and exits with the worst of their codes, worst first:
// 70, 3, 2, 1, 0, which is the largest of them (worst_exit_code).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/world.hpp"

namespace squall::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitThresholdFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitNondeterministic = 3;
inline constexpr int kExitInternalError = 70;

struct RunOptions {
  std::string program = "squall";  // how squall was invoked (argv[0]), for the repro line
  std::filesystem::path scenario;
  std::optional<std::uint64_t> seed;            // overrides the scenario's seed
  std::optional<std::string> seeds;             // --seeds N | LIST | RANGE (cli/seed_list.hpp)
  std::size_t jobs = 0;                         // with --seeds: runs at once; 0: one per hardware thread
  std::optional<std::filesystem::path> policy;  // replaces the scenario's policy block
  std::optional<std::filesystem::path> out;     // where the JSON report goes
  // Stop with exit 2 when more tasks than this are in flight (sim/world.hpp RunLimits).
  std::uint64_t max_in_flight = RunLimits{}.max_tasks_in_flight;
  std::vector<std::string> reports;  // --report FORMAT=PATH, in the given order
  bool quiet = false;                // only the seed line, failing thresholds and the repro line
  bool check_determinism = false;    // run twice and compare (exit 3 on a difference)
  bool check_invariants = false;     // watch the run with sim/invariant_checker.hpp (exit 70 on a violation)
  bool progress = false;             // progress on stderr even when it is not a terminal (cli/progress.hpp)
};

int run_command(const RunOptions& options);
// `squall run --seeds`: the scenario on every seed in parallel (cli/run_seeds.cpp); exit 1
// when a threshold's pass-rate requirement is not met (reports/seed_summary.hpp).
int run_seeds_command(const RunOptions& options);

struct CiOptions {
  std::string program = "squall";                                 // argv[0], for the repro lines
  std::vector<std::filesystem::path> inputs;                      // scenario files and directories
  std::size_t jobs = 0;                                           // runs at once; 0: one per hardware thread
  std::uint64_t max_in_flight = RunLimits{}.max_tasks_in_flight;  // as `run --max-in-flight`
  std::vector<std::string> reports;  // --report junit=PATH / markdown=PATH / json-dir=DIR (cli/ci_baseline.hpp)
  std::optional<std::filesystem::path> policy;    // --policy FILE: every scenario under it (sim/scenario_loader.hpp)
  std::optional<std::filesystem::path> baseline;  // --baseline DIR: reports to gate against (cli/ci_baseline.hpp)
  std::vector<std::string> fail_on;               // --fail-on METRIC:MARGIN, with --baseline
  std::optional<std::string> seeds;  // --seeds N | LIST | RANGE: every scenario on every seed (cli/ci_seeds.hpp)
  bool quiet = false;                // only failing scenarios' lines and the verdict
  bool progress = false;             // progress on stderr even when it is not a terminal (cli/ci_progress.hpp)
  bool check_invariants = false;     // as `run --check-invariants`, for each scenario (exit 70 for it)
};

// `squall ci`: runs every scenario of `options.inputs` (cli/scenario_inputs.hpp), each
// with its own seed and policy, in parallel on options.jobs threads (sim/parallel_runs.hpp).
// Prints one line per scenario in input order as results come in, then a table, then the
// failing thresholds and repro line of each failed scenario; the output is the same for
// any number of jobs. A scenario that cannot run (an invalid file: exit 2 for it) is a
// line with its errors and does not stop the others. Writes one JUnit file (a test suite
// per scenario) and one Markdown summary when asked (--report), and returns the worst
// scenario's exit code.
int ci_command(const CiOptions& options);

struct CompareOptions {
  std::string program = "squall";
  std::vector<std::filesystem::path> inputs;    // one scenario, or two JSON reports
  std::vector<std::filesystem::path> policies;  // with a scenario: one (against its own) or two
  std::optional<std::uint64_t> seed;            // with a scenario: overrides its seed
  std::vector<std::string> reports;  // --report json=PATH / markdown=PATH (reports/writers/comparison_writer.hpp)
  std::vector<std::string> fail_on;  // --fail-on METRIC:MARGIN (reports/compare_gate.hpp), in the given order
};

// `squall compare`: the headline metrics of two runs side by side (reports/compare.hpp):
//   compare SCENARIO --policy A [--policy B] [--seed N]   A against B on the same seed (one
//                                                         --policy: the scenario's own against it)
//   compare A.json B.json                                 two reports written by run --out
// Two reports must be squall reports of this squall's version (report_problem); reports
// of different scenarios or seeds are compared with a warning on stderr for each. With
// --report json=PATH or markdown=PATH (repeatable, checked before anything runs, written
// atomically) the comparison is also written as a file. With --fail-on METRIC:MARGIN
// (repeatable, parsed before anything runs) each gate is printed after the table and
// added to the Markdown file; exit 1 when one fails.
// Exit 0 when the comparison is printed (and every gate passes), 1 when a gate fails, 2 on
// bad input or usage.
int compare_command(const CompareOptions& options);

struct SweepOptions {
  std::filesystem::path sweep;               // the sweep file (sim/sweep/sweep_spec.hpp)
  std::size_t jobs = 0;                      // runs at once; 0: one per hardware thread
  std::optional<std::string> shard;          // "i/n": run one slice, write a partial result to --out
  std::optional<std::filesystem::path> out;  // the JSON report; with --shard, the partial result
  std::vector<std::string> reports;          // --report FORMAT=PATH: json, markdown, csv, html
  bool quiet = false;                        // no table on stdout
  bool progress = false;                     // progress on stderr even when it is not a terminal
  bool dry_run = false;                      // check the files and print the plan; run nothing
  std::vector<std::string> fail_on;          // "worse", "infeasible" (reports/sweep_decision.hpp)
  std::optional<std::string> candidate;      // the variant --fail-on judges
};

// `squall sweep SWEEP`: runs every variant of the sweep on the same seeds, in parallel
// (docs/sweeps.md), prints the statistics table and writes the requested reports; with
// --shard i/n, runs one slice and writes the partial result `squall merge` combines; with
// --dry-run, checks every file and prints the variants, seeds and runs, writing nothing. Exit 0
// when the sweep ran, 1 when --fail-on judges the candidate worse or infeasible, 2 on bad input or usage (an invalid
// sweep, scenario or policy file; a run stopped by its limits), 70 on an internal error.
int sweep_command(const SweepOptions& options);

struct MergeOptions {
  std::vector<std::filesystem::path> partials;  // every shard's partial result
  std::optional<std::filesystem::path> out;
  std::vector<std::string> reports;
  bool quiet = false;
  std::vector<std::string> fail_on;      // as SweepOptions'
  std::optional<std::string> candidate;  // as SweepOptions'
};

// `squall merge PARTIAL...`: the partial results of every shard of one sweep combined into
// the outputs the unsharded sweep gives, byte for byte. Exit 0, or 2 on bad input.
int merge_command(const MergeOptions& options);

// The worse of two exit codes in the order above (70, 3, 2, 1, 0).
int worst_exit_code(int a, int b);

// A seed as decimal digits only (no sign, no base prefix), within uint64; nullopt otherwise.
std::optional<std::uint64_t> parse_seed(std::string_view text);
// Checks scenario files and policy files (the files `run --policy` takes); every error of
// every file is printed. A policy file is also checked against every valid scenario given
// with it, exactly as `run SCENARIO --policy FILE` checks it (sim::check_policy).
int validate_command(const std::vector<std::filesystem::path>& scenarios,
                     const std::vector<std::filesystem::path>& policies);
// `squall validate --print-json SCENARIO`: validates one scenario and prints it as plain
// JSON (sim/scenario_loader.hpp scenario_as_plain_json) on stdout and nothing else, for a
// standard JSON Schema validator; errors on stderr and exit 2 when it is not valid. With
// `policy`, `validate --print-json --policy FILE`: the same for one policy file
// (policy_as_plain_json). JSON and YAML files alike.
int print_json_command(const std::filesystem::path& file, bool policy = false);

}  // namespace squall::cli
