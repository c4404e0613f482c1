// `squall sweep` and `squall merge` as a user runs them: output identical for any --jobs,
// three shards merged identical to the whole sweep, the shipped sweep's clear winner, and
// the usage errors with their exact messages.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/progress.hpp"
#include "cli_support.hpp"
#include "reports/compare.hpp"

namespace squall::test_support {
namespace {

const std::string kSweep = "tests/cli/data/sweep-quickstart.json";
const char* const kFormats[] = {"json", "markdown", "csv", "html"};

// Runs `command` with every report format written to `prefix`.<format>; returns stdout.
Result with_reports(const std::string& command, const std::string& prefix) {
  std::string args = command;
  for (const char* f : kFormats) args += " --report " + std::string(f) + "=" + temp_path(prefix + "." + f).string();
  return squall(args);
}

// A file written earlier in the test (temp_path would remove it).
fs::path written(const std::string& name) { return temp_dir() / name; }

void expect_same_reports(const std::string& a, const std::string& b) {
  for (const char* f : kFormats) {
    const std::string x = read_file(written(a + "." + f));
    EXPECT_FALSE(x.empty()) << f;
    EXPECT_EQ(x, read_file(written(b + "." + f))) << f;
  }
}

}  // namespace

TEST(SweepCommandTest, OutputIsTheSameForOneAndTwoJobs) {
  const Result one = with_reports("sweep " + kSweep + " --jobs 1", "jobs1");
  const Result two = with_reports("sweep " + kSweep + " --jobs 2", "jobs2");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_NE(one.out.find("squall sweep quickstart-policies: scenario quickstart, 4 variants x 6 seeds (100..105), "
                         "baseline own"),
            std::string::npos)
      << one.out;
  // The lines naming the report files differ; the table does not.
  EXPECT_EQ(one.out.substr(0, one.out.find("json report written")),
            two.out.substr(0, two.out.find("json report written")));
  expect_same_reports("jobs1", "jobs2");
}

TEST(SweepCommandTest, ThreeShardsMergedAreTheWholeSweep) {
  const Result whole = with_reports("sweep " + kSweep + " --jobs 2", "whole");
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  std::string partials;
  for (int i = 1; i <= 3; ++i) {
    const std::string out = temp_path("part" + std::to_string(i) + ".json").string();
    const Result r = squall("sweep " + kSweep + " --jobs 1 --shard " + std::to_string(i) + "/3 --out " + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "squall sweep quickstart-policies: shard " + std::to_string(i) +
                         "/3: 8 runs; partial result "
                         "written to " +
                         out + "\n");
    partials = out + " " + partials;  // merged in reverse order: the order does not matter
  }
  const Result merged = with_reports("merge " + partials, "merged");
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(whole.out.substr(0, whole.out.find("json report written")),
            merged.out.substr(0, merged.out.find("json report written")));
  expect_same_reports("whole", "merged");
}

TEST(SweepCommandTest, ASweepFileNamedWithBytesThatAreNotUtf8IsWrittenAndMerged) {
  // Paths are bytes: the name goes into the JSON with U+FFFD for the bad byte, as a run's
  // report does, instead of failing the write after every run.
  const std::string file = temp_path("s\xff.json").string();
  std::ofstream(file) << R"({ "name": "bytes", "scenario": ")" << SQUALL_SOURCE_DIR
                      << R"(/scenarios/quickstart.json", "seeds": 2, "variants": [ { "name": "own" } ] })";
  const std::string whole = temp_path("bytes-whole.json").string();
  const std::string part = temp_path("bytes-part.json").string();
  const std::string merged = temp_path("bytes-merged.json").string();
  Result r = squall("sweep '" + file + "' -q --out " + whole);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = squall("sweep '" + file + "' -q --shard 1/1 --out " + part);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = squall("merge " + part + " -q --out " + merged);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(whole), read_file(merged));
  const std::string sweep_file = nlohmann::ordered_json::parse(read_file(whole))["sweep_file"];
  EXPECT_TRUE(sweep_file.ends_with("s\xEF\xBF\xBD.json")) << sweep_file;
}

TEST(SweepCommandTest, DryRunChecksTheFilesAndPrintsThePlanWithoutRunning) {
  const std::string out = temp_path("dry.json").string();
  Result r = squall("sweep " + kSweep + " --dry-run --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "squall sweep quickstart-policies: scenario quickstart, 4 variants x 6 seeds (100..105), baseline own\n"
            "  own                  the scenario's policy\n"
            "  naive                ../../../scenarios/policies/naive-retry.json\n"
            "  llm[max_attempts=1]  the scenario's policy\n"
            "  llm[max_attempts=5]  the scenario's policy\n"
            "dry run: 24 runs; nothing was run or written\n");
  EXPECT_FALSE(fs::exists(out));
  // Runs k with k mod 5 = 1 of 0..23: 1, 6, 11, 16, 21. A dry run writes no partial, so
  // it needs no --out.
  r = squall("sweep " + kSweep + " --dry-run --shard 2/5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("dry run: shard 2/5 would run 5 of the 24 runs; nothing was run or written\n"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(out));
  // An invalid sweep is the same exit 2 as without --dry-run.
  const std::string bad = temp_path("dry-bad.json").string();
  { std::ofstream(bad) << R"({ "name": "x", "scenario": "nope.json", "variants": [], "seeds": 0 })"; }
  r = squall("sweep " + bad + " --dry-run");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(": /seeds: expected an integer in [1, 10000], got 0\n"), std::string::npos) << r.err;
}

TEST(SweepCommandTest, MergeProtectsTheInputsThePartialsNameWhenTheSweepFileIsBroken) {
  // The sweep file, edited after the shards ran, no longer names the policy: the partial
  // still does, and merge must not write over it.
  const fs::path dir = temp_path("broken-sweep");
  fs::create_directories(dir);
  fs::copy_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/policies/naive-retry.json", dir / "naive.json",
                fs::copy_options::overwrite_existing);
  const std::string sweep = (dir / "s.json").string();
  std::ofstream(sweep) << R"({ "name": "b", "scenario": ")" << SQUALL_SOURCE_DIR
                       << R"(/scenarios/quickstart.json", "seeds": 1, "variants": [ { "name": "own" },
                            { "name": "naive", "policy": "naive.json" } ] })";
  const std::string part = (dir / "part.json").string();
  ASSERT_EQ(squall("sweep " + sweep + " -q --shard 1/1 --out " + part).exit_code, 0);
  std::ofstream(sweep) << "{ broken";
  const std::string policy = read_file(dir / "naive.json");
  const Result r = squall("merge " + part + " -q --out " + (dir / "naive.json").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is an input of this run"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir / "naive.json"), policy);
}

