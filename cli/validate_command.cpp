#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "cli/expected_tasks.hpp"
#include "cli/truncation_warning.hpp"
#include "engine/runtime/duration.hpp"
#include "sim/corpora.hpp"
#include "sim/scenario/json_document.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace squall::cli {

namespace {

// Prints "<file>: ok" or every error; returns whether the file was valid.
bool report(const std::filesystem::path& file, const std::vector<ValidationError>& errors) {
  if (errors.empty()) {
    fmt::print("{}: ok\n", file.string());
    return true;
  }
  for (const ValidationError& error : errors) fmt::print(stderr, "{}\n", to_string(error));
  return false;
}

// "  N tasks expected over <duration>" for constant arrivals (counted exactly as the run
// starts them: sim/arrivals.hpp), "  about N ..." for Poisson ones (the mean, rounded) and
// for constant ones above kManyTasks, which a warning follows.
void print_expected_tasks(const Scenario& scenario) {
  const double expected = expected_tasks(scenario);
  if (scenario.workload.arrivals.process == ArrivalProcess::constant && expected <= kManyTasks) {
    const std::uint64_t count = count_constant_arrivals(scenario.workload.arrivals, scenario.duration);
    fmt::print("  {} task{} expected over {}\n", count, count == 1 ? "" : "s", format_duration(scenario.duration));
  } else {
    fmt::print("  about {:.0f} tasks expected over {}\n", expected, format_duration(scenario.duration));
  }
  if (const auto warning = many_tasks_warning(scenario)) fmt::print(stderr, "{}\n", *warning);
}

// Whether `file` is a sweep file (sim/sweep/sweep_spec.hpp): an object with "scenario" or
// "variants", the keys a sweep requires and no scenario has (either, so that a sweep
// missing the other is told so by the sweep loader), and neither "workload" nor
// "providers", keys every scenario has and no sweep (a scenario with a stray "variants"
// is a scenario with an unknown key, as `squall run` reads it). A file that cannot be read
// or parsed is not: the scenario loader then reports why.
bool is_sweep_file(const std::filesystem::path& file) {
  Diagnostics ignored(file.string());
  const auto text = read_text_file(file, ignored);
  const auto doc = text ? parse_document(*text, file, ignored) : std::nullopt;
  if (!doc || !doc->root.is_object()) return false;
  const Json& root = doc->root;
  return (root.contains("scenario") || root.contains("variants")) && !root.contains("workload") &&
         !root.contains("providers");
}

// A sweep file checked as `squall sweep --dry-run` checks it; "<file>: ok" and its size.
bool validate_sweep(const std::filesystem::path& file) {
  const SweepLoadResult loaded = load_sweep(file);
  if (loaded.ok()) {
    try {  // ground-truth links, as for a scenario
      check_ground_truth(loaded.spec->scenario, load_corpora(loaded.spec->scenario));
    } catch (const CorpusError& e) {
      fmt::print(stderr, "{}\n", e.what());
      return false;
    }
  }
  if (!report(file, loaded.errors)) return false;
  const SweepSpec& spec = *loaded.spec;
  const std::size_t seeds = spec.target ? spec.target->max_seeds : spec.seeds;
  fmt::print("  a sweep: {} variants x {}{} seeds, {}{} runs\n", spec.variants.size(), spec.target ? "up to " : "",
             seeds, spec.target ? "at most " : "", spec.variants.size() * seeds);
  return true;
}

// How a policy file merged into a scenario's policy (sim/scenario_loader.hpp), on stderr.
void print_notes(const PolicyMerge& merge, const Scenario& scenario) {
  for (const std::string& note : merge.notes) {
    fmt::print(stderr, "note: {} (with {})\n", escape_controls(note), escape_controls(scenario.source.string()));
  }
}

// A policy file given with scenarios is checked against each of them, as `squall run
// SCENARIO --policy FILE` checks it (merge_policy, its notes on stderr), so that validate accepts exactly
// the pairs run accepts. An error found with several scenarios is printed once; with
// more than one scenario given, it names those it was found with (with one, it reads
// as run's does), and, as `ci` does, a scenario it names no tool of keeps its own policy
// with a note; only a file naming no tool of any is an error.
bool check_policy_file(const std::filesystem::path& file, const std::vector<Scenario>& valid_scenarios) {
  PolicyLoadResult loaded = load_policy_file(file);
  std::vector<ValidationError> errors = std::move(loaded.errors);
  if (loaded.policy) {
    const std::size_t own = errors.size();  // the file's own errors name no scenario
    std::vector<std::vector<std::string>> found_with;
    const bool several = valid_scenarios.size() > 1;
    const bool shares_any = std::any_of(valid_scenarios.begin(), valid_scenarios.end(),
                                        [&](const Scenario& s) { return shares_a_tool(s, *loaded.policy); });
    if (several && !shares_any) {
      ValidationError none;
      none.file = file.string();
      none.message = "names no tool of any scenario given";
      errors.push_back(std::move(none));
    }
    for (const Scenario& scenario : valid_scenarios) {
      if (several && !shares_any) break;
      PolicyMerge merge = merge_policy(scenario, *loaded.policy, file,
                                       several ? UnsharedPolicy::keep_scenario_policy : UnsharedPolicy::error);
      print_notes(merge, scenario);
      for (ValidationError& error : merge.errors) {
        const auto seen = std::find(errors.begin() + static_cast<std::ptrdiff_t>(own), errors.end(), error);
        if (seen == errors.end()) {
          errors.push_back(std::move(error));
          found_with.push_back({scenario.source.string()});
        } else {
          found_with[static_cast<std::size_t>(seen - errors.begin()) - own].push_back(scenario.source.string());
        }
      }
    }
    if (valid_scenarios.size() > 1) {
      for (std::size_t i = 0; i < found_with.size(); ++i) {
        errors[own + i].message += fmt::format(" (with {})", fmt::join(found_with[i], ", "));
      }
    }
  }
  return report(file, errors);
}

}  // namespace

