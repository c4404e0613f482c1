// `squall run --check-invariants` and `squall ci --check-invariants`: the invariant checker
// (sim/invariant_checker.hpp) watching a whole run from the command line. Its rules firing
// is tested in tests/sim/invariant_checker_test.cpp.
#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;

TEST(CheckInvariantsTest, AShippedScenarioHoldsThemAndItsReportsAreWritten) {
  const fs::path dir = temp_path("invariants");
  fs::create_directories(dir);
  const std::string run = "run scenarios/incidents/openai-outage-model-fallback.json --seed 3";
  const Result checked = squall(run + " --check-invariants --out " + (dir / "checked.json").string() +
                                " --report jsonl=" + (dir / "checked.jsonl").string());
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_NE(checked.out.find("\ninvariants: 6 rules held over "), std::string::npos) << checked.out;
  // Watching changes nothing the reports see.
  const Result plain =
      squall(run + " --out " + (dir / "plain.json").string() + " --report jsonl=" + (dir / "plain.jsonl").string());
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(read_file(dir / "checked.json"), read_file(dir / "plain.json"));
  EXPECT_EQ(read_file(dir / "checked.jsonl"), read_file(dir / "plain.jsonl"));
}

TEST(CheckInvariantsTest, QuietWhenTheyHoldAndAFailingThresholdIsStillExitOne) {
  const Result r = squall(
      "run scenarios/incidents/launch-surge-429-storm.json --policy scenarios/policies/naive-retry.json "
      "--check-invariants -q");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.out.find("invariants"), std::string::npos);
}

TEST(CheckInvariantsTest, NotWithSeeds) {
  const Result run = squall("run scenarios/incidents/launch-surge-429-storm.json --seeds 3 --check-invariants");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--check-invariants cannot be combined with --seeds: it watches one run; use --seed N"),
            std::string::npos)
      << run.err;
  const Result ci = squall("ci scenarios/ci --seeds 2 --check-invariants");
  EXPECT_EQ(ci.exit_code, 2);
  EXPECT_NE(ci.err.find("--check-invariants cannot be combined with --seeds"), std::string::npos) << ci.err;
}

TEST(CheckInvariantsTest, CiWatchesEveryScenario) {
  const Result r = squall("ci scenarios/ci scenarios/incidents --check-invariants -q --jobs 2");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(" 0 failed, 0 not run; exit 0"), std::string::npos) << r.out;
}

}  // namespace
