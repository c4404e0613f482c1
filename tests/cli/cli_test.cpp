// The squall command as users and CI see it: exit codes, what is printed first and last,
// and that bad input writes nothing.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
// A declaration here, so that `squall(...)` means the helper, not the namespace.
using squall::test_support::squall;
namespace fs = std::filesystem;

constexpr const char* kFlagship = "scenarios/incidents/launch-surge-429-storm.json";
constexpr const char* kNaive = "scenarios/policies/naive-retry.json";

// A scenario file of constant arrivals at `rate` for `duration`, one LLM step per task.
fs::path constant_arrivals(const std::string& name, const std::string& duration, const std::string& rate) {
  const fs::path file = temp_path(name);
  std::ofstream(file) << R"({ "name": "q", "duration": ")" << duration << R"(",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": )"
                      << rate << R"( },
                  "tasks": [ { "name": "t", "steps": [ { "tool": "llm" } ] } ] },
    "providers": { "llm": { "type": "llm", "price_per_mtok": { "input": 1, "output": 1 } } } })";
  return file;
}

TEST(CliTest, ValidateGivesTheExactCountOfConstantArrivals) {
  // 0.25 per second for 10 s: arrivals at 0, 4 and 8 s, the integral 2.5 rounded up.
  const fs::path file = constant_arrivals("quarter-per-second.json", "10s", "0.25");
  const Result r = squall("validate " + file.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, file.string() + ": ok\n  3 tasks expected over 10s\n");
  // One per second for a nanosecond past 3 s: the run starts 4 (at 0, 1, 2 and 3 s), and
  // so must the count, which a tolerance on the integral (3.000000001) rounded to 3.
  const fs::path edge = constant_arrivals("just-past-three-seconds.json", "3.000000001s", "1");
  const Result past = squall("validate " + edge.string());
  EXPECT_EQ(past.out, edge.string() + ": ok\n  4 tasks expected over 3.000000001s\n");
  const fs::path report = temp_path("just-past.json");  // temp_path removes what is there
  const Result run = squall("run -q " + edge.string() + " --out " + report.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(read_file(report).find("\"total\": 4"), std::string::npos);
}

TEST(CliTest, QuickstartPassesAndPrintsTheSeedFirst) {
  const Result r = squall("run scenarios/quickstart.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(first_line(r.out), "squall run quickstart: seed 42");
  EXPECT_NE(r.out.find("task_success"), std::string::npos);
}

TEST(CliTest, SeedOptionOverridesTheScenarioSeed) {
  const Result r = squall("run scenarios/quickstart.json --seed 5");
  EXPECT_EQ(first_line(r.out), "squall run quickstart: seed 5");
}

TEST(CliTest, FlagshipHoldsItsThresholdsWithItsOwnPolicy) {
  const Result r = squall(std::string("run ") + kFlagship);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(CliTest, NaivePolicyFailsTheFlagshipWithAReproLine) {
  const Result r = squall(std::string("run ") + kFlagship + " --policy " + kNaive);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("threshold failed: task_success: rate>=0.83 (observed "), std::string::npos) << r.out;
  // The program as invoked, so the line can be pasted as it is.
  EXPECT_EQ(last_line(r.out),
            std::string("repro: ") + SQUALL_BINARY + " run " + kFlagship + " --seed 7 --policy " + kNaive);
}

TEST(CliTest, OutWritesTheJsonReportAndIsByteIdenticalAcrossRuns) {
  const fs::path a = temp_path("a.json");
  const fs::path b = temp_path("b.json");
  EXPECT_EQ(squall("run scenarios/quickstart.json --out " + a.string()).exit_code, 0);
  EXPECT_EQ(squall("run scenarios/quickstart.json --out " + b.string()).exit_code, 0);
  const std::string text = read_file(a);
  EXPECT_EQ(text, read_file(b));
  const auto json = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (const auto& item : json.items()) keys.push_back(item.key());
  // The report's headline keys come in this order (others may sit between them), so a
  // reader of the JSON finds them where the format reference puts them.
  std::size_t at = 0;
  for (const char* key :
       {"squall_report_version", "scenario", "seed", "fingerprint", "tasks", "latency_ms", "providers",
        "retry_amplification", "tokens", "cost_usd", "breaker_transitions", "injected_faults", "thresholds"}) {
    const auto it = std::find(keys.begin() + static_cast<std::ptrdiff_t>(at), keys.end(), key);
    ASSERT_NE(it, keys.end()) << key << " missing or out of order";
    at = static_cast<std::size_t>(it - keys.begin());
  }
  EXPECT_EQ(keys.front(), "squall_report_version");
}

TEST(CliTest, BadScenarioExitsTwoNamingFileAndPathAndWritesNothing) {
  const fs::path bad = temp_path("bad.json");
  std::ofstream(bad) << R"({ "name": "bad", "duration": 15, "workload": {}, "providers": {} })";
  const fs::path out = temp_path("never.json");
  const Result r = squall("run " + bad.string() + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(bad.string() + ": /duration: expected a duration string such as \"250ms\", got 15"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliTest, MissingScenarioExitsTwo) {
  const Result r = squall("run does/not/exist.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("does/not/exist.json"), std::string::npos) << r.err;
}

TEST(CliTest, UnknownOptionAndMissingSubcommandExitTwo) {
  EXPECT_EQ(squall("run scenarios/quickstart.json --frobnicate").exit_code, 2);
  EXPECT_EQ(squall("").exit_code, 2);
  EXPECT_EQ(squall("run scenarios/quickstart.json --seed banana").exit_code, 2);
}

TEST(CliTest, BadPolicyFileExitsTwo) {
  const fs::path policy = temp_path("policy.json");
  std::ofstream(policy) << R"({ "nosuchtool": [ { "retry": { "max_attempts": 0 } } ] })";
  const Result r = squall("run scenarios/quickstart.json --policy " + policy.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(policy.string()), std::string::npos) << r.err;
}

TEST(CliTest, UnwritableOutExitsTwoAndLeavesNoFile) {
  const Result r = squall("run scenarios/quickstart.json --out /nonexistent-dir/report.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("directory \"/nonexistent-dir\" does not exist"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << "refused before the run";
  EXPECT_FALSE(fs::exists("/nonexistent-dir/report.json"));
}

TEST(CliTest, TooManyTasksInFlightStopTheRunWithExitTwoAndNoReport) {
  // The flagship keeps a few tasks in flight at a time; a limit of 1 is exceeded early.
  const fs::path out = temp_path("in-flight.json");
  const Result r = squall(std::string("run ") + kFlagship + " --max-in-flight 1 --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("squall: run stopped, no report written: at "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("more than 1 tasks were in flight (the limit) while tasks arrived at "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("for this workload (--max-in-flight sets the limit)\n"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(squall(std::string("run ") + kFlagship + " --max-in-flight 0").exit_code, 2);
}

TEST(CliTest, ALoopThatNeverWaitsStopsTheRunWithExitTwoAndNoReport) {
  // Three nested retries of 1000 attempts, no delay, against failures that take no time:
  // 10^9 attempts at 0 s. The stall limit stops it as a verdict on the scenario (exit 2,
  // no report), not as an internal error (exit 70).
  const fs::path file = temp_path("never-waits.json");
  std::ofstream(file) << R"({ "name": "never-waits", "duration": "2s",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 1 },
                  "tasks": [ { "name": "ask", "steps": [ { "tool": "llm" } ] } ] },
    "providers": { "llm": { "type": "llm", "faults": [ { "kind": "server_error", "probability": 1,
                                                         "latency": { "distribution": "constant", "value": "0s" } } ] } },
    "policy": { "llm": [ { "retry": { "max_attempts": 1000, "base_delay": "0s", "backoff": "constant", "jitter": "none" } },
                         { "retry": { "max_attempts": 1000, "base_delay": "0s", "backoff": "constant", "jitter": "none" } },
                         { "retry": { "max_attempts": 1000, "base_delay": "0s", "backoff": "constant", "jitter": "none" } } ] } })";
  const fs::path out = temp_path("never-waits-report.json");
  const Result r = squall("run " + file.string() + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("squall: run stopped, no report written: virtual time stopped advancing at 0s: 10000000 events "
                       "in a row at that instant, the last scheduled by a task of template \"ask\""),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("--max-in-flight"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliTest, SeedMustBeADecimalUint64) {
  // CLI11 alone would wrap "-1" to 2^64-1 and read "010" as octal.
  EXPECT_EQ(squall("run scenarios/quickstart.json --seed -1").exit_code, 2);
  EXPECT_EQ(squall("run scenarios/quickstart.json --seed 18446744073709551616").exit_code, 2);
  EXPECT_EQ(squall("run scenarios/quickstart.json --seed 0x10").exit_code, 2);
  EXPECT_EQ(first_line(squall("run scenarios/quickstart.json --seed 010").out), "squall run quickstart: seed 10");
  EXPECT_EQ(first_line(squall("run scenarios/quickstart.json --seed 18446744073709551615").out),
            "squall run quickstart: seed 18446744073709551615");
}

TEST(CliTest, CountOptionsAreDecimalIntegersInTheirRange) {
  // CLI11's range check said "Value 1.5 not in range 1 to 1000000000" for a non-integer.
  Result r = squall("run scenarios/quickstart.json --max-in-flight 1.5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.err), "--max-in-flight: expected an integer in [1, 1000000000], got \"1.5\"");
  r = squall("ci -j abc scenarios/ci");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.err), "--jobs: expected an integer in [1, 1024], got \"abc\"");
  r = squall("sweep -j 0 scenarios/sweeps/launch-surge-policies.json --dry-run");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(first_line(r.err), "--jobs: expected an integer in [1, 1024], got \"0\"");
  EXPECT_EQ(squall("run -q scenarios/quickstart.json --max-in-flight 1000").exit_code, 0);
}

TEST(CliTest, OutRefusesDevicesDirectoriesAndInputs) {
  // Renaming the report onto /dev/null would replace the device with a regular file.
  Result r = squall("run scenarios/quickstart.json --out /dev/null");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\"/dev/null\" is in /dev or /proc (or links there)"), std::string::npos) << r.err;
  // /dev/stdout is /proc/self/fd/1: renaming onto it would replace the CI log stdout goes to.
  const fs::path log = temp_path("ci.log");
  std::ofstream(log) << "PREVIOUS\n";
  r = squall("run scenarios/quickstart.json --report json=/dev/stdout >> " + log.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\"/dev/stdout\" is in /dev or /proc"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(log), "PREVIOUS\n");
  EXPECT_EQ(squall("run scenarios/quickstart.json --out " + fs::temp_directory_path().string()).exit_code, 2);
  // An empty path is refused before the run, not after it.
  r = squall("run scenarios/quickstart.json --out ''");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot write the json report (--out ): the path is empty"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("scenario:"), std::string::npos) << r.out;

  const fs::path copy = temp_path("scenario-copy.json");
  fs::copy_file(fs::path(SQUALL_SOURCE_DIR) / "tests/sim/data/minimal.json", copy);
  const std::string before = read_file(copy);
  r = squall("run " + copy.string() + " --out " + copy.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is an input of this run"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(copy), before);
  // The corpus is an input too.
  EXPECT_EQ(squall("run scenarios/quickstart.json --out scenarios/corpora/crm.jsonl").exit_code, 2);
}

TEST(CliTest, OutFollowsASymbolicLink) {
  const fs::path target = temp_path("real-report.json");
  const fs::path link = temp_path("link-report.json");
  fs::create_symlink(target, link);
  EXPECT_EQ(squall("run scenarios/quickstart.json --out " + link.string()).exit_code, 0);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::is_regular_file(target));
}

TEST(CliTest, ReproLineIsShellQuoted) {
  const fs::path dir = fs::temp_directory_path() / "squall_cli_test" / "sp ace";
  fs::create_directories(dir);
  const fs::path scenario = dir / "it's.json";
  fs::remove(scenario);
  // A copy of the naive-policy run's inputs, in a path that needs quoting.
  std::ofstream(scenario) << R"({ "name": "q", "duration": "10s",
    "workload": { "tasks": [ { "name": "t", "steps": [ { "tool": "llm" } ] } ] },
    "providers": { "llm": { "type": "llm" } },
    "thresholds": { "task_success": [ "rate>1" ] } })";
  const Result r = squall("run '" + dir.string() + "/it'\\''s.json'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(last_line(r.out),
            std::string("repro: ") + SQUALL_BINARY + " run '" + dir.string() + "/it'\\''s.json' --seed 1");
}

