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

std::string change_text(const RuleChange& c) {
  const auto end = [](TimePoint t) { return t == kNever ? std::string("end") : format_duration(t); };
  return fmt::format("probability {} -> {}, window [{}, {}) -> [{}, {})", c.probability_before, c.probability_after,
                     format_duration(c.from_before), end(c.to_before), format_duration(c.from_after), end(c.to_after));
}

// The file with the shrinking applied: rules removed, probabilities and windows changed,
// the seed set, and the description saying so.
Json shrunk_file(Json file, const Scenario& original, const ShrinkResult& r, std::uint64_t seed, const fs::path& from,
                 const std::optional<fs::path>& policy) {
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
      fmt::format("Shrunk by squall shrink from {}{} at seed {}: {} of {} fault rules removed{}{}.", from.string(),
                  policy ? fmt::format(" under {} (written into this file's policy)", policy->string()) : "", seed,
                  r.removed.size(), r.declared, removed.empty() ? "" : ": ", removed);
  for (const RuleChange& c : r.changed)
    note += fmt::format(" Narrowed {}: {}.", rule_name(original, c.ref), change_text(c));
  note += fmt::format(" It still fails: {}.", fmt::join(r.still, "; "));
  if (file.contains("description"))
    note += fmt::format(" The original's description: {}", file["description"].get<std::string>());
  file["description"] = note;
  file["seed"] = seed;
  return file;
}

// The policy file's entries that the merge took (sim/scenario_loader.hpp merge_policy),
// written into the shrunk file's policy block, so that it fails under `squall run` alone.
void embed_policy(Json& file, const fs::path& policy_file, const Scenario& merged) {
  const PlainJsonResult plain = policy_as_plain_json(policy_file);
  if (!plain.json) return;  // check_run accepted it: unreachable
  const Json policy = Json::parse(*plain.json);
  for (const auto& [tool, pipeline] : policy.items()) {
    if (merged.policy.contains(tool)) file["policy"][tool] = pipeline;
  }
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
  for (const RuleChange& c : r.changed) fmt::print("  narrowed {}: {}\n", rule_name(original, c.ref), change_text(c));
  if (r.declared == 0) fmt::print("the scenario declares no fault rule: capacity drops and outages are not shrunk\n");
  if (r.declared > 0 && r.removed.size() == r.declared) {
    if (r.outage_rules > 0) {
      fmt::print("no declared fault rule is needed: the {} rule{} its outages add (kept) and the policy fail it\n",
                 r.outage_rules, r.outage_rules == 1 ? "" : "s");
    } else {
      fmt::print("no fault rule is needed: the scenario fails under this policy with none of them\n");
    }
  }
  fmt::print("still fails: {}\n", fmt::join(r.still, "; "));
  fmt::print("wrote {}\nrepro: squall run {}\n", out.string(), out.string());
}

}  // namespace

int shrink_command(const ShrinkOptions& options) {
  RunOptions run;
  run.scenario = options.scenario;
  run.policy = options.policy;
  std::optional<CheckedRun> checked = check_run(run);
  if (!checked) return kExitBadInput;
  const Scenario& scenario = checked->scenario;
  if (scenario.thresholds.empty()) {
    fmt::print(stderr,
               "squall shrink: {} has no thresholds: add those its failure should keep failing (`thresholds`, "
               "docs/ci.md); a fitted scenario.yaml has none\n",
               escape_controls(options.scenario.string()));
    return kExitBadInput;
  }
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
  const ShrinkResult result =
      shrink_faults(scenario, scenario.policy, corpora, seed, declared_rules(file, scenario), options.threshold);
  if (result.failing.empty()) {
    fmt::print(stderr, "squall shrink: {} fails no threshold{} at seed {}: nothing to shrink{}\n",
               escape_controls(options.scenario.string()),
               options.threshold ? fmt::format(" of {}", escape_controls(*options.threshold)) : "", seed,
               result.original.empty()
                   ? ""
                   : fmt::format(" (it fails: {}; --threshold takes a metric as written there, tags included)",
                                 escape_controls(fmt::format("{}", fmt::join(result.original, "; ")))));
    return kExitBadInput;
  }
  Json shrunk = shrunk_file(file, scenario, result, seed, options.scenario, options.policy);
  if (options.policy) embed_policy(shrunk, *options.policy, scenario);
  keep_corpus_paths(shrunk, options.scenario, out);
  write_file_atomic(out, shrunk.dump(2) + "\n");
  print_result(scenario, result, out);
  return kExitOk;
}

}  // namespace squall::cli