// The sweep runs from one directory with relative paths, merge from the partials' own:
// the partial names the sweep file from its directory, so merge finds the sweep's
// scenario, corpus and policy files and writes over none of them.
TEST(SweepCommandTest, MergeFromAnotherDirectoryStillProtectsTheSweepsInputs) {
  const fs::path top = temp_path("merge-elsewhere");
  fs::create_directories(top / "sweeps" / "corpora");
  fs::create_directories(top / "parts");
  const fs::path source = SQUALL_SOURCE_DIR;
  fs::copy_file(source / "scenarios/quickstart.json", top / "sweeps/s.json");
  fs::copy_file(source / "scenarios/corpora/crm.jsonl", top / "sweeps/corpora/crm.jsonl");
  fs::copy_file(source / "scenarios/policies/naive-retry.json", top / "sweeps/naive.json");
  std::ofstream(top / "sweeps/sweep.json") << R"({ "name": "m", "scenario": "s.json", "seeds": 1,
    "variants": [ { "name": "own" }, { "name": "naive", "policy": "naive.json" } ] })";
  ASSERT_EQ(squall_in(top, "sweep sweeps/sweep.json -q --shard 1/1 --out parts/part.json").exit_code, 0);
  EXPECT_NE(read_file(top / "parts/part.json").find("\"sweep_file_from_partial\": \"../sweeps/sweep.json\""),
            std::string::npos);
  for (const std::string input : {"sweep.json", "s.json", "naive.json", "corpora/crm.jsonl"}) {
    const std::string before = read_file(top / "sweeps" / input);
    const Result r = squall_in(top / "parts", "merge part.json -q --out ../sweeps/" + input);
    EXPECT_EQ(r.exit_code, 2) << input;
    EXPECT_NE(r.err.find("\"../sweeps/" + input + "\" is an input of this run ("), std::string::npos) << r.err;
    EXPECT_EQ(read_file(top / "sweeps" / input), before) << input;
  }
  // Through a link to the scenario: the same file.
  fs::create_symlink(top / "sweeps/s.json", top / "parts/link.json");
  const Result linked = squall_in(top / "parts", "merge part.json -q --out link.json");
  EXPECT_EQ(linked.exit_code, 2);
  EXPECT_EQ(squall_in(top / "parts", "merge part.json -q --out merged.json").exit_code, 0);
}

TEST(SweepCommandTest, DryRunChecksGroundTruthLinksAsARunDoes) {
  // A relevant link to a document in no corpus: refused by the run when it prepares the
  // scenario, so by the dry run too.
  const fs::path dir = temp_path("dry-truth");
  fs::create_directories(dir);
  std::string text = read_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/ci/vector-threshold-relaxation.json");
  const std::string good = "https://help.acmecorp.example/articles/reset-password";
  text.replace(text.find(good), good.size(), "https://help.acmecorp.example/articles/no-such-article");
  const std::string corpus = "\"../corpora/kb.jsonl\"";
  text.replace(text.find(corpus), corpus.size(), fmt::format("\"{}/scenarios/corpora/kb.jsonl\"", SQUALL_SOURCE_DIR));
  const fs::path scenario = dir / "scenario.json";
  std::ofstream(scenario) << text;
  const std::string sweep = (dir / "s.json").string();
  std::ofstream(sweep) << R"({ "name": "t", "scenario": ")" << scenario.string()
                       << R"(", "seeds": 1, "variants": [ { "name": "own" } ] })";
  const Result dry = squall("sweep " + sweep + " --dry-run");
  const Result run = squall("sweep " + sweep + " -q --out " + (dir / "out.json").string());
  const Result validate = squall("validate " + sweep);
  EXPECT_EQ(dry.exit_code, 2);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(validate.exit_code, 2);
  EXPECT_EQ(dry.err, run.err);
  EXPECT_NE(dry.err.find("no-such-article"), std::string::npos) << dry.err;
}

TEST(SweepCommandTest, MergeRefusesAMissingOrRepeatedShard) {
  const std::string p1 = temp_path("m1.json").string();
  const std::string p2 = temp_path("m2.json").string();
  ASSERT_EQ(squall("sweep " + kSweep + " --shard 1/3 --out " + p1).exit_code, 0);
  ASSERT_EQ(squall("sweep " + kSweep + " --shard 2/3 --out " + p2).exit_code, 0);
  Result r = squall("merge " + p1 + " " + p2);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall merge: missing shard 3 of 3\n");
  r = squall("merge " + p1 + " " + p1);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall merge: " + p1 + ": shard 1 of 3 again (also " + p1 + ")\n");
  r = squall("merge " + kSweep);  // a sweep file, with comments: recognised, not "not JSON"
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall merge: " + kSweep +
                       ": this is a sweep file, not a partial sweep result: run it with squall sweep FILE\n");
}

TEST(SweepCommandTest, MergeRefusesShardsOfAnotherSweep) {
  const std::string p1 = temp_path("o1.json").string();
  ASSERT_EQ(squall("sweep " + kSweep + " --shard 1/2 --out " + p1).exit_code, 0);
  // Another sweep: shard 2 of the same sweep, renamed.
  const std::string other = temp_path("o3.json").string();
  ASSERT_EQ(squall("sweep " + kSweep + " --shard 2/2 --out " + other).exit_code, 0);
  std::string changed = read_file(other);
  const std::string name = "\"name\": \"quickstart-policies\"";
  changed.replace(changed.find(name), name.size(), "\"name\": \"renamed\"");
  { std::ofstream(other, std::ios::binary) << changed; }
  const Result r = squall("merge " + p1 + " " + other);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall merge: " + other + ": a shard of another sweep than " + p1 +
                       " (name, scenario, its contents or its corpora's, variants, policies, seeds, metrics or squall "
                       "version differ)\n");
}