TEST(CliTest, ValidateReportsEveryShippedScenarioValid) {
  const Result r =
      squall(std::string("validate scenarios/quickstart.json ") + kFlagship + " bench/scenarios/retry-breaker-1m.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The flagship: 2 per second for 15 min plus bursts (the run gives 2800, Poisson).
  EXPECT_NE(r.out.find(std::string(kFlagship) + ": ok\n  about 2760 tasks expected over 15m\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

TEST(CliTest, ValidateChecksASweepFileAsASweep) {
  // A sweep file (it has "variants") is checked by the sweep's rules, not reported as a
  // scenario with unknown keys.
  Result r = squall("validate scenarios/sweeps/launch-surge-policies.json scenarios/quickstart.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "scenarios/sweeps/launch-surge-policies.json: ok\n  a sweep: 5 variants x 10 seeds, 50 runs\n"
            "scenarios/quickstart.json: ok\n  about 120 tasks expected over 2m\n");
  const fs::path bad = temp_path("bad-sweep.json");
  std::ofstream(bad) << R"({ "name": "x", "scenario": ")" << SQUALL_SOURCE_DIR
                     << R"(/scenarios/quickstart.json", "variants": [], "seeds": 3 })";
  r = squall("validate " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, bad.string() + ": /variants: expected a non-empty array, got []\n");
  // A sweep missing "variants" is still a sweep, told what it lacks (it was checked as a
  // scenario: seven wrong errors, none about variants).
  const fs::path no_variants = temp_path("sweep-without-variants.json");
  std::ofstream(no_variants) << R"({ "name": "x", "scenario": ")" << SQUALL_SOURCE_DIR
                             << R"(/scenarios/quickstart.json", "seeds": 3 })";
  r = squall("validate " + no_variants.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, no_variants.string() + ": missing required key \"variants\"\n");
  // A scenario with a stray "variants" is a scenario with an unknown key, as run says.
  const fs::path stray = temp_path("stray-variants.json");
  std::string text = read_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/quickstart.json");
  text.insert(text.rfind('}'), R"(, "variants": [])");
  std::ofstream(stray) << text;
  r = squall("validate " + stray.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(stray.string() + ": /variants: unknown key \"variants\""), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("unknown key \"seed\""), std::string::npos) << r.err;
}

