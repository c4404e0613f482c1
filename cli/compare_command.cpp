#include <algorithm>
#include <cstdio>
#include <variant>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/output_file.hpp"
#include "cli/output_path.hpp"
#include "cli/repro.hpp"
#include "cli/run_inputs.hpp"
#include "reports/atomic_file.hpp"
#include "reports/compare.hpp"
#include "reports/compare_gate.hpp"
#include "reports/json_writer.hpp"
#include "reports/writers/comparison_writer.hpp"
#include "sim/run.hpp"
#include "sim/scenario/validation_error.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

struct Side {
  std::string label;
  nlohmann::json report;
};

// Thrown for bad input: the message is printed and the exit code is 2.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws BadInput with `message` escaped for the terminal: it names files as given.
[[noreturn]] void refuse(const std::string& message) { throw BadInput(escape_controls(message)); }

// A report file read back strictly (cli/output_file.hpp), then checked as a report
// (report_problem):
//   a.json: not a squall report of version 1: /tasks/succeeded is -5, expected ...
nlohmann::json read_report(const fs::path& file) {
  const std::string name = file.string();
  auto parsed = read_output_file(file, FileKind::report);
  if (const auto* error = std::get_if<std::string>(&parsed)) refuse(*error);
  // The comparison reads plain nlohmann::json (reports/compare.hpp); key order is not used.
  nlohmann::json report = std::get<Json>(std::move(parsed));
  if (const auto problem = report_problem(report)) refuse(fmt::format("{}: {}", name, *problem));
  return report;
}

// One --report FORMAT=PATH of compare.
struct CompareOutput {
  std::string format;  // "json" or "markdown"
  fs::path path;
};

constexpr std::string_view kCompareFormats[] = {"json", "markdown"};

// Parses and checks --report FORMAT=PATH as `run` does (cli/report_requests.hpp): every
// path is checked before anything runs, against the inputs, and no two write one file.
// The inputs are every file the comparison reads: two reports, or the scenario, each
// corpus it reads and the policy files (cli/run_inputs.hpp, as `run` checks its reports).
std::vector<CompareOutput> parse_outputs(const CompareOptions& options, bool reports) {
  std::vector<fs::path> inputs = reports ? options.inputs : run_inputs(options.inputs[0]);
  inputs.insert(inputs.end(), options.policies.begin(), options.policies.end());
  std::vector<CompareOutput> outputs;
  std::vector<fs::path> seen;
  for (const std::string& spec : options.reports) {
    const std::size_t eq = spec.find('=');
    if (eq == std::string::npos) refuse(fmt::format("squall compare: --report expects FORMAT=PATH, got \"{}\"", spec));
    CompareOutput out{spec.substr(0, eq), fs::path(spec.substr(eq + 1))};
    if (std::find(std::begin(kCompareFormats), std::end(kCompareFormats), out.format) == std::end(kCompareFormats)) {
      refuse(fmt::format("squall compare: unknown report format \"{}\" in --report {}; formats: json, markdown",
                         out.format, spec));
    }
    if (const auto problem = output_problem(out.path, inputs)) {
      refuse(fmt::format("squall compare: cannot write the {} report (--report {}): {}", out.format, spec, *problem));
    }
    const fs::path identity = output_identity(out.path);
    for (std::size_t i = 0; i < seen.size(); ++i) {
      if (seen[i] == identity) {
        refuse(fmt::format("squall compare: --report {}={} and --report {} write the same file \"{}\"",
                           outputs[i].format, outputs[i].path.string(), spec, out.path.string()));
      }
    }
    seen.push_back(identity);
    outputs.push_back(std::move(out));
  }
  return outputs;
}

// Writes the requested files, all or none; returns the lines saying so.
// The Markdown file ends with the gates' table when there are gates.
std::vector<std::string> write_outputs(const std::vector<CompareOutput>& outputs, const Side& a, const Side& b,
                                       const std::vector<MetricComparison>& rows,
                                       const std::vector<std::string>& warnings, const std::vector<GateResult>& gates) {
  const ComparedRun run_a{a.label, &a.report};
  const ComparedRun run_b{b.label, &b.report};
  std::vector<std::string> lines;
  // Every file is written before any is published (AtomicFileBatch).
  AtomicFileBatch batch;
  for (const CompareOutput& out : outputs) {
    const bool json = out.format == "json";
    batch.add(resolve_output(out.path),
              json ? comparison_json(run_a, run_b, rows, warnings)
                   : comparison_markdown(run_a, run_b, rows, warnings) + (gates.empty() ? "" : gates_markdown(gates)));
    lines.push_back(fmt::format("{} comparison written to {}", out.format, escape_controls(out.path.string())));
  }
  batch.commit();
  return lines;
}

