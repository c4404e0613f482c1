// How `squall run` reads in a CI log: the failing thresholds and the repro line after the
// summary that explains them, on its stream; --quiet; colour only on a terminal.
#include <gtest/gtest.h>

#include "cli/terminal.hpp"
#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
// A declaration here, so that `squall(...)` means the helper, not the namespace.
using squall::test_support::squall;

const std::string kNaiveRun =
    "run scenarios/incidents/launch-surge-429-storm.json --policy scenarios/policies/naive-retry.json";

TEST(OutputHabitsTest, FailuresAndReproFollowTheSummaryOnStdout) {
  const Result r = squall(kNaiveRun);
  ASSERT_EQ(r.exit_code, 1);
  const std::size_t summary = r.out.find("  thresholds\n");
  const std::size_t failed = r.out.find("threshold failed: task_success: rate>=0.83 (observed 0.376071)\n");
  const std::size_t repro = r.out.find("\nrepro: ");
  ASSERT_NE(summary, std::string::npos) << r.out;
  EXPECT_LT(summary, failed);
  EXPECT_LT(failed, repro);
  EXPECT_EQ(r.err.find("threshold failed"), std::string::npos) << r.err;
  // stderr has only the wall time, which stays off stdout so that stdout is reproducible.
  EXPECT_EQ(r.err.rfind("simulated ", 0), 0U) << r.err;
}

TEST(OutputHabitsTest, MergedStreamsKeepTheirOrder) {
  // Both streams into one pipe, as a CI runner collects them (the exit code is cat's).
  const Result r = squall(kNaiveRun + " 2>&1 | cat");
  const std::size_t wall = r.out.find("s of wall time\n");
  EXPECT_LT(r.out.find("  thresholds\n"), wall);
  EXPECT_LT(wall, r.out.find("threshold failed: "));
  EXPECT_EQ(last_line(r.out).rfind("repro: ", 0), 0U);
}

TEST(OutputHabitsTest, QuietPrintsTheSeedFailuresAndReproOnly) {
  const Result r = squall(kNaiveRun + " --quiet");
  ASSERT_EQ(r.exit_code, 1);
  const std::string repro = std::string("repro: ") + SQUALL_BINARY +
                            " run scenarios/incidents/launch-surge-429-storm.json --seed 7 --policy "
                            "scenarios/policies/naive-retry.json\n";
  EXPECT_EQ(r.out,
            "squall run launch-surge-429-storm: seed 7\n"
            "threshold failed: task_success: rate>=0.83 (observed 0.376071)\n" +
                repro);
  EXPECT_EQ(r.err, "");
  const Result pass = squall("run scenarios/quickstart.json -q");
  EXPECT_EQ(pass.exit_code, 0);
  EXPECT_EQ(pass.out, "squall run quickstart: seed 42\n");
}

TEST(OutputHabitsTest, NoColourInAPipe) {
  const Result r = squall(kNaiveRun);
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
}

TEST(TerminalTest, ColourOnlyOnATerminalWithoutNoColor) {
  using squall::cli::use_color;
  EXPECT_TRUE(use_color(true, nullptr, "xterm-256color"));
  EXPECT_TRUE(use_color(true, nullptr, nullptr));
  EXPECT_TRUE(use_color(true, "", "xterm"));  // NO_COLOR applies when non-empty
  EXPECT_FALSE(use_color(true, "1", "xterm"));
  EXPECT_FALSE(use_color(true, "0", "xterm"));  // any non-empty value
  EXPECT_FALSE(use_color(true, nullptr, "dumb"));
  EXPECT_FALSE(use_color(false, nullptr, "xterm"));
}

TEST(TerminalTest, CountsArePluralButForOne) {
  using squall::cli::counted;
  EXPECT_EQ(counted(1, "job"), "1 job");  // stderr once said "1 jobs"
  EXPECT_EQ(counted(0, "job"), "0 jobs");
  EXPECT_EQ(counted(2, "run"), "2 runs");
}

}  // namespace
