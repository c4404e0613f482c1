// Sweep files (sim/sweep/sweep_spec.hpp): grid expansion order and names, defaults, and one
// test per bad-config rule with its exact message. Sweeps are read in memory under a name in
// scenarios/sweeps/, so that "../quickstart.json" and "../policies/naive-retry.json"
// resolve to the shipped files.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "reports/compare.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace squall {
namespace {

const std::string kFile = std::string(SQUALL_SOURCE_DIR) + "/scenarios/sweeps/test-sweep.json";

SweepLoadResult load(const std::string& text) { return load_sweep_text(text, kFile); }

// The one error of `text`, as "path: message" (the sweep file's errors), or "file: ..."
// for an error in another file.
std::string error_of(const std::string& text) {
  const SweepLoadResult r = load(text);
  if (r.errors.size() != 1) {
    std::string all = std::to_string(r.errors.size()) + " errors:";
    for (const ValidationError& e : r.errors) {
      all += '\n';
      all += to_string(e);
    }
    return all;
  }
  const ValidationError& e = r.errors.front();
  if (e.file != kFile) return to_string(e);
  return e.path + ": " + e.message;
}

// A valid sweep with `extra` members added to its top level.
std::string sweep(const std::string& variants, const std::string& extra = R"("seeds": 3)") {
  std::string text = R"({ "name": "t", "scenario": "../quickstart.json", "variants": )";
  text += variants;
  text += ", ";
  text += extra;
  text += " }";
  return text;
}

TEST(SweepSpecTest, DefaultsAreTheScenarioSeedTheFirstVariantAndTheHeadlineMetrics) {
  const SweepLoadResult r =
      load(sweep(R"([{ "name": "own" }, { "name": "naive", "policy": "../policies/naive-retry.json" }])"));
  ASSERT_TRUE(r.ok()) << to_string(r.errors.front());
  const SweepSpec& s = *r.spec;
  EXPECT_EQ(s.first_seed, 42U);  // quickstart's seed
  EXPECT_EQ(s.seeds, 3U);
  EXPECT_EQ(s.baseline, 0U);
  EXPECT_EQ(s.metrics, (std::vector<std::string>{"task_success", "latency_ms.p50", "latency_ms.p99", "cost_usd.total",
                                                 "retry_amplification.overall"}));
  ASSERT_EQ(s.objectives.size(), 3U);
  EXPECT_EQ(s.objectives[1].metric, "latency_ms.p99");
  EXPECT_EQ(s.objectives[1].goal, Goal::min);
  ASSERT_EQ(s.variants.size(), 2U);
  EXPECT_FALSE(s.variants[0].policy_file);
  EXPECT_EQ(*s.variants[1].policy_file, "../policies/naive-retry.json");
  EXPECT_EQ(s.variants[1].policy.at("llm").size(), 1U);
}

TEST(SweepSpecTest, TheScenariosOwnPolicyMayLeaveAToolOut) {
  // llm-budget-guard's policy configures llm only: its web_search calls the provider
  // directly, as in `squall run`. Only a policy file must name every tool.
  const SweepLoadResult r = load(R"({ "name": "t", "scenario": "../ci/llm-budget-guard.json", "seeds": 2,
    "variants": [ { "name": "own" },
                  { "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [2, 3] } ] } ] })");
  ASSERT_TRUE(r.ok()) << to_string(r.errors.front());
  ASSERT_EQ(r.spec->variants.size(), 3U);
  for (const SweepVariant& v : r.spec->variants) {
    EXPECT_TRUE(v.policy.contains("llm")) << v.name;
    EXPECT_FALSE(v.policy.contains("web_search")) << v.name;
  }
  const auto* retry = std::get_if<RetryConfig>(&r.spec->variants[2].policy.at("llm")[1]);
  ASSERT_NE(retry, nullptr);
  EXPECT_EQ(retry->max_attempts, 3);
}

TEST(SweepSpecTest, GridExpandsInOrderWithTheLastAxisFastest) {
  const SweepLoadResult r = load(sweep(R"([
    { "name": "a" },
    { "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [2, 3, 4] },
                             { "path": "/web_search/2/retry/backoff", "values": ["constant", "linear"] } ] },
    { "name": "z", "policy": "../policies/naive-retry.json" } ])"));
  ASSERT_TRUE(r.ok()) << to_string(r.errors.front());
  std::vector<std::string> names;
  for (const SweepVariant& v : r.spec->variants) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "a", R"(g[max_attempts=2,backoff="constant"])", R"(g[max_attempts=2,backoff="linear"])",
                       R"(g[max_attempts=3,backoff="constant"])", R"(g[max_attempts=3,backoff="linear"])",
                       R"(g[max_attempts=4,backoff="constant"])", R"(g[max_attempts=4,backoff="linear"])", "z"}));
  const SweepVariant& v = r.spec->variants[3];
  ASSERT_EQ(v.params.size(), 2U);
  EXPECT_EQ(v.params[0], (std::pair<std::string, std::string>{"/llm/1/retry/max_attempts", "3"}));
  // The value is in the policy that runs: quickstart's llm retry is item 1.
  const auto& retry = std::get<RetryConfig>(v.policy.at("llm")[1]);
  EXPECT_EQ(retry.max_attempts, 3);
}

