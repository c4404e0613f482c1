// `squall run --report FORMAT=PATH`: several formats at once, each written whole, and every
// bad request refused before the run with exit 2 and nothing written.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
// A declaration here, so that `squall(...)` means the helper, not the namespace.
using squall::test_support::squall;

constexpr const char* kQuickstart = "scenarios/quickstart.json";

// The entries of `dir`, sorted.
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(ReportFlagsTest, WritesEveryRequestedFormat) {
  const fs::path dir = temp_path("all-formats");
  fs::create_directories(dir);
  const Result r =
      squall(std::string("run ") + kQuickstart + " --out " + (dir / "out.json").string() +
             " --report junit=" + (dir / "r.xml").string() + " --report markdown=" + (dir / "r.md").string() +
             " --report csv=" + (dir / "r.csv").string() + " --report jsonl=" + (dir / "r.jsonl").string() +
             " --report json=" + (dir / "r.json").string() + " --report html=" + (dir / "r.html").string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(entries(dir),
            (std::vector<std::string>{"out.json", "r.csv", "r.html", "r.json", "r.jsonl", "r.md", "r.xml"}));
  EXPECT_EQ(read_file(dir / "out.json"), read_file(dir / "r.json"));
  EXPECT_EQ(read_file(dir / "r.xml").rfind("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<testsuites", 0), 0U);
  EXPECT_EQ(read_file(dir / "r.md").rfind("### ✓ squall: quickstart (2 thresholds passed)\n", 0), 0U);
  EXPECT_EQ(read_file(dir / "r.csv").rfind("window_start_ms,window_end_ms,", 0), 0U);
  EXPECT_EQ(read_file(dir / "r.html").rfind("<!DOCTYPE html>\n<html lang=\"en\" data-squall-report=\"1\">\n", 0), 0U);
  // The trace ends with the run's fingerprint, the one the JSON report has.
  const std::string trace = read_file(dir / "r.jsonl");
  const auto trailer = nlohmann::json::parse(last_line(trace));
  EXPECT_EQ(trailer.at("event"), "run_finished");
  EXPECT_EQ(trailer.at("fingerprint"), nlohmann::json::parse(read_file(dir / "r.json")).at("fingerprint"));
  EXPECT_NE(r.out.find("\njunit report written to " + (dir / "r.xml").string() + "\n"), std::string::npos) << r.out;
  struct stat st {};
  ASSERT_EQ(::stat((dir / "r.jsonl").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644U);
}

TEST(ReportFlagsTest, EveryFormatIsByteIdenticalAcrossRuns) {
  const fs::path a = temp_path("run-a");
  const fs::path b = temp_path("run-b");
  for (const fs::path& dir : {a, b}) {
    fs::create_directories(dir);
    std::string args = std::string("run ") + kQuickstart;
    for (const char* f : {"json", "junit", "markdown", "csv", "jsonl", "html", "otlp"})
      args += " --report " + std::string(f) + "=" + (dir / f).string();
    ASSERT_EQ(squall(args).exit_code, 0);
  }
  for (const char* f : {"json", "junit", "markdown", "csv", "jsonl", "html", "otlp"})
    EXPECT_EQ(read_file(a / f), read_file(b / f)) << f;
}

TEST(ReportFlagsTest, UnknownFormatExitsTwoNamingTheFormats) {
  const fs::path dir = temp_path("bad-format");
  fs::create_directories(dir);
  const Result r = squall(std::string("run ") + kQuickstart + " --report junit=" + (dir / "a.xml").string() +
                          " --report xml=" + (dir / "b.xml").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall: unknown report format \"xml\" in --report xml=" + (dir / "b.xml").string() +
                       "; formats: json, junit, markdown, csv, jsonl, html, otlp\n");
  EXPECT_TRUE(entries(dir).empty());
  EXPECT_EQ(r.out, "");  // refused before the run: not even the seed line
}

TEST(ReportFlagsTest, RequestWithoutEqualsSignExitsTwo) {
  const Result r = squall(std::string("run ") + kQuickstart + " --report junit");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall: --report expects FORMAT=PATH, got \"junit\"\n");
}

TEST(ReportFlagsTest, TwoRequestsForOneFileExitTwo) {
  const fs::path dir = temp_path("duplicate");
  fs::create_directories(dir);
  const std::string a = (dir / "a.txt").string();
  Result r =
      squall(std::string("run ") + kQuickstart + " --report csv=" + a + " --report junit=" + dir.string() + "/./a.txt");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall: --report csv=" + a + " and --report junit=" + dir.string() +
                       "/./a.txt write the same file \"" + dir.string() + "/./a.txt\"\n");
  r = squall(std::string("run ") + kQuickstart + " --out " + a + " --report json=" + a);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--out " + a + " and --report json=" + a + " write the same file"), std::string::npos) << r.err;
  EXPECT_TRUE(entries(dir).empty());
}