TEST(SweepCommandTest, MergeRefusesShardsRunOnAnEditedScenarioOrCorpus) {
  // The same files by name, edited between two shards: the shards ran different models.
  const fs::path dir = temp_dir() / "edited";
  fs::remove_all(dir);
  fs::create_directories(dir / "corpora");
  fs::copy_file("scenarios/corpora/crm.jsonl", dir / "corpora/crm.jsonl");
  const std::string scenario = read_file("scenarios/quickstart.json");
  { std::ofstream(dir / "quickstart.json", std::ios::binary) << scenario; }
  const std::string sweep = (dir / "sweep.json").string();
  {
    std::ofstream(sweep, std::ios::binary)
        << R"({"name": "edited", "scenario": "quickstart.json", "variants": [{"name": "own"}], "seeds": 2})";
  }
  const auto shard = [&](int i) {
    const std::string out = (dir / fmt::format("p{}.json", i)).string();
    const Result r = squall(fmt::format("sweep {} --shard {}/2 --out {}", sweep, i, out));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return out;
  };
  const std::string p1 = shard(1);
  const std::string unchanged = shard(2);
  EXPECT_EQ(squall("merge " + p1 + " " + unchanged + " --out " + (dir / "merged.json").string()).exit_code, 0);
  const std::string refusal = ": a shard of another sweep than " + p1 +
                              " (name, scenario, its contents or its corpora's, variants, policies, seeds, metrics or "
                              "squall version differ)\n";
  // The scenario's bytes (a description edited: the digest does not parse the file).
  { std::ofstream(dir / "quickstart.json", std::ios::binary) << scenario << "\n"; }
  const std::string after_scenario = shard(2);
  Result r = squall("merge " + p1 + " " + after_scenario);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall merge: " + after_scenario + refusal);
  // The corpus's bytes, the scenario as it was.
  { std::ofstream(dir / "quickstart.json", std::ios::binary) << scenario; }
  { std::ofstream(dir / "corpora/crm.jsonl", std::ios::binary | std::ios::app) << "\n"; }
  const std::string after_corpus = shard(2);
  r = squall("merge " + p1 + " " + after_corpus);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall merge: " + after_corpus + refusal);
}

TEST(SweepCommandTest, ShardUsageErrors) {
  Result r = squall("sweep " + kSweep + " --shard 0/3 --out " + temp_path("u.json").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall sweep: --shard expects i/n with 1 <= i <= n <= 100000, got \"0/3\"\n");
  r = squall("sweep " + kSweep + " --shard 1/3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall sweep: --shard writes a partial result: give --out PATH\n");
  r = squall("sweep tests/cli/data/sweep-target.yaml --shard 1/2 --out " + temp_path("u.json").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "squall sweep: tests/cli/data/sweep-target.yaml: a sweep with a target cannot be sharded (each "
            "shard would stop on its own evidence): give \"seeds\" instead\n");
}

TEST(SweepCommandTest, RefusesOneRunsReportFormats) {
  const Result r = squall("sweep " + kSweep + " --report junit=" + temp_path("j.xml").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "squall sweep: sweep writes json, markdown, csv and html reports; junit is one run's report: use "
            "`squall run SCENARIO --report junit=PATH`\n");
}

TEST(SweepCommandTest, AnInvalidSweepFileIsExitTwoWithEveryError) {
  const std::string file = temp_path("bad-sweep.json").string();
  { std::ofstream(file) << R"({ "name": "x", "scenario": "nope.json", "variants": [], "seeds": 0 })"; }
  const Result r = squall("sweep " + file);
  EXPECT_EQ(r.exit_code, 2);
  const std::string scenario = (fs::path(file).parent_path() / "nope.json").string();
  EXPECT_EQ(r.err, file + ": /scenario: the scenario \"" + scenario + "\" is not valid (its errors follow)\n" + file +
                       ": /seeds: expected an integer in [1, 10000], got 0\n" + file +
                       ": /variants: expected a non-empty array, got []\n" + scenario + ": file not found\n");
}

TEST(SweepCommandTest, TargetSweepStopsWhenTheIntervalIsNarrowEnoughTheSameForAnyJobs) {
  const std::string a = temp_path("t1.json").string();
  const std::string b = temp_path("t2.json").string();
  const Result one = squall("sweep tests/cli/data/sweep-target.yaml --jobs 1 --out " + a);
  const Result two = squall("sweep tests/cli/data/sweep-target.yaml --jobs 2 --out " + b);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(read_file(a), read_file(b));
  const nlohmann::json report = nlohmann::json::parse(read_file(a));
  const std::size_t seeds = report["seeds"].size();
  EXPECT_GE(seeds, 3U);
  EXPECT_LE(seeds, 12U);
  // Reached exactly when every variant's interval is narrower than 0.05.
  bool narrow = true;
  for (const auto& v : report["variants"]) {
    const auto& ci = v["metrics"]["task_success"]["ci95"];
    narrow = narrow && ci[1].get<double>() - ci[0].get<double>() < 0.05 + 1e-6;
  }
  EXPECT_EQ(report["target"]["reached"].get<bool>(), narrow);
  if (!narrow) {
    EXPECT_EQ(seeds, 12U);
  }
}

