#include "sim/scenario_loader.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>

#include "reports/file_kind.hpp"
#include "sim/scenario/json_document.hpp"
#include "sim/scenario/json_reader.hpp"
#include "sim/scenario/outage_reader.hpp"
#include "sim/scenario/policy_reader.hpp"
#include "sim/scenario/provider_reader.hpp"
#include "sim/scenario/quota_group_reader.hpp"
#include "sim/scenario/threshold_reader.hpp"
#include "sim/scenario/tool_reader.hpp"
#include "sim/scenario/workload_reader.hpp"

namespace squall {
namespace {

// "$schema" lets editors find scenarios/schema/scenario.schema.json; the loader ignores
// its value.
constexpr std::array<std::string_view, 13> kScenarioKeys{
    "$schema", "name",   "description", "seed",       "duration", "workload",    "providers",
    "tools",   "policy", "thresholds",  "start_time", "outages",  "quota_groups"};

// The names the scenario's blocks refer to, read from the JSON before the blocks
// themselves, so that a reference to an entry whose own content has an error is not
// reported a second time as a reference to nothing.
ScenarioNames names_from_json(const Json& providers, const Json* tools) {
  ScenarioNames names;
  names.providers = provider_types(providers);
  if (tools == nullptr || !tools->is_object()) {
    names.tools = names.providers;
    for (const auto& [name, type] : names.providers) names.tool_provider.emplace(name, name);
    names.explicit_tools = tools != nullptr;
    return names;
  }
  names.explicit_tools = true;
  for (const auto& [name, entry] : tools->items()) {
    std::optional<ProviderType> type;
    if (entry.is_object()) {
      const auto provider = entry.find("provider");
      if (provider != entry.end() && provider->is_string()) {
        const auto& provider_name = provider->get_ref<const std::string&>();
        names.tool_provider.emplace(name, provider_name);
        if (const auto it = names.providers.find(provider_name); it != names.providers.end()) type = it->second;
      }
    }
    names.tools.emplace(name, type);
  }
  return names;
}

// An LLM step's request takes prompt_tokens + max_output_tokens from its provider's
// tokens-per-minute bucket at least (more once the previous step's hits join the prompt),
// and a bucket never holds more than its limit: a base limit below that would answer 429
// to every such request for the whole run (mocks/capacity/capacity_provider.hpp, step 2).
// A drop may go below it: the provider is then out of service for those requests during
// the drop, a deliberate outage.
// The tokens-per-minute limits a request to `provider` must fit, with where each is set:
// its own capacity block's and its quota group's.
std::vector<std::pair<std::int64_t, std::string>> token_limits(const Scenario& scenario,
                                                               const ProviderConfig& provider) {
  std::vector<std::pair<std::int64_t, std::string>> limits;
  if (provider.capacity && provider.capacity->limits.tokens_per_minute) {
    limits.emplace_back(
        *provider.capacity->limits.tokens_per_minute,
        pointer_append(pointer_append(pointer_append("/providers", provider.name), "capacity"), "tokens_per_minute"));
  }
  for (std::size_t g = 0; g < scenario.quota_groups.size(); ++g) {
    const QuotaGroupConfig& group = scenario.quota_groups[g];
    if (group.name != provider.quota_group || !group.tokens_per_minute) continue;
    limits.emplace_back(*group.tokens_per_minute, fmt::format("/quota_groups/{}/tokens_per_minute", g));
  }
  return limits;
}

void check_request_sizes(const Scenario& scenario, Diagnostics& diag) {
  for (std::size_t i = 0; i < scenario.workload.tasks.size(); ++i) {
    const TaskTemplate& task = scenario.workload.tasks[i];
    for (std::size_t j = 0; j < task.steps.size(); ++j) {
      const StepConfig& step = task.steps[j];
      const auto tool = std::find_if(scenario.tools.begin(), scenario.tools.end(),
                                     [&](const ToolConfig& t) { return t.name == step.tool; });
      if (tool == scenario.tools.end()) continue;
      const auto provider = std::find_if(scenario.providers.begin(), scenario.providers.end(),
                                         [&](const ProviderConfig& p) { return p.name == tool->provider; });
      if (provider == scenario.providers.end()) continue;
      const std::int64_t needed = step.prompt_tokens + step.max_output_tokens;
      for (const auto& [limit, path] : token_limits(scenario, *provider)) {
        if (needed <= limit) continue;
        diag.error(path, fmt::format("expected at least the tokens of one request of {} (prompt_tokens + "
                                     "max_output_tokens = {}), got {}: that request could never be admitted",
                                     fmt::format("/workload/tasks/{}/steps/{}", i, j), needed, limit));
      }
    }
  }
}

// $schema, name, description and seed: the keys that say which scenario this is.
void read_identity(const ObjectReader& obj, Scenario& scenario, Diagnostics& diag) {
  if (const Json* schema = obj.find("$schema")) read_string(*schema, obj.path_of("$schema"), diag);
  if (obj.require("name") != nullptr && obj.get_nonempty("name", scenario.name)) {
    check_printable(scenario.name, obj.path_of("name"), diag);
  }
  if (obj.get("description", scenario.description)) {
    check_printable(scenario.description, obj.path_of("description"), diag, AllowedControls::newline_and_tab);
  }
  if (const Json* seed = obj.find("seed")) {
    if (const auto s = read_unsigned(*seed, obj.path_of("seed"), diag)) scenario.seed = *s;
  }
}

// What several providers share: outages, which they suffer together, and quota groups,
// whose limits they spend together.
void read_shared(const ObjectReader& obj, std::optional<Nanos> run_end, const ScenarioNames* known,
                 Scenario& scenario) {
  const ProviderTypes* declared = known != nullptr ? &known->providers : nullptr;
  if (const Json* outages = obj.find("outages")) {
    read_outages(*outages, obj.path_of("outages"), run_end, scenario.providers, declared, obj.diag());
  }
  if (const Json* groups = obj.find("quota_groups")) {
    scenario.quota_groups =
        read_quota_groups(*groups, obj.path_of("quota_groups"), scenario.providers, declared, obj.diag());
  }
}

Scenario read_scenario(const Json& root, const std::filesystem::path& file, Diagnostics& diag) {
  Scenario scenario;
  scenario.source = file;
  if (const auto problem = wrong_kind_problem(root, FileKind::scenario)) {
    diag.error("", *problem);
    return scenario;
  }
  const ObjectReader obj(root, "", diag, kScenarioKeys);
  if (!obj.valid()) return scenario;

  read_identity(obj, scenario, diag);
  std::optional<Nanos> run_end;
  if (obj.get_duration_required("duration", scenario.duration, DurationMin::positive)) run_end = scenario.duration;

  // Steps and policies refer to tools and providers, so their names and types are
  // collected first.
  const Json* providers = obj.find("providers");
  const Json* tools = obj.find("tools");
  const bool providers_valid = providers != nullptr && providers->is_object();
  const ScenarioNames names = providers_valid ? names_from_json(*providers, tools) : ScenarioNames{};
  const ScenarioNames* known = providers_valid ? &names : nullptr;

  if (const Json* workload = obj.require("workload")) {
    scenario.workload = read_workload(*workload, obj.path_of("workload"), WorkloadContext{known, run_end}, diag);
  }
  bool providers_read = false;  // without errors
  if (obj.require("providers") != nullptr) {
    const std::size_t errors_before = diag.count();
    scenario.providers = read_providers(*providers, obj.path_of("providers"), file.parent_path(), run_end, diag);
    providers_read = diag.count() == errors_before;
  }
  read_shared(obj, run_end, known, scenario);
  if (const Json* start = obj.find("start_time")) {
    if (const auto t = read_start_time(*start, obj.path_of("start_time"), diag)) scenario.start_unix_seconds = *t;
  }
  if (tools != nullptr) {
    scenario.tools = read_tools(*tools, obj.path_of("tools"), providers_valid ? &names.providers : nullptr, diag);
    scenario.explicit_tools = true;
  } else {
    scenario.tools = implicit_tools(scenario.providers);
  }
  if (const Json* policy = obj.find("policy")) {
    scenario.policy = read_policy(*policy, obj.path_of("policy"), known, diag);
  }
  if (const Json* thresholds = obj.find("thresholds")) {
    std::vector<std::string> templates;
    for (const TaskTemplate& task : scenario.workload.tasks) templates.push_back(task.name);
    const ThresholdContext context{known, templates.empty() ? nullptr : &templates,
                                   providers_read ? &scenario.providers : nullptr, run_end};
    scenario.thresholds = read_thresholds(*thresholds, obj.path_of("thresholds"), context, diag);
  }
  if (diag.count() == 0) check_request_sizes(scenario, diag);
  return scenario;
}

}  // namespace

LoadResult load_scenario(const std::filesystem::path& file) {
  Diagnostics diag(file.string());
  const auto text = read_text_file(file, diag);
  if (!text) return LoadResult{std::nullopt, diag.take()};
  return load_scenario_text(*text, file);
}

PlainJsonResult scenario_as_plain_json(const std::filesystem::path& file) {
  Diagnostics diag(file.string());
  const auto text = read_text_file(file, diag);
  if (!text) return PlainJsonResult{std::nullopt, diag.take()};
  LoadResult loaded = load_scenario_text(*text, file);
  if (!loaded.ok()) return PlainJsonResult{std::nullopt, std::move(loaded.errors)};
  // Parsed once more: the loader keeps typed structs, not the document.
  const auto document = parse_document(*text, file, diag);
  return PlainJsonResult{document->root.dump(2) + "\n", {}};
}

PlainJsonResult policy_as_plain_json(const std::filesystem::path& file) {
  Diagnostics diag(file.string());
  const auto text = read_text_file(file, diag);
  if (!text) return PlainJsonResult{std::nullopt, diag.take()};
  PolicyLoadResult loaded = load_policy_text(*text, file);
  if (!loaded.ok()) return PlainJsonResult{std::nullopt, std::move(loaded.errors)};
  const auto document = parse_document(*text, file, diag);
  return PlainJsonResult{document->root.dump(2) + "\n", {}};
}

LoadResult load_scenario_text(std::string_view text, const std::filesystem::path& file) {
  Diagnostics diag(file.string());
  const auto document = parse_document(text, file, diag);
  if (!document) return LoadResult{std::nullopt, diag.take()};
  diag.locate_with(&document->marks);
  Scenario scenario = read_scenario(document->root, file, diag);
  if (diag.count() > 0) return LoadResult{std::nullopt, diag.take()};
  return LoadResult{std::move(scenario), {}};
}

PolicyLoadResult load_policy_file(const std::filesystem::path& file) {
  Diagnostics diag(file.string());
  const auto text = read_text_file(file, diag);
  if (!text) return PolicyLoadResult{std::nullopt, diag.take()};
  return load_policy_text(*text, file);
}

PolicyLoadResult load_policy_text(std::string_view text, const std::filesystem::path& file) {
  Diagnostics diag(file.string());
  const auto document = parse_document(text, file, diag);
  if (!document) return PolicyLoadResult{std::nullopt, diag.take()};
  diag.locate_with(&document->marks);
  if (const auto problem = wrong_kind_problem(document->root, FileKind::policy)) {
    diag.error("", *problem);
    return PolicyLoadResult{std::nullopt, diag.take()};
  }
  PolicyConfig policy = read_policy(document->root, "", nullptr, diag);
  if (diag.count() > 0) return PolicyLoadResult{std::nullopt, diag.take()};
  return PolicyLoadResult{std::move(policy), {}};
}

namespace {

// Whether the scenario has `key` to configure: a tool, or a provider whose stack a policy
// may give when the scenario has a tools block (policy_reader.hpp check_owner's rule).
bool scenario_has(const ScenarioNames& names, std::string_view key) {
  return names.tools.contains(key) || (names.explicit_tools && names.providers.contains(key));
}

// What the scenario's own policy configures and its steps call, sorted.
std::set<std::string_view> scenario_keys(const Scenario& scenario) {
  std::set<std::string_view> keys;
  for (const TaskTemplate& task : scenario.workload.tasks) {
    for (const StepConfig& step : task.steps) keys.insert(step.tool);
  }
  for (const auto& [key, strategies] : scenario.policy) keys.insert(key);
  return keys;
}

std::string names_of(const std::set<std::string_view>& keys) {
  const std::vector<std::string_view> list(keys.begin(), keys.end());
  return join_quoted(list);
}

}  // namespace

bool shares_a_tool(const Scenario& scenario, const PolicyConfig& policy) {
  const ScenarioNames names = scenario_names(scenario);
  return std::any_of(policy.begin(), policy.end(), [&](const auto& entry) { return scenario_has(names, entry.first); });
}

PolicyMerge merge_policy(const Scenario& scenario, const PolicyConfig& policy, const std::filesystem::path& policy_file,
                         UnsharedPolicy unshared) {
  PolicyMerge merge;
  const ScenarioNames names = scenario_names(scenario);
  PolicyConfig named;  // the file's entries for what the scenario has
  std::set<std::string_view> skipped;
  for (const auto& [key, strategies] : policy) {
    if (scenario_has(names, key)) {
      named.emplace(key, strategies);
    } else {
      skipped.insert(key);
    }
  }
  Diagnostics diag(policy_file.string());
  if (named.empty()) {
    std::set<std::string_view> tools;
    for (const auto& [tool, type] : names.tools) tools.insert(tool);
    const std::string what = fmt::format("names no tool of the scenario (its tools are {})", names_of(tools));
    if (unshared == UnsharedPolicy::keep_scenario_policy) {
      merge.notes.push_back(fmt::format("{}: {}: the scenario's own policy kept", policy_file.string(), what));
      merge.policy = scenario.policy;
      merge.scenario_policy_kept = true;
      return merge;
    }
    diag.error("", what);
    merge.errors = diag.take();
    return merge;
  }
  check_policy(named, names, "", diag);
  merge.errors = diag.take();
  if (!merge.errors.empty()) return merge;
  if (!skipped.empty()) {
    merge.notes.push_back(fmt::format("{}: skipped {}: the scenario has no tool or provider of that name",
                                      policy_file.string(), names_of(skipped)));
  }
  std::set<std::string_view> kept;
  for (const std::string_view key : scenario_keys(scenario)) {
    if (!named.contains(key)) kept.insert(key);
  }
  if (!kept.empty()) {
    merge.notes.push_back(
        fmt::format("{}: {} not named in it: the scenario's own policy kept", policy_file.string(), names_of(kept)));
  }
  merge.policy = scenario.policy;
  for (auto& [key, strategies] : named) merge.policy[key] = std::move(strategies);
  return merge;
}

std::vector<ValidationError> check_policy(const Scenario& scenario, const PolicyConfig& policy,
                                          const std::filesystem::path& policy_file) {
  return merge_policy(scenario, policy, policy_file).errors;
}

std::vector<ValidationError> apply_policy_file(Scenario& scenario, const std::filesystem::path& policy_file,
                                               std::vector<std::string>* notes, UnsharedPolicy unshared, bool* kept) {
  PolicyLoadResult loaded = load_policy_file(policy_file);
  if (!loaded.ok()) return std::move(loaded.errors);
  PolicyMerge merge = merge_policy(scenario, *loaded.policy, policy_file, unshared);
  if (!merge.errors.empty()) return std::move(merge.errors);
  scenario.policy = std::move(merge.policy);
  if (notes != nullptr) *notes = std::move(merge.notes);
  if (kept != nullptr) *kept = merge.scenario_policy_kept;
  return {};
}

}  // namespace squall