TEST(ReportFlagsTest, UnwritablePathsExitTwoAndNothingIsWritten) {
  const fs::path dir = temp_path("unwritable");
  fs::create_directories(dir);
  const std::string ok =
      " --report junit=" + (dir / "a.xml").string() + " --report jsonl=" + (dir / "t.jsonl").string();
  Result r = squall(std::string("run ") + kQuickstart + ok + " --report csv=/nonexistent-dir/a.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "squall: cannot write the csv report (--report csv=/nonexistent-dir/a.csv): directory "
            "\"/nonexistent-dir\" does not exist\n");
  r = squall(std::string("run ") + kQuickstart + ok + " --report markdown=" + dir.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("exists and is not a regular file"), std::string::npos) << r.err;
  r = squall(std::string("run ") + kQuickstart + ok + " --report jsonl=" + kQuickstart);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is an input of this run"), std::string::npos) << r.err;
  r = squall(std::string("run ") + kQuickstart + ok + " --report csv=");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("the path is empty"), std::string::npos) << r.err;
  // A name that fits the file system but not with the temporary file's suffix: found
  // before the run, not after it with the other reports written.
  const std::string long_name = (dir / (std::string(248, 'r') + ".csv")).string();
  r = squall(std::string("run ") + kQuickstart + ok + " --report csv=" + long_name);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot create a temporary file in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("File name too long"), std::string::npos) << r.err;
  EXPECT_TRUE(entries(dir).empty());
}

TEST(ReportFlagsTest, MarkdownIsAppendedToTheGithubStepSummary) {
  const fs::path dir = temp_path("step-summary");
  fs::create_directories(dir);
  const fs::path summary = dir / "summary.md";
  { std::ofstream(summary) << "earlier step\n"; }
  const std::string env = "GITHUB_STEP_SUMMARY=" + summary.string() + " ";
  Result r = squall(std::string("run ") + kQuickstart + " --report markdown=" + (dir / "a.md").string(), env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string md = read_file(dir / "a.md");
  EXPECT_EQ(read_file(summary), "earlier step\n" + md);
  // Naming the summary file itself appends once rather than replacing the file.
  r = squall(std::string("run ") + kQuickstart + " --report markdown=" + summary.string(), env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(summary), "earlier step\n" + md + md);
  // Without a markdown request the variable is left alone.
  r = squall(std::string("run ") + kQuickstart, env);
  EXPECT_EQ(read_file(summary), "earlier step\n" + md + md);
}

TEST(ReportFlagsTest, UnwritableStepSummaryExitsTwo) {
  const fs::path dir = temp_path("bad-step-summary");
  fs::create_directories(dir);
  const Result r = squall(std::string("run ") + kQuickstart + " --report markdown=" + (dir / "a.md").string(),
                          "GITHUB_STEP_SUMMARY=/nonexistent-dir/s.md ");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "squall: cannot append the markdown summary to $GITHUB_STEP_SUMMARY: directory \"/nonexistent-dir\" "
            "does not exist\n");
  EXPECT_TRUE(entries(dir).empty());
}

}  // namespace