TEST(SweepSpecTest, AxesEndingAlikeAreNamedByToolAndKey) {
  const SweepLoadResult r = load(sweep(R"([{ "name": "g", "grid": [
    { "path": "/llm/1/retry/max_attempts", "values": [2] },
    { "path": "/web_search/2/retry/max_attempts", "values": [5] } ] }])"));
  ASSERT_TRUE(r.ok()) << to_string(r.errors.front());
  EXPECT_EQ(r.spec->variants[0].name, "g[llm.max_attempts=2,web_search.max_attempts=5]");
}

TEST(SweepSpecTest, AGridMaySetAParameterLeftAtItsDefault) {
  const SweepLoadResult r =
      load(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/jitter", "values": ["none"] } ] }])"));
  ASSERT_TRUE(r.ok()) << to_string(r.errors.front());
}

TEST(SweepSpecTest, ObjectiveAndTargetMetricsAreMeasuredAfterTheReportedOnes) {
  const SweepLoadResult r = load(
      sweep(R"([{ "name": "a" }])",
            R"("metrics": ["tasks.failed"], "target": { "metric": "tokens.input", "width": 10, "max_seeds": 8 })"));
  ASSERT_TRUE(r.ok()) << to_string(r.errors.front());
  EXPECT_EQ(r.spec->metrics, (std::vector<std::string>{"tasks.failed", "task_success", "latency_ms.p99",
                                                       "cost_usd.total", "tokens.input"}));
  EXPECT_EQ(r.spec->target->min_seeds, 5U);
  EXPECT_EQ(r.spec->target->max_seeds, 8U);
}

TEST(SweepSpecTest, YamlSweepsAreReadLikeJsonWithLineAndColumn) {
  const std::string yaml = "name: t\nscenario: ../quickstart.json\nseeds: 3\nvariants:\n  - name: a\n    colour: red\n";
  const SweepLoadResult r = load_sweep_text(yaml, std::string(SQUALL_SOURCE_DIR) + "/scenarios/sweeps/t.yaml");
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_EQ(r.errors[0].path, "/variants/0/colour");
  EXPECT_EQ(r.errors[0].message, "unknown key \"colour\"; expected one of: name, policy, grid");
  EXPECT_EQ(r.errors[0].line, 6U);
  EXPECT_EQ(r.errors[0].column, 5U);
}

// One test per rule, each with its exact message.

TEST(SweepSpecRulesTest, UnknownTopLevelKey) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])", R"("seeds": 3, "sedes": 4)")),
            "/sedes: unknown key \"sedes\"; expected one of: $schema, name, description, scenario, variants, "
            "baseline, seeds, target, first_seed, metrics, objectives, decision");
}

TEST(SweepSpecTest, DecisionDefaultsAndSettings) {
  SweepLoadResult r = load(sweep(R"([{ "name": "a" }])"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.spec->decision.objective.metric, "task_success");
  EXPECT_EQ(r.spec->decision.feasible_pass_rate, 0.9);
  EXPECT_TRUE(r.spec->decision.min_effects.empty());
  r = load(sweep(R"([{ "name": "a" }])", R"("seeds": 3, "decision": { "objective": { "metric": "tokens.input",
      "goal": "min" }, "feasible_pass_rate": 1, "min_effect": { "task_success": 0.02, "latency_ms.p99": "2.5%" } })"));
  ASSERT_TRUE(r.ok()) << to_string(r.errors.front());
  EXPECT_EQ(r.spec->decision.objective.metric, "tokens.input");
  EXPECT_EQ(r.spec->decision.objective.goal, Goal::min);
  EXPECT_EQ(r.spec->metrics.back(), "tokens.input");  // measured, since the decision needs it
  ASSERT_EQ(r.spec->decision.min_effects.size(), 2U);
  EXPECT_EQ(r.spec->decision.min_effects[0].value, 0.02);
  EXPECT_FALSE(r.spec->decision.min_effects[0].relative);
  EXPECT_DOUBLE_EQ(r.spec->decision.min_effects[1].value, 0.025);
  EXPECT_TRUE(r.spec->decision.min_effects[1].relative);
}

