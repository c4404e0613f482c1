#include "cli/shrink_command.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/checked_run.hpp"
#include "cli/commands.hpp"
#include "cli/output_path.hpp"
#include "cli/run_inputs.hpp"
#include "engine/runtime/duration.hpp"
#include "engine/text.hpp"
#include "reports/atomic_file.hpp"
#include "sim/corpora.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/shrink.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// How many fault rules each provider's entry of the file declares, in Scenario::providers'
// order (the rules an outage adds come after them).
std::vector<std::size_t> declared_rules(const Json& file, const Scenario& scenario) {
  std::vector<std::size_t> declared;
  for (const ProviderConfig& p : scenario.providers) {
    const Json& entry = file["providers"][p.name];
    declared.push_back(entry.contains("faults") ? entry["faults"].size() : 0);
  }
  return declared;
}

std::string rule_name(const Scenario& scenario, const FaultRuleRef& ref) {
  return fmt::format("/providers/{}/faults/{} ({})", scenario.providers[ref.provider].name, ref.rule,
                     to_string(scenario.providers[ref.provider].faults[ref.rule].kind));
}

// The file with the shrinking applied: rules removed, probabilities and windows changed,
// the seed set, and the description saying so.
Json shrunk_file(Json file, const Scenario& original, const ShrinkResult& r, std::uint64_t seed, const fs::path& from) {
  for (const RuleChange& c : r.changed) {
    Json& rule = file["providers"][original.providers[c.ref.provider].name]["faults"][c.ref.rule];
    rule["probability"] = c.probability_after;
    if (c.from_after != c.from_before) rule["from"] = format_duration(c.from_after);
    if (c.to_after != c.to_before) rule["to"] = format_duration(c.to_after);
  }
  for (auto it = r.removed.rbegin(); it != r.removed.rend(); ++it) {
    Json& rules = file["providers"][original.providers[it->provider].name]["faults"];
    rules.erase(it->rule);
  }
  std::string removed;
  for (const FaultRuleRef& ref : r.removed)
    removed += fmt::format("{}{}", removed.empty() ? "" : ", ", rule_name(original, ref));
  std::string note =
      fmt::format("Shrunk by squall shrink from {} at seed {}: {} of {} fault rules removed{}{}.", from.string(), seed,
                  r.removed.size(), r.declared, removed.empty() ? "" : ": ", removed);
  if (file.contains("description")) note += fmt::format(" {}", file["description"].get<std::string>());
  file["description"] = note;
  file["seed"] = seed;
  return file;
}

// Relative corpus paths are the scenario file's directory's (sim/scenario.hpp): written
// elsewhere, they are made relative to the output's directory.
void keep_corpus_paths(Json& file, const fs::path& from, const fs::path& out) {
  const fs::path from_dir = fs::absolute(from).parent_path();
  const fs::path out_dir = fs::absolute(out).parent_path();
  for (auto& [name, provider] : file["providers"].items()) {
    if (!provider.contains("corpus") || !provider["corpus"].is_string()) continue;
    const fs::path corpus = provider["corpus"].get<std::string>();
    if (corpus.is_absolute()) continue;
    const fs::path target = (from_dir / corpus).lexically_normal();
    const fs::path relative = target.lexically_relative(out_dir);
    provider["corpus"] = (relative.empty() ? target : relative).string();
  }
}

void print_result(const Scenario& original, const ShrinkResult& r, const fs::path& out) {
  fmt::print("fails: {}\n", fmt::join(r.failing, "; "));
  fmt::print("shrunk in {} runs: {} of {} fault rules removed, {} narrowed\n", r.runs, r.removed.size(), r.declared,
             r.changed.size());
  for (const FaultRuleRef& ref : r.removed) fmt::print("  removed {}\n", rule_name(original, ref));
  for (const RuleChange& c : r.changed) {
    const auto end = [](TimePoint t) { return t == kNever ? std::string("end") : format_duration(t); };
    fmt::print("  narrowed {}: probability {} -> {}, window [{}, {}) -> [{}, {})\n", rule_name(original, c.ref),
               c.probability_before, c.probability_after, format_duration(c.from_before), end(c.to_before),
               format_duration(c.from_after), end(c.to_after));
  }
  if (r.declared > 0 && r.removed.size() == r.declared)
    fmt::print("no fault rule is needed: the scenario fails under this policy with none of them\n");
  fmt::print("still fails: {}\n", fmt::join(r.still, "; "));
  fmt::print("wrote {}\n", out.string());
}

}  // namespace

int shrink_command(const ShrinkOptions& options) {
  RunOptions run;
  run.scenario = options.scenario;
  run.policy = options.policy;
  std::optional<CheckedRun> checked = check_run(run);
  if (!checked) return kExitBadInput;
  const Scenario& scenario = checked->scenario;
  const fs::path out = options.out.value_or(fs::path(options.scenario.stem().string() + ".shrunk.json"));
  if (const auto problem = output_problem(out, run_inputs(options.scenario, options.policy, scenario))) {
    fmt::print(stderr, "squall shrink: {}\n", escape_controls(*problem));
    return kExitBadInput;
  }
  const PlainJsonResult plain = scenario_as_plain_json(options.scenario);
  if (!plain.json) return kExitBadInput;  // load_scenario accepted it: unreachable
  const Json file = Json::parse(*plain.json);
  const std::uint64_t seed = options.seed.value_or(scenario.seed);
  Corpora corpora;
  try {
    corpora = load_corpora(scenario);
  } catch (const CorpusError& e) {
    fmt::print(stderr, "squall shrink: {}\n", escape_controls(e.what()));
    return kExitBadInput;
  }
  const std::optional<ShrinkResult> result =
      shrink_faults(scenario, scenario.policy, corpora, seed, declared_rules(file, scenario), options.threshold);
  if (!result) {
    fmt::print(stderr, "squall shrink: {} fails no threshold{} at seed {}: nothing to shrink\n",
               escape_controls(options.scenario.string()),
               options.threshold ? fmt::format(" of {}", escape_controls(*options.threshold)) : "", seed);
    return kExitBadInput;
  }
  Json shrunk = shrunk_file(file, scenario, *result, seed, options.scenario);
  keep_corpus_paths(shrunk, options.scenario, out);
  write_file_atomic(out, shrunk.dump(2) + "\n");
  print_result(scenario, *result, out);
  return kExitOk;
}

}  // namespace squall::cli