TEST(CliTest, AGroundTruthLinkInNoCorpusIsRefusedByValidateAndRun) {
  // Every answer to such a query would be judged wrong, silently.
  const fs::path file = temp_path("bad-truth.json");
  std::string text = read_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/ci/vector-threshold-relaxation.json");
  const std::string good = "https://help.acmecorp.example/articles/reset-password";
  text.replace(text.find(good), good.size(), "https://help.acmecorp.example/articles/no-such-article");
  // The corpus path is relative to the scenario's directory.
  const std::string corpus = "\"../corpora/kb.jsonl\"";
  text.replace(text.find(corpus), corpus.size(),
               "\"" + std::string(SQUALL_SOURCE_DIR) + "/scenarios/corpora/kb.jsonl\"");
  std::ofstream(file) << text;
  const std::string expected = file.string() +
                               ": /workload/queries/questions/0/relevant: expected links of documents in the search "
                               "providers' corpora, got \"https://help.acmecorp.example/articles/no-such-article\"";
  const Result validate = squall("validate " + file.string());
  EXPECT_EQ(validate.exit_code, 2);
  EXPECT_NE(validate.err.find(expected), std::string::npos) << validate.err;
  EXPECT_EQ(validate.out.find(": ok"), std::string::npos) << validate.out;
  const Result run = squall("run " + file.string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(expected), std::string::npos) << run.err;
}