TEST(SweepCommandTest, ShippedSweepHasAClearWinner) {
  // scenarios/sweeps/launch-surge-policies.json: the incident's own policy (3 LLM
  // attempts, 6 search attempts) has the highest task success, its interval above every
  // other variant's.
  const std::string out = temp_path("shipped.json").string();
  const Result r = squall("sweep scenarios/sweeps/launch-surge-policies.json --jobs 2 --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The README shows this table: it must be the table the sweep prints today.
  const std::string table = r.out.substr(0, r.out.find("json report written"));
  EXPECT_NE(read_file(std::string(SQUALL_SOURCE_DIR) + "/README.md").find(table), std::string::npos)
      << "README.md's Policy sweeps table differs from today's output:\n"
      << table;
  const nlohmann::json report = nlohmann::json::parse(read_file(out));
  ASSERT_EQ(report["variants"].size(), 5U);
  const nlohmann::json* best = nullptr;
  for (const auto& v : report["variants"]) {
    if (best == nullptr || v["metrics"]["task_success"]["mean"] > (*best)["metrics"]["task_success"]["mean"]) best = &v;
  }
  EXPECT_EQ((*best)["name"], "incident-policy[llm.max_attempts=3,web_search.max_attempts=6]");
  const double low = (*best)["metrics"]["task_success"]["ci95"][0];
  for (const auto& v : report["variants"]) {
    if (&v == best) continue;
    EXPECT_LT(v["metrics"]["task_success"]["ci95"][1].get<double>(), low) << v["name"];
  }
}

TEST(SweepCommandTest, TheThresholdsDecideAndTheRecommendationNamesTheBestFeasibleVariant) {
  const Result r = squall("sweep " + kSweep + " --jobs 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Thresholds: seeds passed (feasible: every threshold on at least 90% of seeds)\n"
                       "  variant              task_success rate>=0.9  task_latency p(95)<20s  feasible\n"
                       "  own                  6/6                     6/6                     yes\n"
                       "  naive                0/6                     6/6                     no\n"
                       "  llm[max_attempts=1]  6/6                     6/6                     yes\n"
                       "  llm[max_attempts=5]  6/6                     6/6                     yes\n"
                       "\n"
                       "recommendation: own: task_success max 0.998428 (95% CI 0.994386 to 1.00247), every "
                       "threshold on at least 90% of 6 seeds\n"
                       "warning: variants own and llm[max_attempts=5] gave the same values on every seed: what "
                       "tells their policies apart changes nothing in this scenario\n"),
            std::string::npos)
      << r.out;
  // Deciding by cost (feasibility loosened to 66%): one LLM attempt is the cheapest
  // feasible variant; two variants equal on cost are "same", not a verdict.
  const std::string json = temp_path("decision.json").string();
  const Result by_cost = squall("sweep tests/cli/data/sweep-quickstart-decision.json --out " + json);
  ASSERT_EQ(by_cost.exit_code, 0) << by_cost.err;
  EXPECT_NE(by_cost.out.find("recommendation: llm[max_attempts=1]: cost_usd.total min 0.0935963 (95% CI 0.0819396 "
                             "to 0.105253), every threshold on at least 66% of 6 seeds\n"),
            std::string::npos)
      << by_cost.out;
  const auto report = nlohmann::json::parse(read_file(json));
  EXPECT_EQ(report["recommendation"]["variant"], "llm[max_attempts=1]");
  EXPECT_EQ(report["thresholds"], (nlohmann::json{"task_success rate>=0.9", "task_latency p(95)<20s"}));
  EXPECT_EQ(report["decision"]["feasible_pass_rate"], 0.66);
  EXPECT_EQ(report["decision"]["min_effect"][0],
            (nlohmann::json{{"metric", "latency_ms.p99"}, {"value", 0.05}, {"relative", true}}));
  EXPECT_EQ(report["variants"][2]["threshold_pass_rates"], (nlohmann::json{1, 1}));
  EXPECT_EQ(report["variants"][1]["feasible"], false);
  EXPECT_EQ(report["variants"][3]["metrics"]["cost_usd.total"]["difference"]["verdict"], "same");
  EXPECT_EQ(report["variants"][1]["runs"][0]["passed"], (nlohmann::json{false, true}));
  EXPECT_EQ(report["warnings"].size(), 1u);
}

TEST(SweepCommandTest, LooseningTheFeasibleRateAdmitsAVariantThatMissesOnSomeSeeds) {
  // The quickstart with task_success rate>=0.94: one LLM attempt (0.917 to 0.965 over seeds
  // 100..105) passes on 4 of 6 seeds, the others on 6. Deciding by cost, it is infeasible at
  // the default 90% and recommended at 66%.
  auto scenario = nlohmann::ordered_json::parse(
      read_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/quickstart.json"), nullptr, true, true);
  scenario["thresholds"]["task_success"] = {"rate>=0.94"};
  for (auto& p : scenario["providers"]) {
    if (p.contains("corpus"))
      p["corpus"] = std::string(SQUALL_SOURCE_DIR) + "/scenarios/" + p["corpus"].get<std::string>();
  }
  const std::string strict = temp_path("quickstart-strict.json").string();
  { std::ofstream(strict) << scenario.dump(2); }
  const auto decide = [&](const std::string& rate) {
    const std::string file = temp_path("strict-" + rate + ".json").string();
    std::ofstream(file) << R"({ "name": "strict", "scenario": ")" << strict << R"(", "variants": [
      { "name": "own" }, { "name": "llm", "grid": [ { "path": "/llm/1/retry/max_attempts", "values": [1, 5] } ] } ],
      "seeds": 6, "first_seed": 100,
      "decision": { "objective": { "metric": "cost_usd.total", "goal": "min" }, "feasible_pass_rate": )"
                        << rate << " } }";
    return squall("sweep " + file + " --jobs 2");
  };
  const Result strict90 = decide("0.9");
  ASSERT_EQ(strict90.exit_code, 0) << strict90.err;
  EXPECT_NE(strict90.out.find("  llm[max_attempts=1]  4/6                      6/6                     no\n"),
            std::string::npos)
      << strict90.out;
  EXPECT_NE(strict90.out.find("recommendation: own: cost_usd.total min 0.099633"), std::string::npos) << strict90.out;
  const Result loose = decide("0.66");
  ASSERT_EQ(loose.exit_code, 0) << loose.err;
  EXPECT_NE(loose.out.find("  llm[max_attempts=1]  4/6                      6/6                     yes\n"),
            std::string::npos)
      << loose.out;
  EXPECT_NE(loose.out.find("recommendation: llm[max_attempts=1]: cost_usd.total min 0.0935963"), std::string::npos)
      << loose.out;
}

TEST(SweepCommandTest, AVariantPolicyFileMergesAsRunPolicyDoesWithItsNotesOnce) {
  const std::string policy = temp_path("merge-p.json").string();
  { std::ofstream(policy) << R"({ "web_search": [], "pinecone": [] })"; }
  const std::string file = temp_path("merge-sweep.json").string();
  {
    std::ofstream(file)
        << R"({ "name": "merge", "scenario": ")" << SQUALL_SOURCE_DIR
        << R"(/scenarios/quickstart.json", "variants": [ { "name": "own" },
      { "name": "p", "policy": ")"
        << policy
        << R"(", "grid": [ { "path": "/web_search", "values": [[], [{"timeout": {"per_attempt": "2s"}}]] } ] } ],
      "seeds": 2 })";
  }
  const Result r = squall("sweep " + file + " -q --jobs 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "squall sweep: note: " + policy +
                       ": skipped \"pinecone\": the scenario has no tool or provider of that name\n"
                       "squall sweep: note: " +
                       policy + ": \"llm\" not named in it: the scenario's own policy kept\n");
}

TEST(SweepCommandTest, APolicyFileThatRunsTheScenariosOwnPolicyIsADuplicate) {
  // A file naming only "llm", with the scenario's own entry for it: the policy it runs is
  // the scenario's, so its digest is "own"'s and the sweep warns.
  const auto scenario = nlohmann::json::parse(read_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/quickstart.json"),
                                              nullptr, true, true);
  const std::string policy = temp_path("same-llm.json").string();
  { std::ofstream(policy) << nlohmann::json{{"llm", scenario["policy"]["llm"]}}.dump(); }
  const std::string file = temp_path("same-sweep.json").string();
  const std::string report = temp_path("same-sweep-report.json").string();
  {
    std::ofstream(file)
        << R"({ "name": "same", "scenario": ")" << SQUALL_SOURCE_DIR
        << R"(/scenarios/quickstart.json", "variants": [ { "name": "own" }, { "name": "file", "policy": ")" << policy
        << R"(" } ], "seeds": 2 })";
  }
  const Result r = squall("sweep " + file + " --jobs 2 --out " + report);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto json = nlohmann::json::parse(read_file(report));
  EXPECT_EQ(json["variants"][0]["policy_digest"], json["variants"][1]["policy_digest"]);
  EXPECT_NE(r.out.find("warning: variants own and file have the same policy (digest " +
                       json["variants"][0]["policy_digest"].get<std::string>() + "): one of them measures nothing\n"),
            std::string::npos)
      << r.out;
}