TEST(SweepSpecRulesTest, DecisionErrors) {
  const auto decision = [](const std::string& body) {
    return error_of(sweep(R"([{ "name": "a" }])", R"("seeds": 3, "decision": )" + body));
  };
  EXPECT_EQ(decision(R"({ "objectve": 1 })"),
            "/decision/objectve: unknown key \"objectve\"; expected one of: objective, feasible_pass_rate, min_effect");
  EXPECT_EQ(
      decision(R"({ "objective": { "metric": "cost" , "goal": "min" } })"),
      "/decision/objective/metric: unknown metric \"cost\"; metrics are: " + [] {
        std::string all;
        for (const std::string& m : headline_metric_names()) all += (all.empty() ? "" : ", ") + m;
        return all;
      }());
  EXPECT_EQ(decision(R"({ "feasible_pass_rate": 1.5 })"),
            "/decision/feasible_pass_rate: expected a number in [0, 1], got 1.5");
  EXPECT_EQ(decision(R"({ "min_effect": { "task_success": "five%" } })"),
            "/decision/min_effect/task_success: expected a number >= 0 or a percentage of the baseline's mean in "
            "[0%, 100%] such as \"5%\", got \"five%\"");
  EXPECT_EQ(decision(R"({ "min_effect": { "task_success": -1 } })"),
            "/decision/min_effect/task_success: expected a number >= 0, got -1");
  EXPECT_EQ(decision(R"({ "min_effect": { "tokens.output": 5 } })"),
            "/decision/min_effect/tokens.output: a minimum effect for \"tokens.output\", which the sweep does not "
            "report: add it to /metrics");
  EXPECT_EQ(decision(R"({ "min_effect": [1] })"),
            "/decision/min_effect: expected an object of metric names to minimum effects, e.g. "
            "{\"latency_ms.p99\": \"5%\"}");
}

TEST(SweepSpecRulesTest, NameIsRequired) {
  EXPECT_EQ(error_of(R"({ "scenario": "../quickstart.json", "variants": [{ "name": "a" }], "seeds": 3 })"),
            ": missing required key \"name\"");
}

TEST(SweepSpecRulesTest, ScenarioIsRequired) {
  EXPECT_EQ(error_of(R"({ "name": "t", "variants": [{ "name": "a" }], "seeds": 3 })"),
            ": missing required key \"scenario\"");
}

TEST(SweepSpecRulesTest, ScenarioErrorsAreTheLoadersRelativeToTheSweepFile) {
  // The sweep's own error first, naming the key that led to the file, then the file's.
  const std::string dir = std::string(SQUALL_SOURCE_DIR) + "/scenarios/sweeps/";
  EXPECT_EQ(error_of(R"({ "name": "t", "scenario": "nope.json", "variants": [{ "name": "a" }], "seeds": 3 })"),
            "2 errors:\n" + dir + "test-sweep.json: /scenario: the scenario \"" + dir +
                "nope.json\" is not valid (its errors follow)\n" + dir + "nope.json: file not found");
}

TEST(SweepSpecRulesTest, SeedsOrTargetIsRequired) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])", R"("first_seed": 1)")),
            ": missing required key \"seeds\" (or \"target\")");
}

TEST(SweepSpecRulesTest, NotBothSeedsAndTarget) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])",
                           R"("seeds": 3, "target": { "metric": "task_success", "width": 0.1, "max_seeds": 9 })")),
            "/target: expected either \"seeds\" or \"target\", not both");
}

TEST(SweepSpecRulesTest, SeedsWithinBounds) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])", R"("seeds": 0)")),
            "/seeds: expected an integer in [1, 10000], got 0");
}

TEST(SweepSpecRulesTest, SeedListWithinUint64) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])", R"("seeds": 3, "first_seed": 18446744073709551615)")),
            "/first_seed: first_seed + 3 - 1 exceeds 18446744073709551615");
}

TEST(SweepSpecRulesTest, SeedListFromTheScenariosSeedIsTheCountsError) {
  // Without first_seed the list starts at the scenario's seed: the error is at the count,
  // which this file gives, not at a key it does not have.
  const std::filesystem::path scenario =
      std::filesystem::temp_directory_path() / ("squall_sweep_last_seed_" + std::to_string(::getpid()) + ".json");
  std::ofstream(scenario) << R"({ "name": "last-seed", "duration": "1m", "seed": 18446744073709551615,
    "workload": { "tasks": [ { "name": "ask", "steps": [ { "tool": "llm" } ] } ] },
    "providers": { "llm": { "type": "llm" } } })";
  const std::string head =
      R"({ "name": "t", "scenario": ")" + scenario.string() + R"(", "variants": [ { "name": "a" } ], )";
  EXPECT_EQ(
      error_of(head + R"("seeds": 2 })"),
      "/seeds: the scenario's seed 18446744073709551615 + 2 - 1 exceeds 18446744073709551615: set first_seed lower");
  EXPECT_EQ(error_of(head + R"("target": { "metric": "task_success", "width": 0.1, "max_seeds": 5 } })"),
            "/target/max_seeds: the scenario's seed 18446744073709551615 + 5 - 1 exceeds 18446744073709551615: set "
            "first_seed lower");
  std::filesystem::remove(scenario);
}