TEST(CliTest, ValidateWarnsAboveTenMillionExpectedTasks) {
  const fs::path file = temp_path("ten-million.json");
  std::ofstream(file) << R"({ "name": "big", "duration": "2h",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 2000 },
                  "tasks": [ { "name": "t", "steps": [ { "tool": "llm" } ] } ] },
    "providers": { "llm": { "type": "llm", "price_per_mtok": { "input": 1, "output": 1 } } } })";
  const Result r = squall("validate " + file.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Above the bound the count is not run out arrival by arrival: the integral, "about".
  EXPECT_NE(r.out.find("  about 14400000 tasks expected over 2h"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("warning: " + file.string() + ": about 14400000 tasks, above 10000000"), std::string::npos)
      << r.err;
}

TEST(CliTest, ValidateWarnsForAnOutputCapThatCutsMoreThanOnePercentOfAnswers) {
  // mean 300: a cap of 500 cuts e^(-500.5/300) = 18.9% (warned); 1400 cuts 0.94% (not);
  // a provider's own cap of 1000 cuts 3.6%, for the step that sets none (warned there).
  const fs::path file = temp_path("truncating.json");
  std::ofstream(file) << R"({ "name": "caps", "duration": "1m",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 1 },
                  "tasks": [ { "name": "t", "steps": [ { "tool": "gpt", "max_output_tokens": 500 },
                                                       { "tool": "gpt", "max_output_tokens": 1400 },
                                                       { "tool": "mini" } ] } ] },
    "providers": { "gpt": { "type": "llm" },
                   "mini": { "type": "llm", "max_output_tokens": 1000 } } })";
  const Result r = squall("validate " + file.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "warning: " + file.string() +
                       ": /workload/tasks/0/steps/0/max_output_tokens: a cap of 500 cuts 18.9% of the answers of "
                       "provider \"gpt\" (mean_output_tokens 300); answers stop at finish_reason length\n"
                       "warning: " +
                       file.string() +
                       ": /providers/mini/max_output_tokens: a cap of 1000 cuts 3.6% of the answers of provider "
                       "\"mini\" (mean_output_tokens 300); answers stop at finish_reason length\n");
}