TEST(SweepCommandTest, FailOnGatesTheCandidate) {
  const Result infeasible = squall("sweep " + kSweep + " -q --fail-on infeasible --candidate naive");
  EXPECT_EQ(infeasible.exit_code, 1) << infeasible.err;
  EXPECT_EQ(infeasible.out,
            "FAIL naive is infeasible: task_success rate>=0.9 passes on 0 of 6 seeds\n"
            "gate: naive fails --fail-on\n");
  const Result worse = squall("sweep " + kSweep + " -q --fail-on worse --candidate naive");
  EXPECT_EQ(worse.exit_code, 1);
  EXPECT_NE(worse.out.find(
                "FAIL naive is worse than the baseline own on task_success: -0.244719 (95% CI -0.277065 to -0.212373)"),
            std::string::npos)
      << worse.out;
  const Result passes = squall("sweep " + kSweep +
                               " -q --fail-on worse --fail-on infeasible --candidate "
                               "'llm[max_attempts=5]'");
  EXPECT_EQ(passes.exit_code, 0) << passes.out << passes.err;
  EXPECT_EQ(passes.out, "gate: llm[max_attempts=5] passes --fail-on\n");
  // Sharded, the gate belongs to the merge.
  std::string partials;
  for (int i = 1; i <= 2; ++i) {
    const std::string out = temp_path("gate" + std::to_string(i) + ".json").string();
    ASSERT_EQ(squall("sweep " + kSweep + " --shard " + std::to_string(i) + "/2 --out " + out).exit_code, 0);
    partials += " " + out;
  }
  const Result merged = squall("merge" + partials + " -q --fail-on infeasible --candidate naive");
  EXPECT_EQ(merged.exit_code, 1);
  EXPECT_EQ(merged.out, infeasible.out);
}

// The recommendation follows the scenario's thresholds: deciding by cost with two thirds of
// the seeds required, the one-attempt LLM policy (4 of 6 seeds at 90% success) is the
// cheapest feasible variant; asking for 95% success makes it infeasible, and the scenario's
// own policy is recommended instead.
TEST(SweepCommandTest, TighteningAThresholdChangesTheRecommendation) {
  const auto recommendation = [](const std::string& dir, const std::string& thresholds) {
    const fs::path scenario = quickstart_with_thresholds(dir, "scenario", thresholds);
    const fs::path sweep = scenario.parent_path() / "sweep.json";
    std::ofstream(sweep) << nlohmann::json{
        {"name", "by-cost"},
        {"scenario", "scenario.json"},
        {"variants",
         {{{"name", "own"}},
          {{"name", "llm"}, {"grid", {{{"path", "/llm/1/retry/max_attempts"}, {"values", {1, 5}}}}}}}},
        {"seeds", 6},
        {"first_seed", 100},
        {"decision", {{"objective", {{"metric", "cost_usd.total"}, {"goal", "min"}}}, {"feasible_pass_rate", 0.66}}}};
    const Result r = squall("sweep " + sweep.string() + " --out " + (scenario.parent_path() / "r.json").string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(read_file(scenario.parent_path() / "r.json"))["recommendation"]["variant"];
  };
  EXPECT_EQ(recommendation("loose", R"({"task_success": ["rate>=0.9"]})"), "llm[max_attempts=1]");
  EXPECT_EQ(recommendation("tight", R"({"task_success": ["rate>=0.95"]})"), "own");
}

TEST(SweepCommandTest, FailOnUsageErrors) {
  const auto error = [](const std::string& args) {
    const Result r = squall("sweep " + kSweep + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, "") << args;
    return r.err;
  };
  EXPECT_EQ(error("--fail-on better"), "squall sweep: --fail-on expects worse or infeasible, got \"better\"\n");
  EXPECT_EQ(error("--fail-on worse"),
            "squall sweep: --fail-on needs --candidate VARIANT: the sweep has 3 variants besides its baseline\n");
  EXPECT_EQ(error("--fail-on worse --candidate pr"),
            "squall sweep: --candidate \"pr\" is not a variant of the sweep; variants are: own, naive, "
            "llm[max_attempts=1], llm[max_attempts=5]\n");
  EXPECT_EQ(error("--fail-on worse --candidate own"),
            "squall sweep: --candidate \"own\" is the sweep's baseline: the gate judges another variant against it\n");
  EXPECT_EQ(error("--candidate naive"),
            "squall sweep: --candidate names the variant --fail-on judges: give --fail-on too\n");
  EXPECT_EQ(error("--fail-on worse --shard 1/2 --out " + temp_path("gate-shard.json").string()),
            "squall sweep: --fail-on judges the whole sweep: give it to `squall merge`, not to a shard\n");
}

TEST(SweepCommandTest, QuietPrintsNothingButWritesTheReport) {
  const std::string out = temp_path("quiet.json").string();
  const Result r = squall("sweep " + kSweep + " --quiet --out " + out);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  EXPECT_FALSE(read_file(out).empty());
}

TEST(SweepCommandTest, NoOutputOverwritesACorpusTheScenarioReads) {
  // The scenario's corpus is an input as the sweep file, scenario and policies are, for
  // the whole sweep's reports and for a shard's partial result alike.
  const std::string corpus = "scenarios/corpora/crm.jsonl";
  const std::string before = read_file(corpus);
  Result r = squall("sweep " + kSweep + " --out " + corpus);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall sweep: cannot write the json report (--out " + corpus + "): \"" + corpus +
                       "\" is an input of this run (" + corpus + "); the report would overwrite it\n");
  r = squall("sweep " + kSweep + " --shard 1/2 --out " + corpus);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall sweep: cannot write the partial result (--out " + corpus + "): \"" + corpus +
                       "\" is an input of this run (" + corpus + "); the report would overwrite it\n");
  EXPECT_EQ(read_file(corpus), before);
}

