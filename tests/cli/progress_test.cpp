// Progress on stderr for long runs (cli/progress.hpp): when it shows, what it says, and
// that it changes no byte of stdout or of a report.
#include "cli/progress.hpp"

#include "cli/ci_progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::RunProgress;
using squall::test_support::squall;
using namespace squall::cli;

constexpr std::int64_t kSecond = 1'000'000'000;

TEST(ProgressTest, ShownOnATerminalOrWhenAskedNeverWhenQuiet) {
  EXPECT_TRUE(show_progress(false, false, true));
  EXPECT_FALSE(show_progress(false, false, false));
  EXPECT_TRUE(show_progress(true, false, false));
  EXPECT_FALSE(show_progress(true, true, true));
  EXPECT_FALSE(show_progress(false, true, true));
}

TEST(ProgressTest, SaysSimulatedTimeTasksDoneInFlightAndRate) {
  const RunProgress p{312 * kSecond + kSecond / 2, 900 * kSecond, 1290, 1234};
  EXPECT_EQ(progress_text(p, 2.0),
            "progress: simulated 312.5 s of 900.0 s (35%), 1234 tasks done, 56 in flight, 617 tasks/s");
  EXPECT_EQ(progress_text(RunProgress{0, 0, 0, 0}, 0.0),
            "progress: simulated 0.0 s of 0.0 s (100%), 0 tasks done, 0 in flight, -");
}

TEST(ProgressTest, PastItsDurationARunSaysItIsDrainingAtMostOneHundredPercent) {
  // The hostile report's 1.3 s of 1.0 s showed 128%; at the duration itself it is 100%.
  const RunProgress past{1300 * kSecond / 1000, kSecond, 93, 90};
  EXPECT_EQ(progress_text(past, 0.0),
            "progress: simulated 1.3 s of 1.0 s (100%, draining tasks in flight), 90 tasks done, 3 in flight, -");
  EXPECT_EQ(progress_text(RunProgress{kSecond, kSecond, 3, 3}, 0.0),
            "progress: simulated 1.0 s of 1.0 s (100%), 3 tasks done, 0 in flight, -");
}

std::string written(std::FILE* f) {
  std::rewind(f);
  std::string text;
  char buf[512];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  return text;
}

TEST(ProgressTest, ATerminalLineIsRewrittenInPlaceAfterASecondAndErasedAtTheEnd) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  ProgressLine line(f, true);
  const RunProgress p{10 * kSecond, 100 * kSecond, 5, 4};
  line.update(p, 0.5);   // under a second: nothing
  line.update(p, 1.0);   // shown
  line.update(p, 1.1);   // too soon after the last
  line.update(p, 1.25);  // shown again
  line.finish();
  const std::string text = progress_text(p, 1.0);
  const std::string again = progress_text(p, 1.25);
  EXPECT_EQ(written(f), "\r" + text + "\x1b[K\r" + again + "\x1b[K\r\x1b[K");
  std::fclose(f);
}

TEST(ProgressTest, ALogGetsWholeLinesAtMostEveryFiveSeconds) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  ProgressLine line(f, false);
  const RunProgress p{10 * kSecond, 100 * kSecond, 5, 4};
  line.update(p, 1.5);
  line.update(p, 4.0);
  line.update(p, 6.5);
  line.finish();
  EXPECT_EQ(written(f), progress_text(p, 1.5) + "\n" + progress_text(p, 6.5) + "\n");
  std::fclose(f);
}

TEST(ProgressTest, AShortRunShowsNothingAndQuietNeverDoes) {
  const Result r = squall("run scenarios/quickstart.json --progress");
  EXPECT_EQ(r.err.find("progress:"), std::string::npos) << r.err;
  const Result q = squall("run scenarios/quickstart.json --progress --quiet");
  EXPECT_EQ(q.err, "");
}

TEST(ProgressTest, ReportsAndStdoutAreTheSameBytesWithProgressOrWithout) {
  const auto a = temp_path("progress-on.json");
  const auto b = temp_path("progress-off.json");
  const Result on = squall("run scenarios/incidents/launch-surge-429-storm.json --progress --out " + a.string());
  const Result off = squall("run scenarios/incidents/launch-surge-429-storm.json --out " + b.string());
  EXPECT_EQ(on.exit_code, 0);
  EXPECT_EQ(read_file(a), read_file(b));
  // The lines naming the report file differ by its path only.
  EXPECT_EQ(on.out.substr(0, on.out.find("json report written")),
            off.out.substr(0, off.out.find("json report written")));
}

TEST(CiProgressTest, SaysScenariosDoneAndTheRunningOnesWithTheirShare) {
  EXPECT_EQ(ci_progress_text(3, 12, {{"scenarios/ci/a.json", 0.35}, {"b.yaml", std::nullopt}}),
            "progress: 3 of 12 scenarios done; running: scenarios/ci/a.json 35%, b.yaml");
  EXPECT_EQ(ci_progress_text(0, 2, {}), "progress: 0 of 2 scenarios done");
}

TEST(CiProgressTest, ATerminalLineFollowsTheRunsAndIsErasedForResultsAndAtTheEnd) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  CiProgress progress(f, true, true, {"a.json", "b.json"});
  progress.started(0, 0.1);  // under a second: nothing
  progress.started(1, 0.2);
  progress.advanced(1, RunProgress{50 * kSecond, 100 * kSecond, 5, 4}, 1.0);  // shown
  progress.advanced(0, RunProgress{10 * kSecond, 40 * kSecond, 5, 4}, 1.1);   // too soon
  progress.finished(1, 1.3);                                                  // shown: b done
  progress.clear();                                                           // a result line comes next
  progress.advanced(0, RunProgress{90 * kSecond, 40 * kSecond, 5, 4}, 1.35);  // past its duration: 100%
  progress.finished(0, 1.4);                                                  // all done: erased
  EXPECT_EQ(written(f),
            "\rprogress: 0 of 2 scenarios done; running: a.json, b.json 50%\x1b[K"
            "\rprogress: 1 of 2 scenarios done; running: a.json 25%\x1b[K"
            "\r\x1b[K"
            "\rprogress: 1 of 2 scenarios done; running: a.json 100%\x1b[K"
            "\r\x1b[K");
  std::fclose(f);
}

TEST(CiProgressTest, DisabledItWritesNothing) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  CiProgress progress(f, true, false, {"a.json"});
  progress.started(0, 2.0);
  progress.advanced(0, RunProgress{50 * kSecond, 100 * kSecond, 5, 4}, 3.0);
  progress.finished(0, 4.0);
  progress.clear();
  EXPECT_EQ(written(f), "");
  std::fclose(f);
}

TEST(CiProgressTest, CiWithProgressKeepsStdoutAndReportsAndQuietShowsNothing) {
  const auto a = temp_path("ci-progress-on.xml");
  const auto b = temp_path("ci-progress-off.xml");
  const Result on = squall("ci scenarios/ci --progress --report junit=" + a.string());
  const Result off = squall("ci scenarios/ci --report junit=" + b.string());
  EXPECT_EQ(on.exit_code, off.exit_code);
  EXPECT_EQ(read_file(a), read_file(b));
  EXPECT_EQ(on.out.substr(0, on.out.find("junit report written")),
            off.out.substr(0, off.out.find("junit report written")));
  // Not a terminal and not asked: no progress line.
  EXPECT_EQ(off.err.find("progress:"), std::string::npos) << off.err;
  const Result quiet = squall("ci scenarios/ci --progress --quiet");
  EXPECT_EQ(quiet.err.find("progress:"), std::string::npos) << quiet.err;
}

}  // namespace