TEST(CliTest, EveryShippedCiAndIncidentScenarioHoldsItsThresholds) {
  // What users do in CI: `squall run scenarios/ci/*.json`. A shipped scenario whose own
  // policy breaks its own thresholds is a broken example.
  std::size_t ran = 0;
  for (const char* dir : {"scenarios/ci", "scenarios/incidents", "scenarios/examples", "bench/scenarios"}) {
    for (const auto& entry : fs::directory_iterator(fs::path(SQUALL_SOURCE_DIR) / dir)) {
      if (entry.path().extension() != ".json" && entry.path().extension() != ".yaml") continue;
      const fs::path name = entry.path().filename();
      // Benchmarks of 1M tasks (`squall run` holds their thresholds, bench/README.md).
      if (name == "retry-breaker-1m.json" || name == "retry-1m.json" || name == "capacity-bound-1m.json") continue;
      const std::string relative = fs::relative(entry.path(), SQUALL_SOURCE_DIR).string();
      const Result r = squall("run " + relative);
      EXPECT_EQ(r.exit_code, 0) << relative << "\n" << r.out << r.err;
      ++ran;
    }
  }
  EXPECT_GE(ran, 3U);
}

TEST(CliTest, TheShippedBadPoliciesFailTheirScenarios) {
  // Each shipped bad policy names the scenario it fails in its header, and the threshold
  // that says how; a bad policy that passed would show nothing.
  struct Case {
    std::string scenario, policy, fails;
  };
  for (const Case& c :
       {Case{"scenarios/ci/llm-quota-exhausted-fallback.json", "scenarios/policies/quota-as-rate-limit.json",
             "task_success"},
        Case{"scenarios/incidents/openai-outage-model-fallback.json", "scenarios/policies/no-fallback.json",
             "task_success"},
        Case{"scenarios/incidents/adaptive-limit-collapse.json", "scenarios/policies/limit-per-error-decrease.json",
             "task_latency"},
        Case{"scenarios/incidents/adaptive-limit-frozen-by-retry-after.json",
             "scenarios/policies/limit-cooldown-from-retry-after.json", "task_success"},
        Case{"scenarios/incidents/quota-group-walk.json", "scenarios/policies/fallback-without-cooldown.json",
             "provider_calls{provider:gpt-4o,outcome:success}"}}) {
    const Result r = squall("run " + c.scenario + " --policy " + c.policy);
    EXPECT_EQ(r.exit_code, 1) << c.scenario << " " << c.policy << "\n" << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("threshold failed: " + c.fails), std::string::npos) << r.out << r.err;
  }
}