void throw_errors(const std::vector<ValidationError>& errors) {
  std::string text;
  for (const ValidationError& e : errors) {
    if (!text.empty()) text += '\n';
    text += to_string(e);
  }
  throw BadInput(text);
}

// Runs the scenario under each policy (the scenario's own when `policy` is nullopt) on the
// same seed, so both meet the same seeded faults where their calls coincide.
std::pair<Side, Side> run_policies(const CompareOptions& options) {
  LoadResult loaded = load_scenario(options.inputs[0]);
  if (!loaded.errors.empty()) throw_errors(loaded.errors);
  const std::uint64_t seed = options.seed.value_or(loaded.scenario->seed);
  std::vector<std::optional<fs::path>> policies(options.policies.begin(), options.policies.end());
  if (policies.size() == 1) policies.insert(policies.begin(), std::nullopt);
  std::vector<PolicyConfig> configs;
  std::vector<std::vector<std::string>> notes(policies.size());
  for (std::size_t i = 0; i < policies.size(); ++i) {
    Scenario copy = *loaded.scenario;
    if (policies[i]) {
      if (const auto errors = apply_policy_file(copy, *policies[i], &notes[i]); !errors.empty()) throw_errors(errors);
      for (const std::string& note : notes[i]) fmt::print(stderr, "squall compare: note: {}\n", escape_controls(note));
    }
    configs.push_back(copy.policy);
  }
  PreparedScenario prepared(std::move(*loaded.scenario));
  Side sides[2];
  for (std::size_t i = 0; i < 2; ++i) {
    RunOptions as_run;
    as_run.program = options.program;
    as_run.scenario = options.inputs[0];
    as_run.policy = policies[i];
    Provenance provenance;
    provenance.scenario_file = options.inputs[0].string();
    if (policies[i]) provenance.policy_file = policies[i]->string();
    provenance.policy_notes = notes[i];
    provenance.repro = repro_command(as_run, seed);
    sides[i].label = policies[i] ? policies[i]->filename().string() : "scenario policy";
    sides[i].report = to_json(prepared.run(configs[i], seed, std::move(provenance)));
  }
  fmt::print("squall compare {}: seed {}\n", escape_controls(prepared.scenario().name), seed);
  return {std::move(sides[0]), std::move(sides[1])};
}

}  // namespace

int compare_command(const CompareOptions& options) {
  const bool reports = options.inputs.size() == 2 && options.policies.empty() && !options.seed;
  const bool policies = options.inputs.size() == 1 && (options.policies.size() == 1 || options.policies.size() == 2);
  if (!reports && !policies) {
    fmt::print(stderr,
               "squall compare: give a scenario and one or two --policy files (and optionally --seed), or two JSON "
               "reports\n");
    return kExitBadInput;
  }
  try {
    auto parsed_gates = parse_fail_ons(options.fail_on);
    if (const auto* error = std::get_if<std::string>(&parsed_gates)) refuse("squall compare: " + *error);
    const std::vector<FailOn>& gates = std::get<std::vector<FailOn>>(parsed_gates);
    const std::vector<CompareOutput> outputs = parse_outputs(options, reports);
    std::pair<Side, Side> sides;
    if (reports) {
      sides = {Side{options.inputs[0].filename().string(), read_report(options.inputs[0])},
               Side{options.inputs[1].filename().string(), read_report(options.inputs[1])}};
      fmt::print("squall compare: {} and {}\n", escape_controls(options.inputs[0].string()),
                 escape_controls(options.inputs[1].string()));
    } else {
      sides = run_policies(options);
    }
    const auto& [a, b] = sides;
    const std::vector<std::string> warnings = comparison_warnings(a.report, b.report);
    // On stderr, after the heading and before the table, so a merged log reads in order.
    std::fflush(stdout);
    for (const std::string& w : warnings) fmt::print(stderr, "squall compare: warning: {}\n", escape_controls(w));
    const std::vector<MetricComparison> rows = compare_reports(a.report, b.report);
    fmt::print("{}", comparison_table(escape_controls(a.label), escape_controls(b.label), rows));
    const std::vector<GateResult> results = check_gates(gates, rows);
    if (!results.empty()) fmt::print("{}", gates_text(results));
    try {
      for (const std::string& line : write_outputs(outputs, a, b, rows, warnings, results)) fmt::print("{}\n", line);
    } catch (const std::runtime_error& e) {
      fmt::print(stderr, "squall compare: cannot write report: {}\n", e.what());
      return kExitBadInput;
    }
    return failed_gates(results) == 0 ? kExitOk : kExitThresholdFailed;
  } catch (const BadInput& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kExitBadInput;
  } catch (const CorpusError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kExitBadInput;
  } catch (const RunLimitExceeded& e) {
    fmt::print(stderr, "squall: run stopped: {}\n", e.what());
    return kExitBadInput;
  }
}

}  // namespace squall::cli