TEST(SweepCommandTest, QuietShardPrintsNothing) {
  const std::string out = temp_path("quiet-shard.json").string();
  const Result r = squall("sweep " + kSweep + " --quiet --shard 1/2 --out " + out);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  EXPECT_FALSE(read_file(out).empty());
}

TEST(SweepCommandTest, ProgressTextHasAnEta) {
  EXPECT_EQ(cli::sweep_progress_text(10, 40, 2.0), "progress: 10 of 40 runs (25%), 5.0 runs/s, ETA 6 s");
  EXPECT_EQ(cli::sweep_progress_text(0, 40, 0.5), "progress: 0 of 40 runs (0%), -");
}

}  // namespace squall::test_support

namespace squall::test_support {
namespace {

// A file name of this test's own: ctest runs each test in its own process, at once.
std::string own(const std::string& name) {
  return std::string(testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" + name;
}

// Shard 2 of 2 of the quickstart sweep, as JSON, for tests that spoil one value of it.
const nlohmann::ordered_json& second_shard() {
  static const nlohmann::ordered_json doc = [] {
    const std::string out = temp_path(own("shard-2.json")).string();
    EXPECT_EQ(squall("sweep " + kSweep + " --shard 2/2 --out " + out).exit_code, 0);
    return nlohmann::ordered_json::parse(read_file(out));
  }();
  return doc;
}

std::string first_shard() {
  static const std::string out = [] {
    const std::string path = temp_path(own("shard-1.json")).string();
    EXPECT_EQ(squall("sweep " + kSweep + " --shard 1/2 --out " + path).exit_code, 0);
    return path;
  }();
  return out;
}

// `squall merge` of shard 1 and a spoiled shard 2 (or of the spoiled file alone, as the
// first partial, whose header the merge reads): its stderr after "squall merge: FILE",
// after checking exit 2 and that no report was written.
std::string merge_error(const std::string& name, const std::string& text, bool alone = false) {
  const std::string file = temp_path(name).string();
  { std::ofstream(file, std::ios::binary) << text; }
  const std::string out = temp_path(name + ".report.json").string();
  const Result r = squall("merge " + (alone ? std::string() : first_shard() + " ") + file + " --out " + out +
                          " --report html=" + out + ".html");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out + ".html"));
  const std::string prefix = "squall merge: " + file;
  EXPECT_EQ(r.err.substr(0, prefix.size()), prefix) << r.err;
  const std::string rest = r.err.substr(std::min(prefix.size(), r.err.size()));
  return rest.starts_with(": ") ? rest.substr(2) : rest;
}

std::string spoiled(const std::string& pointer, const nlohmann::ordered_json& value) {
  nlohmann::ordered_json doc = second_shard();
  doc[nlohmann::ordered_json::json_pointer(pointer)] = value;
  return doc.dump(2);
}

}  // namespace

TEST(SweepHostileTest, ShardOutsideOneToN) {
  for (const std::string bad : {"4/3", "1/0", "0/0", "abc", "1/3/", "-1/3", "1/100001"}) {
    const Result r = squall("sweep " + kSweep + " --shard " + bad + " --out " + temp_path("s.json").string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "squall sweep: --shard expects i/n with 1 <= i <= n <= 100000, got \"" + bad + "\"\n");
  }
}

TEST(SweepHostileTest, MergeRefusesATruncatedPartial) {
  const std::string text = second_shard().dump(2);
  const std::string err = merge_error("truncated.json", text.substr(0, text.size() / 2));
  // FILE:LINE:COLUMN: not JSON: ... (where the text ends depends on the shard's numbers)
  EXPECT_TRUE(err.starts_with(":") && err.find(": not JSON: syntax error while parsing") != std::string::npos) << err;
}

TEST(SweepHostileTest, MergeRefusesShardsOfDifferentCounts) {
  const std::string third = temp_path("third-of-3.json").string();
  ASSERT_EQ(squall("sweep " + kSweep + " --shard 2/3 --out " + third).exit_code, 0);
  const Result r = squall("merge " + first_shard() + " " + third);
  EXPECT_EQ(r.exit_code, 2);
  // The same sweep cut another way: the headers agree, the counts do not.
  EXPECT_EQ(r.err, "squall merge: " + third + ": shard 2 of 3, but " + first_shard() + " is a shard of 2\n");
}

TEST(SweepHostileTest, MergeNamesThePointerTheExpectedAndTheFound) {
  EXPECT_EQ(merge_error("v.json", spoiled("/runs/0/values/0", "x")),
            "/runs/0/values/0: expected null or a number, got \"x\"\n");
  // No run's report holds a negative or astronomically large headline value.
  EXPECT_EQ(merge_error("neg.json", spoiled("/runs/0/values/0", -5)),
            "/runs/0/values/0: expected null or a number from 0 to 9007199254740992 (2^53), got -5\n");
  EXPECT_EQ(merge_error("huge.json", spoiled("/runs/0/values/0", 1e300)),
            "/runs/0/values/0: expected null or a number from 0 to 9007199254740992 (2^53), got 1e+300\n");
  // Unknown keys are errors, at the top, in the shard and in a run.
  EXPECT_EQ(merge_error("extra.json", spoiled("/extra", 1)),
            "/extra: unknown key \"extra\" (expected one of squall_sweep_partial_version, shard, "
            "sweep_file_from_partial, sweep, runs)\n");
  EXPECT_EQ(merge_error("extra-shard.json", spoiled("/shard/extra", 1)),
            "/shard/extra: unknown key \"extra\" (expected one of index, count)\n");
  EXPECT_EQ(merge_error("extra-run.json", spoiled("/runs/0/extra", 1)),
            "/runs/0/extra: unknown key \"extra\" (expected one of variant, seed, values, passed)\n");
  EXPECT_EQ(merge_error("var.json", spoiled("/runs/0/variant", -1)),
            "/runs/0/variant: expected an integer in [0, 3], got -1\n");
  EXPECT_EQ(merge_error("seed.json", spoiled("/runs/0/seed", 12345)),
            "/runs/0/seed: expected one of the sweep's seeds (100..105), got 12345\n");
  EXPECT_EQ(merge_error("index.json", spoiled("/shard/index", "2")),
            "/shard/index: expected an integer in [1, 2], got \"2\"\n");
  EXPECT_EQ(merge_error("count.json", spoiled("/shard/count", 100001)),
            "/shard/count: expected an integer in [1, 100000], got 100001\n");
  EXPECT_EQ(merge_error("runs.json", spoiled("/runs", 5)), "/runs: expected an array of runs, got 5\n");
  EXPECT_EQ(merge_error("values.json", spoiled("/runs/0/values", nlohmann::ordered_json::array({1}))),
            "/runs/0/values: expected an array of 5 values, one per metric, got [1]\n");
  EXPECT_EQ(merge_error("version.json", spoiled("/squall_sweep_partial_version", 2)),
            "squall_sweep_partial_version 2 is not supported (this squall reads 1)\n");
  EXPECT_EQ(merge_error("array.json", "[1, 2]"),
            "not a squall sweep partial result: no squall_sweep_partial_version\n");
}