TEST(CliTest, ValidateChecksPolicyFiles) {
  EXPECT_EQ(squall(std::string("validate --policy ") + kNaive).exit_code, 0);
  const fs::path bad = temp_path("bad-policy.json");
  std::ofstream(bad) << R"({ "web_search": [ { "retry": { "max_attempts": 0 } } ] })";
  const Result r = squall("validate scenarios/quickstart.json --policy " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("scenarios/quickstart.json: ok"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find(bad.string() + ": /web_search/0/retry/max_attempts: "), std::string::npos) << r.err;
  EXPECT_EQ(squall("validate").exit_code, 2);
}

TEST(CliTest, ValidateAndRunSkipAToolTheScenarioLacksWithANote) {
  // A policy file is written for many scenarios: "pinecone" is not one of this one's.
  const fs::path policy = temp_path("unknown-tool.policy.json");
  std::ofstream(policy) << R"({ "llm": [ { "retry": { "max_attempts": 2 } } ], "pinecone": [ { "retry": {} } ] })";
  const std::string note =
      policy.string() + ": skipped \"pinecone\": the scenario has no tool or provider of that name";
  const Result validate = squall("validate tests/sim/data/minimal.json --policy " + policy.string());
  EXPECT_EQ(validate.exit_code, 0) << validate.err;
  EXPECT_EQ(validate.out,
            "tests/sim/data/minimal.json: ok\n  about 60 tasks expected over 1m\n" + policy.string() + ": ok\n");
  EXPECT_EQ(validate.err, "note: " + note + " (with tests/sim/data/minimal.json)\n");
  const Result run = squall("run tests/sim/data/minimal.json --policy " + policy.string());
  EXPECT_NE(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("squall: note: " + note + "\n"), std::string::npos) << run.err;
}

TEST(CliTest, AToolThePolicyDoesNotNameKeepsTheScenariosOwnEntry) {
  const fs::path policy = temp_path("omits-a-tool.policy.json");
  std::ofstream(policy) << R"({ "llm": [ { "retry": { "max_attempts": 5 } } ] })";
  const Result run = squall(std::string("run ") + kFlagship + " --policy " + policy.string());
  EXPECT_NE(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("squall: note: " + policy.string() +
                         ": \"web_search\" not named in it: the scenario's own policy kept\n"),
            std::string::npos)
      << run.err;
}

TEST(CliTest, APolicyNamingNoToolOfTheScenarioIsAnError) {
  const fs::path policy = temp_path("other-scenario.policy.json");
  std::ofstream(policy) << R"({ "pinecone": [ { "retry": {} } ] })";
  const std::string expected = policy.string() + ": names no tool of the scenario (its tools are \"llm\")\n";
  const Result validate = squall("validate tests/sim/data/minimal.json --policy " + policy.string());
  EXPECT_EQ(validate.exit_code, 2);
  EXPECT_EQ(validate.err, expected);
  const Result run = squall("run tests/sim/data/minimal.json --policy " + policy.string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, expected);
  EXPECT_TRUE(run.out.empty()) << run.out;
}

TEST(CliTest, ValidateNamesTheScenariosAPolicyErrorWasFoundWith) {
  // With several scenarios, an error of the policy says which of them it does not fit; a
  // scenario it names no tool of keeps its own policy, as in `ci`, with a note.
  const Result r = squall(std::string("validate scenarios/quickstart.json ") + kFlagship +
                          " scenarios/incidents/internal-api-retry-storm.json --policy " + kNaive);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: " + std::string(kNaive) +
                       ": names no tool of the scenario (its tools are \"internal_api\"): the scenario's own policy "
                       "kept (with scenarios/incidents/internal-api-retry-storm.json)\n"),
            std::string::npos)
      << r.err;
  const fs::path policy = temp_path("simplify-answer.json");
  std::ofstream(policy) << R"({"answer": [{"simplify_query": {}}], "llm": []})";
  const Result bad =
      squall("validate scenarios/quickstart.json scenarios/ci/llm-capacity-429s.json --policy " + policy.string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(policy.string() +
                         ": /answer/0/simplify_query: simplify_query applies only to web_search providers; \"answer\" "
                         "is an llm provider (with scenarios/ci/llm-capacity-429s.json)\n"),
            std::string::npos)
      << bad.err;
  const fs::path none = temp_path("pinecone-only.json");
  std::ofstream(none) << R"({"pinecone": []})";
  const Result nothing =
      squall("validate scenarios/quickstart.json scenarios/ci/llm-capacity-429s.json --policy " + none.string());
  EXPECT_EQ(nothing.exit_code, 2);
  EXPECT_NE(nothing.err.find(none.string() + ": names no tool of any scenario given\n"), std::string::npos)
      << nothing.err;
}