TEST(SweepSpecRulesTest, TargetNeedsMaxSeeds) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])", R"("target": { "metric": "task_success", "width": 0.1 })")),
            "/target: missing required key \"max_seeds\"");
}

TEST(SweepSpecRulesTest, TargetWidthIsPositive) {
  EXPECT_EQ(
      error_of(sweep(R"([{ "name": "a" }])", R"("target": { "metric": "task_success", "width": 0, "max_seeds": 9 })")),
      "/target/width: expected a number > 0, got 0");
}

TEST(SweepSpecRulesTest, TargetMinSeedsAtLeastTwo) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])",
                           R"("target": { "metric": "task_success", "width": 0.1, "min_seeds": 1, "max_seeds": 9 })")),
            "/target/min_seeds: expected an integer in [2, 10000], got 1");
}

TEST(SweepSpecRulesTest, TargetMaxSeedsNotBelowMinSeeds) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])",
                           R"("target": { "metric": "task_success", "width": 0.1, "min_seeds": 6, "max_seeds": 4 })")),
            "/target/max_seeds: expected an integer >= min_seeds (6), got 4");
}

TEST(SweepSpecRulesTest, MetricsAreHeadlineMetrics) {
  const std::string error = error_of(sweep(R"([{ "name": "a" }])", R"("seeds": 3, "metrics": ["p99"])"));
  EXPECT_EQ(error.substr(0, error.find(';')), "/metrics/0: unknown metric \"p99\"");
  EXPECT_NE(error.find("; metrics are: tasks.total, tasks.succeeded,"), std::string::npos) << error;
}

TEST(SweepSpecRulesTest, MetricsAreDistinct) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])", R"("seeds": 3, "metrics": ["task_success", "task_success"])")),
            "/metrics/1: duplicate metric \"task_success\"");
}

TEST(SweepSpecRulesTest, ObjectiveGoalIsMaxOrMin) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])",
                           R"("seeds": 3, "objectives": [{ "metric": "task_success", "goal": "up" }])")),
            "/objectives/0/goal: expected one of \"max\", \"min\", got \"up\"");
}

TEST(SweepSpecRulesTest, ObjectivesAreDistinct) {
  EXPECT_EQ(
      error_of(sweep(R"([{ "name": "a" }])", R"("seeds": 3, "objectives": [{ "metric": "task_success", "goal": "max" },
                                                                                 { "metric": "task_success", "goal": "min" }])")),
      "/objectives/1/metric: duplicate objective \"task_success\"");
}

TEST(SweepSpecRulesTest, VariantsAreNonEmpty) {
  EXPECT_EQ(error_of(sweep("[]")), "/variants: expected a non-empty array, got []");
}

TEST(SweepSpecRulesTest, VariantNameIsRequired) {
  EXPECT_EQ(error_of(sweep(R"([{ "policy": "../policies/naive-retry.json" }])")),
            "/variants/0: missing required key \"name\"");
}

TEST(SweepSpecRulesTest, VariantNamesAreUnique) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }, { "name": "a", "policy": "../policies/naive-retry.json" }])")),
            "/variants: two variants are named \"a\": names must be unique");
}

TEST(SweepSpecRulesTest, PolicyFileErrorsAreTheLoadersRelativeToTheSweepFile) {
  const std::string dir = std::string(SQUALL_SOURCE_DIR) + "/scenarios/sweeps/";
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a", "policy": "missing.json" }])")),
            "2 errors:\n" + dir + "test-sweep.json: /variants/0/policy: the policy file \"" + dir +
                "missing.json\" is not valid (its errors follow)\n" + dir + "missing.json: file not found");
}

TEST(SweepSpecRulesTest, PolicyFileIsCheckedAgainstTheScenario) {
  // no-fallback.json is written for another scenario's tools: check_policy's errors, in
  // the policy file, as `squall validate SCENARIO --policy FILE` reports them.
  const SweepLoadResult r = load(sweep(R"([{ "name": "a", "policy": "../policies/no-fallback.json" }])"));
  // The sweep's own error first, at the variant's policy, then the policy file's.
  ASSERT_GE(r.errors.size(), 2U);
  EXPECT_EQ(r.errors[0].file, std::string(SQUALL_SOURCE_DIR) + "/scenarios/sweeps/test-sweep.json");
  EXPECT_EQ(r.errors[0].path, "/variants/0/policy");
  for (std::size_t i = 1; i < r.errors.size(); ++i) {
    EXPECT_EQ(r.errors[i].file, std::string(SQUALL_SOURCE_DIR) + "/scenarios/sweeps/../policies/no-fallback.json");
  }
}