namespace {

// The one shard of the sweep cut into one: a partial whose header the merge reads.
const nlohmann::ordered_json& only_shard() {
  static const nlohmann::ordered_json doc = [] {
    const std::string out = temp_path(own("shard-1-of-1.json")).string();
    EXPECT_EQ(squall("sweep " + kSweep + " --shard 1/1 --out " + out).exit_code, 0);
    return nlohmann::ordered_json::parse(read_file(out));
  }();
  return doc;
}

// merge_error of only_shard() with the value at `pointer` replaced, merged alone.
std::string header_error(const std::string& name, const std::string& pointer, const nlohmann::ordered_json& value) {
  nlohmann::ordered_json doc = only_shard();
  doc[nlohmann::ordered_json::json_pointer(pointer)] = value;
  return merge_error(name, doc.dump(2), /*alone=*/true);
}

}  // namespace

TEST(SweepHostileTest, MergeChecksEveryValueOfTheHeader) {
  using J = nlohmann::ordered_json;
  // The header names the metrics, objectives and variants every output is built from: an
  // empty list of them once crashed the HTML writer, and a renamed one relabelled a column.
  EXPECT_EQ(
      header_error("h-metrics.json", "/sweep/metrics", J::array()),
      fmt::format("/sweep/metrics: expected an array of 1 to {} items, got []\n", headline_metric_names().size()));
  EXPECT_EQ(header_error("h-metric.json", "/sweep/metrics/0", "bogus"),
            "/sweep/metrics/0: expected a headline metric's name, got \"bogus\"\n");
  EXPECT_EQ(header_error("h-metric-twice.json", "/sweep/metrics/1", "task_success"),
            "/sweep/metrics/1: duplicate metric \"task_success\"\n");
  EXPECT_EQ(header_error("h-objectives.json", "/sweep/objectives", J::array()),
            "/sweep/objectives: expected an array of 1 to 5 items, got []\n");
  EXPECT_EQ(header_error("h-objective.json", "/sweep/objectives/0/metric", "tokens.total"),
            "/sweep/objectives/0/metric: expected one of the sweep's metrics, got \"tokens.total\"\n");
  EXPECT_EQ(header_error("h-goal.json", "/sweep/objectives/0/goal", "up"),
            "/sweep/objectives/0/goal: expected \"max\" or \"min\", got \"up\"\n");
  EXPECT_EQ(header_error("h-baseline.json", "/sweep/baseline", "nobody"),
            "/sweep/baseline: expected the name of one of the variants, got \"nobody\"\n");
  EXPECT_EQ(header_error("h-extra.json", "/sweep/extra", 1),
            "/sweep/extra: unknown key \"extra\" (expected one of name, description, sweep_file, scenario, "
            "squall_version, seeds, target, baseline, metrics, objectives, inputs_digest, variants, thresholds, "
            "decision)\n");
  EXPECT_EQ(header_error("h-thresholds.json", "/sweep/thresholds/0", ""),
            "/sweep/thresholds/0: expected a non-empty string, got \"\"\n");
  EXPECT_EQ(header_error("h-objective-d.json", "/sweep/decision/objective/metric", "tokens.input"),
            "/sweep/decision/objective/metric: expected one of the sweep's metrics, got \"tokens.input\"\n");
  EXPECT_EQ(header_error("h-rate.json", "/sweep/decision/feasible_pass_rate", 1.5),
            "/sweep/decision/feasible_pass_rate: expected a number in [0, 1], got 1.5\n");
  EXPECT_EQ(header_error("h-effect.json", "/sweep/decision/min_effect", J::array({{{"metric", "task_success"}}})),
            "/sweep/decision/min_effect/0/value: expected a finite number >= 0, got nothing\n");
  EXPECT_EQ(header_error("h-passed.json", "/runs/0/passed", J::array({true})),
            "/runs/0/passed: expected an array of 2 booleans, one per threshold, got [true]\n");
  EXPECT_EQ(header_error("h-inputs.json", "/sweep/inputs_digest", 5),
            "/sweep/inputs_digest: expected a digest of 16 lowercase hex digits, got 5\n");
  EXPECT_EQ(
      header_error("h-policy.json", "/sweep/variants/2/policy_digest", "0123456789abcdeX"),
      "/sweep/variants/2/policy_digest: expected a digest of 16 lowercase hex digits, got \"0123456789abcdeX\"\n");
  EXPECT_EQ(header_error("h-variant-twice.json", "/sweep/variants/1/name", "own"),
            "/sweep/variants/1/name: duplicate variant \"own\"\n");
  EXPECT_EQ(header_error("h-params.json", "/sweep/variants/2/params", J{{"max_attempts", 1}}),
            "/sweep/variants/2/params: expected JSON Pointers as keys, got \"max_attempts\"\n");
  EXPECT_EQ(header_error("h-seed.json", "/sweep/seeds/0", -1),
            "/sweep/seeds/0: expected an unsigned integer, got -1\n");
  EXPECT_EQ(header_error("h-gap.json", "/sweep/seeds/3", 107),
            "/sweep/seeds/3: expected the seed after 102, got 107\n");
  EXPECT_EQ(header_error("h-target.json", "/sweep/target", J::object()),
            "/sweep/target: expected null (a sweep with a target is not sharded), got {}\n");
  EXPECT_EQ(header_error("h-scenario.json", "/sweep/scenario/file", 3),
            "/sweep/scenario/file: expected a non-empty string, got 3\n");
  // Names are printed in tables and on the terminal, as the sweep loader has them.
  EXPECT_EQ(header_error("h-name.json", "/sweep/name", ""), "/sweep/name: expected a non-empty string, got \"\"\n");
  EXPECT_EQ(header_error("h-escape.json", "/sweep/name", "evil\n\x1b[31mRED"),
            "/sweep/name: expected text without control characters, got U+000A at byte 5\n");
  EXPECT_EQ(header_error("h-description.json", "/sweep/description",
                         "a\x01"
                         "b"),
            "/sweep/description: expected text without control characters other than newline and tab, got U+0001 at "
            "byte 2\n");
  EXPECT_EQ(header_error("h-variant-name.json", "/sweep/variants/0/name", ""),
            "/sweep/variants/0/name: expected a non-empty string, got \"\"\n");
  EXPECT_EQ(header_error("h-bad-pointer.json", "/sweep/variants/2/params", J{{"/~2", 1}}),
            "/sweep/variants/2/params: expected JSON Pointers as keys, got \"/~2\"\n");
  EXPECT_EQ(header_error("h-objective-metric.json", "/sweep/objectives/0", J{{"goal", "max"}}),
            "/sweep/objectives/0/metric: expected one of the sweep's metrics, got nothing\n");
  // A key is named by its RFC 6901 pointer, and the terminal never sees its raw bytes.
  EXPECT_TRUE(header_error("h-key.json", "/sweep/a~1b\x1b", 1)
                  .starts_with("/sweep/a~1b\\u001b: unknown key \"a/b\\u001b\" (expected one of name, "));
}

