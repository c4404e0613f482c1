// `squall replay TRACE --out-dir DIR`: the fitted scenario and as-deployed policy are files
// the real loader accepts and `run`, `ci` and `sweep` run as they are; every fitted number
// carries its provenance; nothing is written when DIR cannot take the files.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::test_support {
namespace {

// The launch-surge incident's OTLP export, made once per test.
fs::path surge_trace() {
  const fs::path otlp = temp_path("surge.otlp.json");
  const Result r = squall("run scenarios/incidents/launch-surge-429-storm.json -q --report otlp=" + otlp.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return otlp;
}

// A one-span OTLP trace, for the tests of --out-dir's own errors.
fs::path tiny_trace() {
  const fs::path file = temp_path("tiny.otlp.json");
  std::ofstream(file) << R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0123456789abcdef0123456789abcdef",)"
                         R"("spanId":"0123456789abcdef","name":"chat gpt-4o","startTimeUnixNano":"1000000000",)"
                         R"("endTimeUnixNano":"2000000000","attributes":[{"key":"gen_ai.provider.name",)"
                         R"("value":{"stringValue":"openai"}}]}]}]}]})";
  return file;
}

const ProviderConfig* provider(const Scenario& s, const std::string& name) {
  for (const ProviderConfig& p : s.providers)
    if (p.name == name) return &p;
  return nullptr;
}

TEST(ReplayOutDirTest, TheFittedFilesLoadAndRunUnderRunCiAndSweep) {
  const fs::path trace = surge_trace();
  const fs::path dir = temp_path("fitted");
  const Result r = squall("replay " + trace.string() + " --out-dir " + dir.string() + " --calibration-seeds 2");
  ASSERT_LE(r.exit_code, 1) << r.err << r.out;  // the calibration's verdict: ReplayRoundTripTest
  EXPECT_NE(r.out.find("wrote " + (dir / "scenario.yaml").string()), std::string::npos) << r.out;

  const LoadResult loaded = load_scenario(dir / "scenario.yaml");
  ASSERT_TRUE(loaded.ok()) << to_string(loaded.errors.front());
  const Scenario& s = *loaded.scenario;
  ASSERT_EQ(s.workload.tasks.size(), 1U);
  EXPECT_EQ(s.workload.tasks[0].name, "account-research");
  ASSERT_EQ(s.workload.tasks[0].steps.size(), 2U);
  EXPECT_EQ(s.workload.tasks[0].steps[0].tool, "web_search");
  EXPECT_EQ(s.workload.tasks[0].steps[1].tool, "llm");
  ASSERT_NE(provider(s, "web_search"), nullptr);
  EXPECT_TRUE(std::holds_alternative<ToolMockConfig>(provider(s, "web_search")->spec));
  const ProviderConfig* llm = provider(s, "llm");
  ASSERT_NE(llm, nullptr);
  int storms = 0;
  for (const FaultConfig& f : llm->faults) {
    if (f.kind != FaultKind::rate_limited) continue;
    ++storms;
    EXPECT_NEAR(static_cast<double>(f.from) / 1e9, 240, 30);
    EXPECT_NEAR(static_cast<double>(f.to) / 1e9, 270, 30);
    EXPECT_GE(f.probability, 0.95);
    EXPECT_EQ(f.retry_after_delay, 20 * kSecond);
  }
  EXPECT_EQ(storms, 1);

  const PolicyLoadResult policy = load_policy_file(dir / "as-deployed.yaml");
  ASSERT_TRUE(policy.ok()) << to_string(policy.errors.front());
  const auto& llm_policy = policy.policy->at("llm");
  ASSERT_FALSE(llm_policy.empty());
  const auto* retry = std::get_if<RetryConfig>(&llm_policy.back());
  ASSERT_NE(retry, nullptr);
  EXPECT_TRUE(retry->honour_retry_after);
  EXPECT_EQ(retry->max_retry_after, 20 * kSecond);
  EXPECT_EQ(retry->max_attempts, 3);

  // Each number with its provenance, beside it and in the report.
  const std::string yaml = read_file(dir / "scenario.yaml");
  EXPECT_NE(yaml.find("retry_after: 20s  # median recorded Retry-After; ["), std::string::npos) << yaml;
  const nlohmann::json report = nlohmann::json::parse(read_file(dir / "calibration.json"));
  bool found = false;
  for (const nlohmann::json& p : report.at("provenance")) {
    if (p.at("file") == "as-deployed.yaml" && p.at("path") == "/llm/0/retry/max_retry_after") {
      found = true;
      EXPECT_EQ(p.at("value"), "20s");
      EXPECT_GE(p.at("samples").get<int>(), 200);
      EXPECT_EQ(p.at("prior"), false);
    }
  }
  EXPECT_TRUE(found) << report.dump(1);

  const std::string files = (dir / "scenario.yaml").string() + " --policy " + (dir / "as-deployed.yaml").string();
  const Result run = squall("run " + files + " -q");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const Result ci = squall("ci " + files + " -q -j 1");
  EXPECT_EQ(ci.exit_code, 0) << ci.err << ci.out;
  const fs::path sweep = dir / "sweep.yaml";
  std::ofstream(sweep) << "name: fitted\nscenario: scenario.yaml\nvariants:\n"
                          "  - {name: as-deployed, policy: as-deployed.yaml}\n"
                          "seeds: 2\n";
  const Result swept = squall("sweep " + sweep.string() + " -q -j 1");
  EXPECT_EQ(swept.exit_code, 0) << swept.err << swept.out;
}

TEST(ReplayOutDirTest, AnOutDirThatIsAFileIsRefusedAndNothingWritten) {
  const fs::path trace = tiny_trace();
  const fs::path file = temp_path("taken");
  std::ofstream(file) << "mine";
  const Result r = squall("replay " + trace.string() + " --out-dir " + file.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall replay: --out-dir " + file.string() + ": \"" + file.string() +
                       "\" exists and is not a directory\n");
  EXPECT_EQ(read_file(file), "mine");
}

TEST(ReplayOutDirTest, AnExistingDirectoryKeepsItsOtherFilesAndGetsTheFitReplaced) {
  const fs::path trace = tiny_trace();
  const fs::path dir = temp_path("existing");
  fs::create_directories(dir);
  std::ofstream(dir / "notes.txt") << "keep";
  std::ofstream(dir / "scenario.yaml") << "stale";
  const Result r = squall("replay " + trace.string() + " --out-dir " + dir.string() + " --calibration-seeds 2");
  ASSERT_LE(r.exit_code, 1) << r.err;
  EXPECT_EQ(read_file(dir / "notes.txt"), "keep");
  EXPECT_TRUE(load_scenario(dir / "scenario.yaml").ok());
}

TEST(ReplayOutDirTest, AMissingParentIsRefused) {
  const fs::path trace = tiny_trace();
  const fs::path dir = temp_path("absent") / "fitted";
  const Result r = squall("replay " + trace.string() + " --out-dir " + dir.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall replay: --out-dir " + dir.string() + ": directory \"" + dir.parent_path().string() +
                       "\" does not exist\n");
  EXPECT_FALSE(fs::exists(dir));
}

}  // namespace
}  // namespace squall::test_support

