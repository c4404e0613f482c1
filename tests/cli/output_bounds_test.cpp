// What squall prints and writes about hostile or unusual surroundings: hidden files in a
// `ci` directory, a standard output that cannot be written, error output bounded however
// large the file (long words cut with their length, non-printable bytes escaped), a blank
// $GITHUB_STEP_SUMMARY, and a read-only report target.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;
namespace fs = std::filesystem;

// A scenario that reads no other file, so it runs from any directory.
constexpr const char* kSelfContained = R"({ "name": "q", "duration": "10s",
  "workload": { "arrivals": { "process": "constant", "rate_per_s": 1 },
                "tasks": [ { "name": "t", "steps": [ { "tool": "llm" } ] } ] },
  "providers": { "llm": { "type": "llm", "price_per_mtok": { "input": 1, "output": 1 } } } })";

TEST(OutputBoundsTest, CiSkipsHiddenFilesOfADirectory) {
  const fs::path dir = temp_path("ci-dir");
  fs::create_directories(dir);
  std::ofstream(dir / "a.json") << kSelfContained;
  std::ofstream(dir / "._a.json") << "\x00\x05\x16\x07 AppleDouble";  // macOS's metadata twin
  std::ofstream(dir / ".x.yaml") << "not: [a scenario";
  std::ofstream(dir / ".#a.json") << "{";
  const Result r = squall("ci -q -j 1 " + dir.string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.find("._a.json"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(".x.yaml"), std::string::npos) << r.out;
  // Named on the command line, a hidden file is read as given.
  const Result named = squall("ci -q " + (dir / ".x.yaml").string());
  EXPECT_EQ(named.exit_code, 2);
}

TEST(OutputBoundsTest, AFullStandardOutputIsAnErrorForEveryCommand) {
  for (const std::string command :
       {"validate scenarios/quickstart.json", "run -q scenarios/quickstart.json", "run scenarios/quickstart.json",
        "sweep --dry-run tests/cli/data/sweep-quickstart.json"}) {
    const Result r = squall(command + " >/dev/full");
    EXPECT_EQ(r.exit_code, 2) << command;
    // With the system's reason when the failing write is the last flush; a write that
    // failed earlier (the seed line is flushed at once) left no reason behind.
    const std::string line = last_line(r.err);
    EXPECT_TRUE(line == "squall: write error on standard output: No space left on device" ||
                line == "squall: write error on standard output")
        << command << ": " << r.err;
  }
}

TEST(OutputBoundsTest, ALongKeyIsCutWithItsLengthInEveryPlaceItIsShown) {
  const fs::path file = temp_path("long-key.json");
  const std::string key(1024 * 1024, 'k');
  std::string text = kSelfContained;
  text.insert(1, "\"" + key + "\": 1, ");
  std::ofstream(file) << text;
  const Result r = squall("validate " + file.string());
  EXPECT_EQ(r.exit_code, 2);
  // The path's word is "/" and the key (1,048,577 bytes), its ':' kept; the quoted key's
  // count leaves out its quotes, which are kept.
  EXPECT_EQ(r.err, file.string() + ": /" + std::string(63, 'k') + "...(1048577 bytes): unknown key \"" +
                       std::string(64, 'k') +
                       "...(1048576 bytes)\"; expected one of: $schema, name, description, seed, duration, workload, "
                       "providers, tools, policy, thresholds, start_time, outages, quota_groups\n")
      << r.err.substr(0, 400);
}

TEST(OutputBoundsTest, ARawC1ByteIsEscapedNotPrinted) {
  const fs::path file = temp_path("csi.json");
  std::ofstream(file) << "{ \"name\": \"a\x9b"
                         "31mred\" }";
  const Result r = squall("validate " + file.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find('\x9b'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\\x9b"), std::string::npos) << r.err;
}

TEST(OutputBoundsTest, ErrorsOfOneFileAreCappedWithACountOfTheRest) {
  const fs::path file = temp_path("many-keys.json");
  std::string text = "{";
  for (int i = 0; i < 1500; ++i) text += "\"k" + std::to_string(i) + "\": 1, ";
  text += "\"name\": \"x\" }";
  std::ofstream(file) << text;
  const Result r = squall("validate " + file.string());
  EXPECT_EQ(r.exit_code, 2);
  // 1,500 unknown keys and 3 missing ones: the first 1,000 shown.
  EXPECT_EQ(last_line(r.err), file.string() + ": 503 more errors not shown");
}

TEST(OutputBoundsTest, ABlankStepSummaryVariableIsUnset) {
  const fs::path dir = temp_path("blank-summary");
  fs::create_directories(dir);
  std::ofstream(dir / "s.json") << kSelfContained;
  for (const std::string blank : {"' '", "'\t'", "'  '"}) {
    const Result r = squall_in(dir, "run -q s.json --report markdown=r.md", "GITHUB_STEP_SUMMARY=" + blank + " ");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"r.md", "s.json"})) << blank;
  }
}

TEST(OutputBoundsTest, AReadOnlyReportTargetIsNotReplaced) {
  const fs::path out = temp_path("read-only.json");
  std::ofstream(out) << "kept";
  fs::permissions(out, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const Result r = squall("run -q scenarios/quickstart.json --out " + out.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall: cannot write the json report (--out " + out.string() + "): \"" + out.string() +
                       "\" is read-only; squall does not replace a protected file: make it writable or remove it\n");
  EXPECT_EQ(read_file(out), "kept");
  fs::permissions(out, fs::perms::owner_write, fs::perm_options::add);
}

}  // namespace