TEST(SweepSpecRulesTest, GridPathIsAJsonPointer) {
  EXPECT_EQ(
      error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "llm.retry", "values": [2] } ] }])")),
      "/variants/0/grid/0/path: expected a JSON Pointer such as \"/llm/1/retry/max_attempts\", got \"llm.retry\"");
}

TEST(SweepSpecRulesTest, GridPathMustExistUpToItsLastKey) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/5/retry/max_attempts", "values": [2] } ] }])")),
            "/variants/0/grid/0/path: the policy has no object at \"/llm/5/retry\" to hold \"max_attempts\"");
}

TEST(SweepSpecRulesTest, GridPathWithAnIndexPast64BitsNamesNoObject) {
  // nlohmann's contains() throws on an array index it cannot represent: the same error as
  // any index past the end, not an internal one.
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/99999999999999999999/retry/max_attempts",
                                                           "values": [2] } ] }])")),
            "/variants/0/grid/0/path: the policy has no object at \"/llm/99999999999999999999/retry\" to hold "
            "\"max_attempts\"");
}

TEST(SweepSpecRulesTest, GridValueMustMakeAValidPolicy) {
  EXPECT_EQ(
      error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [2, 0] } ] }])")),
      "/variants/0/grid/0/values/1: makes an invalid policy: /llm/1/retry/max_attempts: expected an integer in "
      "[1, 1000], got 0");
}

TEST(SweepSpecRulesTest, GridUnknownKeyIsThePolicyReadersError) {
  EXPECT_EQ(
      error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/max_atempts", "values": [2] } ] }])")),
      "/variants/0/grid/0/values/0: makes an invalid policy: /llm/1/retry/max_atempts: unknown key \"max_atempts\"; "
      "expected one of: max_attempts, retry_on, backoff, base_delay, multiplier, max_delay, jitter, jitter_range, "
      "honour_retry_after, max_retry_after, over_max_retry_after, "
      "zero_retry_after, honour_should_retry, max_retries_by_kind");
}

TEST(SweepSpecRulesTest, GridCombinationMustMakeAValidPolicy) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [
                  { "path": "/web_search/2/retry/base_delay", "values": ["1s", "20s"] },
                  { "path": "/web_search/2/retry/max_delay", "values": ["10s"] } ] }])")),
            "/variants/0/grid: [base_delay=\"20s\",max_delay=\"10s\"] makes an invalid policy: "
            "/web_search/2/retry/max_delay: expected a duration >= base_delay (20s), got \"10s\"");
}

TEST(SweepSpecRulesTest, GridValuesAreDistinct) {
  EXPECT_EQ(
      error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [2, 2] } ] }])")),
      "/variants/0/grid/0/values/1: duplicate value 2 (also /variants/0/grid/0/values/0)");
  // A value repeated twice more is reported once per repeat, against the first.
  const SweepLoadResult r =
      load(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [2, 2.0, 2e0] } ] }])"));
  ASSERT_EQ(r.errors.size(), 2U);
  EXPECT_EQ(r.errors[1].path + ": " + r.errors[1].message,
            "/variants/0/grid/0/values/2: duplicate value 2.0 (also /variants/0/grid/0/values/0)");
}

TEST(SweepSpecRulesTest, GridPathsAreDistinct) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [2] },
                                                        { "path": "/llm/1/retry/max_attempts", "values": [3] } ] }])")),
            "/variants/0/grid/1/path: duplicate path \"/llm/1/retry/max_attempts\" (also /variants/0/grid/0/path)");
}

TEST(SweepSpecRulesTest, GridValuesAreNonEmpty) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [] } ] }])")),
            "/variants/0/grid/0/values: expected a non-empty array, got []");
}

TEST(SweepSpecRulesTest, BaselineNamesAnExpandedVariant) {
  EXPECT_EQ(
      error_of(sweep(
          R"([{ "name": "a" }, { "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [2] } ] }])",
          R"("seeds": 3, "baseline": "g")")),
      "/baseline: no variant named \"g\"; variants are: a, g[max_attempts=2]");
}

