// Progress on stderr for long runs (cli/progress.hpp): when it shows, what it says, and
// that it changes no byte of stdout or of a report.
#include "cli/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;
using squall::RunProgress;
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
  EXPECT_EQ(on.out.substr(0, on.out.find("json report written")), off.out.substr(0, off.out.find("json report written")));
}

}  // namespace