namespace squall::test_support {
namespace {

// Every shipped incident: run, exported with --report otlp=, replayed with --out-dir and
// calibrated on two seeds (the least that makes a band; CPU kept short). The fitted files
// load, and the exit code, calibration.json and calibration.md tell the same verdict.
class ReplayRoundTripTest : public testing::TestWithParam<std::string> {};

TEST_P(ReplayRoundTripTest, RunExportReplayAndCalibrate) {
  const std::string name = GetParam();
  const fs::path otlp = temp_path(name + ".otlp.json");
  const Result run = squall("run scenarios/incidents/" + name + ".json -q --report otlp=" + otlp.string());
  ASSERT_LE(run.exit_code, 1) << run.err;
  const fs::path dir = temp_path(name + "-fitted");
  const Result r = squall("replay " + otlp.string() + " --out-dir " + dir.string() + " --calibration-seeds 2 -j 2");
  ASSERT_LE(r.exit_code, 1) << r.err << r.out;
  const LoadResult loaded = load_scenario(dir / "scenario.yaml");
  ASSERT_TRUE(loaded.ok()) << to_string(loaded.errors.front());
  ASSERT_TRUE(load_policy_file(dir / "as-deployed.yaml").ok());
  const nlohmann::json report = nlohmann::json::parse(read_file(dir / "calibration.json"));
  const nlohmann::json& calibration = report.at("calibration");
  EXPECT_EQ(calibration.at("seeds"), 2);
  EXPECT_FALSE(calibration.at("windows").empty());
  const bool passed = calibration.at("passed").get<bool>();
  EXPECT_EQ(r.exit_code, passed ? 0 : 1);
  EXPECT_EQ(first_line(read_file(dir / "calibration.md")), passed ? "# Calibration: passed" : "# Calibration: FAILED");
  EXPECT_NE(r.out.find(passed ? "calibration: passed (" : "calibration: FAILED ("), std::string::npos) << r.out;
}

// Every scenarios/incidents/*.json, so that a new incident is in the round trip at once.
std::vector<std::string> incidents() {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(fs::path(SQUALL_SOURCE_DIR) / "scenarios/incidents"))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Incidents, ReplayRoundTripTest, testing::ValuesIn(incidents()),
                         [](const testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace squall::test_support

namespace squall::test_support {
namespace {

// --policy: the new policy on the fitted world with the calibration's seeds, beside the trace
// and the as-deployed runs; a fallback provider the trace never called is declared PRIOR.
TEST(ReplayCounterfactualTest, ANewPolicyRunsOnTheFittedWorldWithPairedIntervals) {
  const fs::path trace = surge_trace();
  const fs::path dir = temp_path("counterfactual");
  const fs::path policy = temp_path("p.json");
  std::ofstream(policy) << R"({"llm": [{"fallback": {"providers": ["claude"]}}, {"retry": {"max_attempts": 2}}]})";
  const Result r = squall("replay " + trace.string() + " --out-dir " + dir.string() + " --calibration-seeds 3 -j 2" +
                          " --policy " + policy.string());
  ASSERT_LE(r.exit_code, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("PRIOR provider \"claude\": named by p.json's fallback for llm; its calls are drawn from the "
                       "loader's defaults, not the trace\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("counterfactual: " + policy.string() +
                       " on the fitted world, seeds 1..3 (common random "
                       "numbers)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("new - as-deployed (paired)"), std::string::npos);
  for (const char* row : {"\ntasks_finished ", "\ntask_success ", "\ntask_latency_p99_ms ", "\nattempts "})
    EXPECT_NE(r.out.find(row), std::string::npos) << row << r.out;
  const LoadResult loaded = load_scenario(dir / "scenario.yaml");
  ASSERT_TRUE(loaded.ok());
  EXPECT_NE(provider(*loaded.scenario, "claude"), nullptr);
  EXPECT_NE(read_file(dir / "scenario.yaml").find("# PRIOR: never called in the trace (named by p.json's fallback"),
            std::string::npos);
}

TEST(ReplayCounterfactualTest, PolicyNeedsAnOutDir) {
  const Result r = squall("replay " + tiny_trace().string() + " --policy scenarios/policies/naive-retry.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall replay: --policy needs --out-dir (the fitted world it runs on)\n");
}

TEST(ReplayOutDirTest, AParentThatIsAFileIsSaidToBeOne) {
  const fs::path trace = tiny_trace();
  const fs::path file = temp_path("a-file");
  std::ofstream(file) << "not a directory";
  const fs::path dir = file / "fitted";
  const Result r = squall("replay " + trace.string() + " --out-dir " + dir.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall replay: --out-dir " + dir.string() + ": \"" + file.string() + "\" is not a directory\n");
}

TEST(ReplayOutDirTest, ABadPolicyOrDirectoryIsRefusedBeforeTheTraceIsRead) {
  const fs::path trace = tiny_trace();
  const fs::path dir = temp_path("never-made");
  const Result policy = squall("replay " + trace.string() + " --out-dir " + dir.string() + " --policy " +
                               temp_path("nope.yaml").string());
  EXPECT_EQ(policy.exit_code, 2);
  EXPECT_EQ(policy.err.rfind("squall replay: --policy: ", 0), 0U) << policy.err;
  EXPECT_EQ(policy.out, "");  // nothing read, nothing fitted
  EXPECT_FALSE(fs::exists(dir));
  const Result parent = squall("replay " + trace.string() + " --out-dir " + (temp_path("absent2") / "x").string());
  EXPECT_EQ(parent.exit_code, 2);
  EXPECT_EQ(parent.out, "");
}

}  // namespace
}  // namespace squall::test_support