TEST(SweepSpecRulesTest, AtMostAThousandVariants) {
  std::string values;
  for (int i = 1; i <= 40; ++i) {
    if (i > 1) values += ',';
    values += std::to_string(i);
  }
  std::string variants = R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [)";
  variants += values;
  variants += R"(] }, { "path": "/web_search/2/retry/max_attempts", "values": [)";
  variants += values;
  variants += "] } ] }]";
  // Counted before any combination is built: five axes of 100 values were 10^10 policies.
  EXPECT_EQ(error_of(sweep(variants)),
            "/variants/0/grid: expected at most 1000 combinations of the axes' values, got 1600");
}

TEST(SweepSpecRulesTest, AtMostAThousandVariantsOverAllGrids) {
  std::string values;
  for (int i = 1; i <= 30; ++i) {
    if (i > 1) values += ',';
    values += std::to_string(i);
  }
  const std::string twenty = values.substr(0, values.find(",21"));
  // 30 x 20 = 600 combinations each.
  const auto variant = [&](const char* name) {
    std::string v = R"({ "name": ")";
    v += name;
    v += R"(", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [)";
    v += values;
    v += R"(] }, { "path": "/web_search/2/retry/max_attempts", "values": [)";
    v += twenty;
    v += "] } ] }";
    return v;
  };
  std::string variants = "[";
  variants += variant("a");
  variants += ',';
  variants += variant("b");
  variants += ']';
  EXPECT_EQ(error_of(sweep(variants)),
            "/variants: expected at most 1000 variants once grids are expanded, got 1200 by the end of /variants/1");
}

TEST(SweepSpecRulesTest, AtMostAThousandValuesPerAxis) {
  std::string values;
  for (int i = 1; i <= 100000; ++i) {  // repeats, never compared
    if (i > 1) values += ',';
    values += std::to_string(i % 7);
  }
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [)" + values +
                           "] } ] }]")),
            "/variants/0/grid/0/values: expected at most 1000 values, got 100000");
}

TEST(SweepSpecRulesTest, GridPathsMustNotOverlap) {
  // An outer axis replacing the object an inner axis writes into: the inner write failed
  // (an internal error), or the outer value silently undid it (two variants alike).
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [
                  { "path": "/llm/1/retry/max_attempts", "values": [1, 5] },
                  { "path": "/llm/1/retry", "values": [{ "max_attempts": 3 }] } ] }])")),
            "/variants/0/grid/1/path: \"/llm/1/retry\" overlaps \"/llm/1/retry/max_attempts\" "
            "(/variants/0/grid/0/path): one axis would overwrite what the other writes; sweep the outer value's "
            "variations as its values");
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [
                  { "path": "/llm", "values": [[{ "retry": {} }]] },
                  { "path": "/llm/1/retry/max_attempts", "values": [2] } ] }])")),
            "/variants/0/grid/1/path: \"/llm/1/retry/max_attempts\" overlaps \"/llm\" (/variants/0/grid/0/path): "
            "one axis would overwrite what the other writes; sweep the outer value's variations as its values");
  // A shared prefix of characters is not overlap: /llm/1 is not inside /llm/10.
  const SweepLoadResult r = load(sweep(R"([{ "name": "g", "grid": [
                  { "path": "/web_search/2/retry/max_attempts", "values": [2] },
                  { "path": "/web_search/2/retry/max_attempts_x", "values": [2] } ] }])"));
  ASSERT_EQ(r.errors.size(), 1U);  // the unknown key's, not overlap
  EXPECT_NE(r.errors[0].message.find("unknown key \"max_attempts_x\""), std::string::npos) << r.errors[0].message;
}

TEST(SweepSpecRulesTest, AValueInvalidWithThePolicyAsWrittenIsValidWithAnotherAxis) {
  // 40s alone is above the retry's max_delay as written (its default, 30s); with the
  // max_delay axis's 60s, it is not.
  const SweepLoadResult r = load(sweep(R"([{ "name": "g", "grid": [
                  { "path": "/web_search/2/retry/base_delay", "values": ["40s"] },
                  { "path": "/web_search/2/retry/max_delay", "values": ["60s"] } ] }])"));
  ASSERT_TRUE(r.ok()) << to_string(r.errors.front());
  EXPECT_EQ(r.spec->variants[0].name, "g[base_delay=\"40s\",max_delay=\"60s\"]");
}

TEST(SweepSpecRulesTest, AValueBlamedAloneShowsItsFirstCombinationsError) {
  // 40s fails with both max_delay values (and alone): blamed at the value, with the error
  // of its first combination, which names an axis value, not the file's max_delay.
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [
                  { "path": "/web_search/2/retry/base_delay", "values": ["40s", "1s"] },
                  { "path": "/web_search/2/retry/max_delay", "values": ["5s", "20s"] } ] }])")),
            "/variants/0/grid/0/values/0: makes an invalid policy: /web_search/2/retry/max_delay: expected a duration "
            ">= base_delay (40s), got \"5s\"");
}