int validate_command(const std::vector<std::filesystem::path>& scenarios,
                     const std::vector<std::filesystem::path>& policies) {
  bool all_valid = true;
  std::vector<Scenario> valid_scenarios;
  for (const auto& file : scenarios) {
    if (is_sweep_file(file)) {
      all_valid = validate_sweep(file) && all_valid;
      continue;
    }
    LoadResult loaded = load_scenario(file);
    if (loaded.scenario) {
      // What only the loaded corpora can tell (ground-truth links), as `run` checks it.
      try {
        check_ground_truth(*loaded.scenario, load_corpora(*loaded.scenario));
      } catch (const CorpusError& e) {
        fmt::print(stderr, "{}\n", e.what());
        all_valid = false;
        continue;
      }
    }
    all_valid = report(file, loaded.errors) && all_valid;
    if (!loaded.scenario) continue;
    print_expected_tasks(*loaded.scenario);
    for (const std::string& warning : truncation_warnings(*loaded.scenario)) fmt::print(stderr, "{}\n", warning);
    valid_scenarios.push_back(std::move(*loaded.scenario));
  }
  for (const auto& file : policies) all_valid = check_policy_file(file, valid_scenarios) && all_valid;
  return all_valid ? kExitOk : kExitBadInput;
}

int print_json_command(const std::filesystem::path& file, bool policy) {
  const PlainJsonResult plain = policy ? policy_as_plain_json(file) : scenario_as_plain_json(file);
  if (!plain.json) {
    for (const ValidationError& error : plain.errors) fmt::print(stderr, "{}\n", to_string(error));
    return kExitBadInput;
  }
  fmt::print("{}", *plain.json);
  return kExitOk;
}

int validate_main(const ValidateOptions& options) {
  const std::size_t given = options.files.size() + options.policies.size();
  if (options.print_json) {
    if (given != 1) {
      fmt::print(stderr, "validate --print-json: give exactly one scenario file or one --policy file\n");
      return kExitBadInput;
    }
    return options.files.empty() ? print_json_command(options.policies[0], /*policy=*/true)
                                 : print_json_command(options.files[0]);
  }
  if (given == 0) {
    fmt::print(stderr, "validate: give at least one scenario file or --policy file\n");
    return kExitBadInput;
  }
  return validate_command(options.files, options.policies);
}

}  // namespace squall::cli