TEST(CliTest, ShippedPoliciesNameEveryToolOfTheFlagship) {
  const Result r = squall(std::string("validate ") + kFlagship + " --policy " + kNaive);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CliTest, ValidateExitsTwoOnABadFile) {
  const fs::path bad = temp_path("bad2.json");
  std::ofstream(bad) << R"({ "name": "x", "duration": "1m", "retries": 3 })";
  const Result r = squall("validate " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown key \"retries\""), std::string::npos) << r.err;
}

}  // namespace

namespace {

using squall::test_support::squall;
namespace fs = std::filesystem;

TEST(CliTest, UpperCaseYamlExtensionsAreReadAsYaml) {
  // The shipped YAML example under upper- and mixed-case names runs as its .yaml does (a
  // JSON reader would stop at its first letter).
  std::string yaml =
      squall::test_support::read_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/examples/search-429s.yaml");
  // The copies live in the tests' temporary directory: the corpus path made absolute.
  const std::size_t at = yaml.find("../corpora/");
  ASSERT_NE(at, std::string::npos);
  yaml.replace(at, 3, std::string(SQUALL_SOURCE_DIR) + "/scenarios/");
  for (const char* name : {"upper.YAML", "mixed.Yml"}) {
    const fs::path file = squall::test_support::temp_path(name);
    std::ofstream(file) << yaml;
    const auto r = squall("validate " + file.string());
    EXPECT_EQ(r.exit_code, 0) << name << "\n" << r.out << r.err;
  }
}

TEST(CliTest, HelpSaysScenarioFilesAreJsonOrYaml) {
  for (const char* command : {"run", "validate", "ci"}) {
    const auto r = squall(std::string(command) + " --help");
    EXPECT_EQ(r.exit_code, 0) << command;
    EXPECT_NE(r.out.find("JSON (comments allowed), or YAML when"), std::string::npos) << command << "\n" << r.out;
    EXPECT_EQ(r.out.find("(JSON, comments allowed)"), std::string::npos) << command << "\n" << r.out;
  }
}

}  // namespace