TEST(SweepSpecRulesTest, GridValuesAreComparedAsValues) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry",
                  "values": [{ "max_attempts": 2, "base_delay": "1s" }, { "base_delay": "1s", "max_attempts": 2 }] } ] }])")),
            "/variants/0/grid/0/values/1: duplicate value {\"base_delay\":\"1s\",\"max_attempts\":2} (also "
            "/variants/0/grid/0/values/0)");
}

TEST(SweepSpecRulesTest, GridPathEndsInAKey) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/", "values": [2] } ] }])")),
            "/variants/0/grid/0/path: expected a JSON Pointer such as \"/llm/1/retry/max_attempts\", got "
            "\"/llm/1/retry/\"");
}

TEST(SweepSpecRulesTest, ManyInvalidCombinationsAreListedUpToTen) {
  // 6 base delays x 3 max delays below them fail; each value has a valid combination (with
  // 100s), so none is blamed alone.
  const SweepLoadResult r = load(sweep(R"([{ "name": "g", "grid": [
                  { "path": "/web_search/2/retry/base_delay", "values": ["11s", "12s", "13s", "14s", "15s", "16s"] },
                  { "path": "/web_search/2/retry/max_delay", "values": ["1s", "2s", "3s", "100s"] } ] }])"));
  ASSERT_EQ(r.errors.size(), 11U);
  EXPECT_EQ(to_string(r.errors[0]).substr(to_string(r.errors[0]).find("/variants")),
            "/variants/0/grid: [base_delay=\"11s\",max_delay=\"1s\"] makes an invalid policy: "
            "/web_search/2/retry/max_delay: expected a duration >= base_delay (11s), got \"1s\"");
  EXPECT_EQ(r.errors[10].path, "/variants/0/grid");
  EXPECT_EQ(r.errors[10].message, "and 8 more combinations make invalid policies");
}

// The hostile pass: wrong types and out-of-range values at every level, each one error at
// its pointer with what was expected and what was found.
TEST(SweepSpecRulesTest, SeedsAboveTheBound) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])", R"("seeds": 20000)")),
            "/seeds: expected an integer in [1, 10000], got 20000");
}

TEST(SweepSpecRulesTest, SeedsOfTheWrongType) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])", R"("seeds": "ten")")),
            "/seeds: expected an integer in [1, 10000], got \"ten\"");
}

TEST(SweepSpecRulesTest, FirstSeedIsUnsigned) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "a" }])", R"("seeds": 3, "first_seed": -1)")),
            "/first_seed: expected an integer in [0, 18446744073709551615], got -1");
}

TEST(SweepSpecRulesTest, VariantsIsAnArray) {
  EXPECT_EQ(error_of(sweep(R"({ "name": "a" })")), "/variants: expected a non-empty array, got {\"name\":\"a\"}");
}

TEST(SweepSpecRulesTest, GridIsAnArray) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": { "path": "/llm" } }])")),
            "/variants/0/grid: expected a non-empty array, got {\"path\":\"/llm\"}");
}

TEST(SweepSpecRulesTest, GridPathEscapesAreRfc6901s) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/~2", "values": [2] } ] }])")),
            "/variants/0/grid/0/path: expected a JSON Pointer such as \"/llm/1/retry/max_attempts\", got \"/llm/~2\"");
}

TEST(SweepSpecRulesTest, GridPathBelowAScalar) {
  EXPECT_EQ(
      error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts/x", "values": [2] } ] }])")),
      "/variants/0/grid/0/path: the policy has no object at \"/llm/1/retry/max_attempts\" to hold \"x\"");
}

TEST(SweepSpecRulesTest, GridPathToAnItemOfAnArray) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [ { "path": "/llm/1", "values": [{ "retry": {} }] } ] }])")),
            "/variants/0/grid/0/path: \"/llm\" is an array in the policy: a grid path ends in a key of an object "
            "(\"/llm/1/retry/max_attempts\"), not an item of an array");
}

TEST(SweepSpecRulesTest, TheWholeFileIsAnObject) { EXPECT_EQ(error_of("[1]"), ": expected an object, got [1]"); }

}  // namespace
}  // namespace squall