TEST(SweepHostileTest, MergeOfAHugeHeaderWithFewRunsIsRefusedForItsFirstMissingRun) {
  // 1,000 variants x 10,000 seeds promised, none held: refused for the first missing run,
  // with one bit per promised run (a table of the 10 million runs took 470 MB first).
  nlohmann::ordered_json doc = only_shard();
  nlohmann::ordered_json seeds = nlohmann::ordered_json::array();
  for (std::uint64_t s = 1; s <= 10000; ++s) seeds.push_back(s);
  doc["sweep"]["seeds"] = seeds;
  nlohmann::ordered_json variants = nlohmann::ordered_json::array();
  for (int v = 0; v < 1000; ++v) {
    nlohmann::ordered_json variant = doc["sweep"]["variants"][0];
    variant["name"] = fmt::format("v{}", v);
    variants.push_back(variant);
  }
  doc["sweep"]["variants"] = variants;
  doc["sweep"]["baseline"] = "v0";
  doc["runs"] = nlohmann::ordered_json::array();
  const std::string file = temp_path("huge-header.json").string();
  { std::ofstream(file) << doc.dump(); }
  const Result r = squall("merge " + file + " -q --out " + temp_path("huge-header.out.json").string());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "squall merge: shard 1 of 1 (" + file + ") lacks the run of variant \"v0\" seed 1\n");
}

TEST(SweepHostileTest, MergeComparesHeadersAsWrittenWhateverTheOrder) {
  // 100.0 == 100 as JSON values, but the first header's checks refuse 100.0: the order of
  // the partials must not decide whether a merge goes through.
  const std::string second = temp_path("second-100.0.json").string();
  std::string text = second_shard().dump(2);
  text.replace(text.find("100,"), 4, "100.0,");
  { std::ofstream(second) << text; }
  for (const std::string& order : {first_shard() + " " + second, second + " " + first_shard()}) {
    const Result r = squall("merge " + order + " -q --out " + temp_path("order.json").string());
    EXPECT_EQ(r.exit_code, 2) << order;
  }
}

TEST(SweepHostileTest, MergeParsesStrictly) {
  const std::string text = only_shard().dump(2);
  // A repeated key hides which value is used.
  const std::string twice = std::string(R"({"squall_sweep_partial_version": 1, )") + text.substr(1);
  EXPECT_EQ(merge_error("twice-key.json", twice, /*alone=*/true),
            "/squall_sweep_partial_version: duplicate key \"squall_sweep_partial_version\"\n");
  // Nesting is bounded before any walk of the document (a deep one overflowed the stack).
  EXPECT_EQ(merge_error("deep.json", std::string(100000, '[') + std::string(100000, ']'), /*alone=*/true),
            ":1:257: not JSON: expected at most 256 levels of nested arrays and objects, got more\n");
  // 1.0 is not the version 1; 2^53 + 1 is not 2^53.
  EXPECT_EQ(header_error("version.json", "/squall_sweep_partial_version", 1.0),
            "squall_sweep_partial_version 1.0 is not supported (this squall reads 1)\n");
  EXPECT_EQ(header_error("over.json", "/runs/0/values/0", std::uint64_t{9007199254740993ULL}),
            "/runs/0/values/0: expected null or a number from 0 to 9007199254740992 (2^53), got 9007199254740993\n");
}

TEST(SweepHostileTest, MergeRefusesARunOfAnotherShardOrTwice) {
  nlohmann::ordered_json doc = second_shard();
  // Runs are numbered variant-major; shard 2 of 2 holds the odd numbers: variant 0 seed
  // 100 (number 0) is shard 1's.
  doc["runs"][0]["seed"] = 100;
  EXPECT_EQ(merge_error("other.json", doc.dump(2)),
            "/runs/0: the run of variant 0 seed 100 belongs to shard 1 of 2, not 2\n");
  doc = second_shard();
  doc["runs"].push_back(doc["runs"][0]);
  EXPECT_EQ(merge_error("twice.json", doc.dump(2)),
            fmt::format("/runs/{}: the run of variant 0 seed 101 appears twice\n", doc["runs"].size() - 1));
}

TEST(SweepHostileTest, MergeRefusesAPartialLackingARunOrADirectory) {
  nlohmann::ordered_json doc = second_shard();
  doc["runs"].erase(0);
  const std::string file = temp_path("lacking.json").string();
  { std::ofstream(file, std::ios::binary) << doc.dump(2); }
  Result r = squall("merge " + first_shard() + " " + file);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall merge: shard 2 of 2 (" + file + ") lacks the run of variant \"own\" seed 101\n");
  const std::string dir = temp_path("a-directory").string();
  fs::create_directories(dir);
  r = squall("merge " + first_shard() + " " + dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall merge: " + dir + ": not a regular file\n");
}

TEST(SweepHostileTest, MergeNeverOverwritesTheSweepsInputs) {
  // The partials name their sweep file; its scenario, corpora and policies are inputs of
  // the merge's outputs as they are of the sweep's.
  const std::string sweep_file = read_file(kSweep);
  const std::string second = temp_path("merge-inputs-2.json").string();
  { std::ofstream(second, std::ios::binary) << second_shard().dump(2); }
  for (const std::string& target :
       {kSweep, std::string("scenarios/quickstart.json"), std::string("scenarios/corpora/crm.jsonl")}) {
    const Result r = squall("merge " + first_shard() + " " + second + " --out " + target);
    EXPECT_EQ(r.exit_code, 2) << target;
    EXPECT_NE(r.err.find("\"" + target + "\" is an input of this run"), std::string::npos) << r.err;
  }
  EXPECT_EQ(read_file(kSweep), sweep_file);
}

}  // namespace squall::test_support
