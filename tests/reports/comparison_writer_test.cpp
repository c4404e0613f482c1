// `squall compare --report`: the comparison as JSON and as a Markdown table
// (reports/writers/comparison_writer.hpp).
#include "reports/writers/comparison_writer.hpp"

#include <gtest/gtest.h>

namespace squall {
namespace {

using nlohmann::json;

json report(std::string scenario, std::uint64_t seed) {
  return json{{"squall_report_version", 1},
              {"produced_by", {{"scenario_file", "s.json"}, {"policy_file", nullptr}}},
              {"scenario", std::move(scenario)},
              {"seed", seed}};
}

const std::vector<MetricComparison> kRows{{"tasks.succeeded", 8.0, 4.0}, {"latency_ms.p99", std::nullopt, 3.5}};

TEST(ComparisonWriterTest, JsonHasBothRunsTheWarningsAndEveryRow) {
  const json a = report("incident", 7);
  json b = report("incident", 8);
  b["produced_by"]["policy_file"] = "p|1.json";
  b["produced_by"]["policy_notes"] = {"p|1.json: skipped \"x\": the scenario has no tool or provider of that name"};
  const json j = json::parse(comparison_json({"scenario policy", &a}, {"p|1.json", &b}, kRows, {"seeds differ"}));
  const json expected = json::parse(R"({
    "squall_comparison_version": 1,
    "a": {"label": "scenario policy", "scenario": "incident", "seed": 7, "scenario_file": "s.json", "policy_file": null, "policy_notes": []},
    "b": {"label": "p|1.json", "scenario": "incident", "seed": 8, "scenario_file": "s.json", "policy_file": "p|1.json", "policy_notes": ["p|1.json: skipped \"x\": the scenario has no tool or provider of that name"]},
    "warnings": ["seeds differ"],
    "metrics": [
      {"metric": "tasks.succeeded", "a": 8.0, "b": 4.0, "difference": -4.0, "relative_difference": -0.5},
      {"metric": "latency_ms.p99", "a": null, "b": 3.5, "difference": null, "relative_difference": null}]
  })");
  EXPECT_EQ(j, expected) << j.dump(2);
  // Keys in the documented order (nlohmann::json sorts them when parsing: the text is read).
  const std::string text = comparison_json({"x", &a}, {"y", &a}, kRows, {});
  EXPECT_LT(text.find("squall_comparison_version"), text.find("\"a\""));
  EXPECT_LT(text.find("\"warnings\""), text.find("\"metrics\""));
  EXPECT_EQ(text.back(), '\n');
}

TEST(ComparisonWriterTest, MarkdownIsATableWithEscapedNames) {
  const json a = report("incident", 7);
  const json b = report("other*", 7);
  EXPECT_EQ(comparison_markdown({"scenario policy", &a}, {"p|1.json", &b}, kRows, {"the scenarios differ"}),
            "### squall compare: incident, seed 7 vs other\\*, seed 7\n"
            "\n"
            "A: `scenario policy` · B: `p\\|1.json`\n"
            "\n"
            "> ⚠ the scenarios differ\n"
            "\n"
            "| metric | A | B | B − A | (B − A) / A |\n"
            "|:--|--:|--:|--:|--:|\n"
            "| `tasks.succeeded` | 8 | 4 | -4 | -50.00% |\n"
            "| `latency_ms.p99` | - | 3.5 | - | - |\n");
}

TEST(ComparisonWriterTest, BreakerOpeningsByCauseAreRowsOfBothFormats) {
  json a = report("incident", 7);
  json b = report("incident", 7);
  a["breaker_openings"] =
      json{{"consecutive_failures", 4}, {"failure_rate", 0}, {"slow_call_rate", 0}, {"probe_failed", 2}};
  b["breaker_openings"] =
      json{{"consecutive_failures", 1}, {"failure_rate", 3}, {"slow_call_rate", 0}, {"probe_failed", 2}};
  const std::vector<MetricComparison> rows{{"breaker_openings.consecutive_failures", 4.0, 1.0},
                                           {"breaker_openings.failure_rate", 0.0, 3.0}};
  const std::string md = comparison_markdown({"x", &a}, {"y", &b}, rows, {});
  EXPECT_TRUE(
      md.ends_with("| `breaker_openings.consecutive_failures` | 4 | 1 | -3 | -75.00% |\n"
                   "| `breaker_openings.failure_rate` | 0 | 3 | +3 | - |\n"))
      << md;
  const json j = json::parse(comparison_json({"x", &a}, {"y", &b}, rows, {}));
  EXPECT_EQ(j["metrics"], json::parse(R"([
      {"metric": "breaker_openings.consecutive_failures", "a": 4, "b": 1, "difference": -3, "relative_difference": -0.75},
      {"metric": "breaker_openings.failure_rate", "a": 0, "b": 3, "difference": 3, "relative_difference": null}])"));
}

}  // namespace
}  // namespace squall