namespace squall {

// Scenario axes (docs/sweeps.md, "Scenario axes"): a grid path under /scenario/ sets the
// scenario, expanded in the same order as policy axes, each combination's scenario read
// with the loader's rules and carried by its variant.
TEST(SweepScenarioAxisTest, ExpandsWithPolicyAxesInOrderAndCarriesItsScenario) {
  const SweepLoadResult r = load(sweep(R"([
    { "name": "g", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [2, 3] },
                             { "path": "/scenario/providers/llm/faults/0/probability", "values": [0.1, 0.5] } ] },
    { "name": "own" } ])"));
  ASSERT_TRUE(r.ok()) << to_string(r.errors.front());
  std::vector<std::string> names;
  for (const SweepVariant& v : r.spec->variants) names.push_back(v.name);
  EXPECT_EQ(names, (std::vector<std::string>{"g[max_attempts=2,probability=0.1]", "g[max_attempts=2,probability=0.5]",
                                             "g[max_attempts=3,probability=0.1]", "g[max_attempts=3,probability=0.5]",
                                             "own"}));
  const SweepVariant& v = r.spec->variants[3];
  EXPECT_EQ(v.params,
            (std::vector<std::pair<std::string, std::string>>{
                {"/llm/1/retry/max_attempts", "3"}, {"/scenario/providers/llm/faults/0/probability", "0.5"}}));
  ASSERT_NE(v.scenario, nullptr);
  EXPECT_EQ(v.scenario->providers.size(), r.spec->scenario.providers.size());
  EXPECT_EQ(std::get<RetryConfig>(v.policy.at("llm")[1]).max_attempts, 3);
  EXPECT_EQ(r.spec->variants[4].scenario, nullptr);  // the spec's scenario
}

TEST(SweepScenarioAxisTest, PathRules) {
  const auto grid = [](const std::string& path, const std::string& values) {
    return sweep(R"([{ "name": "g", "grid": [ { "path": ")" + path + R"(", "values": )" + values + " } ] }]");
  };
  EXPECT_EQ(
      error_of(grid("/scenario/providers/llm/faults/3/probability", "[0.1]")),
      R"(/variants/0/grid/0/path: the scenario has no object at "/providers/llm/faults/3" to hold "probability")");
  EXPECT_EQ(
      error_of(grid("/scenario", "[0.1]")),
      R"(/variants/0/grid/0/path: expected a JSON Pointer such as "/scenario/providers/llm/faults/0/probability", got "/scenario")");
  EXPECT_EQ(
      error_of(grid("/scenario/policy/llm/1/retry/max_attempts", "[2]")),
      R"(/variants/0/grid/0/path: "/scenario/policy/llm/1/retry/max_attempts" is in the scenario's policy block, )"
      R"(which is the variant's policy: write "/llm/1/retry/max_attempts")");
  EXPECT_EQ(
      error_of(grid("/scenario/thresholds/task_success", R"([["rate>=0.94"]])")),
      R"(/variants/0/grid/0/path: "/scenario/thresholds/task_success" is in the scenario's thresholds, which are )"
      R"(the sweep's constraints for every variant: change them in the scenario file, or loosen )"
      R"(`decision.feasible_pass_rate`)");
  EXPECT_EQ(
      error_of(grid("/scenario/providers/llm/faults/0", "[{}]")),
      R"(/variants/0/grid/0/path: "/providers/llm/faults" is an array in the scenario: a grid path ends in a key )"
      R"(of an object ("/scenario/providers/llm/faults/0/probability"), not an item of an array)");
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [
    { "path": "/scenario/providers/llm", "values": [{}] },
    { "path": "/scenario/providers/llm/faults", "values": [[]] } ] }])")),
            R"(/variants/0/grid/1/path: "/scenario/providers/llm/faults" overlaps "/scenario/providers/llm" )"
            R"((/variants/0/grid/0/path): one axis would overwrite what the other writes; sweep the outer value's )"
            R"(variations as its values)");
}

TEST(SweepScenarioAxisTest, ValuesTheScenarioLoaderRejectsAreReportedAtTheValue) {
  EXPECT_EQ(error_of(sweep(R"([{ "name": "g", "grid": [
    { "path": "/scenario/providers/llm/faults/0/probability", "values": [0.1, 1.5] } ] }])")),
            "/variants/0/grid/0/values/1: makes an invalid scenario: /providers/llm/faults/0/probability: expected a "
            "number in [0, 1], got 1.5");
  // Values valid alone but not together: the combination, at the grid.
  EXPECT_EQ(
      error_of(sweep(R"([{ "name": "g", "grid": [
    { "path": "/scenario/providers/llm/faults/0/kind", "values": ["rate_limited", "server_error"] },
    { "path": "/scenario/providers/llm/faults/0/retry_after", "values": ["1s"] } ] }])")),
      R"(/variants/0/grid: [kind="server_error",retry_after="1s"] makes an invalid scenario: )"
      R"(/providers/llm/faults/0/retry_after: applies only to kind "rate_limited" and "overloaded", not "server_error")");
}

}  // namespace squall
