// A file given where another kind of file belongs (reports/file_kind.hpp) gets one error
// that says what it is and how to use it; a file in another encoding than UTF-8 names its
// encoding; a YAML file indented with a tab says so.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;
namespace fs = std::filesystem;

const std::string kScenario = "scenarios/quickstart.json";
const std::string kPolicy = "scenarios/policies/naive-retry.json";
const std::string kSweep = "tests/cli/data/sweep-quickstart.json";

const std::string kUseScenario = "give it as the scenario (squall run FILE, squall compare FILE --policy P)";
const std::string kUsePolicy = "use --policy (squall run SCENARIO --policy FILE, squall validate --policy FILE)";
const std::string kUseSweep = "run it with squall sweep FILE";
const std::string kUseReport = "compare two reports with squall compare A.json B.json";

fs::path run_report() {
  const fs::path out = temp_path("report.json");
  EXPECT_EQ(squall("run -q " + kScenario + " --out " + out.string()).exit_code, 0);
  return out;
}

TEST(WrongKindTest, RunOnASweepPolicyOrReportSaysWhatItIs) {
  Result r = squall("run " + kSweep);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, kSweep + ": this is a sweep file, not a scenario: " + kUseSweep + "\n");
  r = squall("run " + kPolicy);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, kPolicy + ": this is a policy file, not a scenario: " + kUsePolicy + "\n");
  const fs::path report = run_report();
  r = squall("run " + report.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, report.string() + ": this is a report written by squall run, not a scenario: " + kUseReport + "\n");
}

TEST(WrongKindTest, ValidateOnAPolicyAndAScenarioGivenAsAPolicy) {
  Result r = squall("validate " + kPolicy);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, kPolicy + ": this is a policy file, not a scenario: " + kUsePolicy + "\n");
  r = squall("validate --policy " + kScenario);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, kScenario + ": this is a scenario file, not a policy file: " + kUseScenario + "\n");
  r = squall("run " + kScenario + " --policy " + kSweep);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(kSweep + ": this is a sweep file, not a policy file: " + kUseSweep + "\n"), std::string::npos)
      << r.err;
}

TEST(WrongKindTest, CompareAndMergeOnInputFiles) {
  const fs::path report = run_report();
  Result r = squall("compare " + report.string() + " " + kPolicy);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, kPolicy + ": this is a policy file, not a squall report: " + kUsePolicy + "\n");
  r = squall("merge " + report.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall merge: " + report.string() +
                       ": this is a report written by squall run, not a partial sweep result: " + kUseReport + "\n");
  r = squall("sweep " + kScenario);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(kScenario + ": this is a scenario file, not a sweep file: " + kUseScenario), std::string::npos)
      << r.err;
}

// Windows' editors write UTF-16 with a byte order mark; without one, the NUL beside the
// first character gives it away.
TEST(WrongKindTest, AUtf16FileNamesItsEncoding) {
  const std::string json = "{ \"name\": \"x\" }";
  std::string le;
  std::string be;
  for (const char c : json) {
    le += c;
    le += '\0';
    be += '\0';
    be += c;
  }
  const struct {
    std::string name, bytes, encoding;
  } cases[] = {
      {"le-bom.json", "\xFF\xFE" + le, "UTF-16 (little-endian, with a byte order mark)"},
      {"be-bom.yaml", "\xFE\xFF" + be, "UTF-16 (big-endian, with a byte order mark)"},
      {"le.json", le, "UTF-16 (little-endian)"},
      {"be.json", be, "UTF-16 (big-endian)"},
  };
  for (const auto& c : cases) {
    const fs::path file = temp_path(c.name);
    std::ofstream(file, std::ios::binary) << c.bytes;
    const Result r = squall("validate " + file.string());
    EXPECT_EQ(r.exit_code, 2) << c.name;
    EXPECT_EQ(r.err, file.string() + ": expected UTF-8 text, got " + c.encoding +
                         ": convert the file, e.g. with iconv -f UTF-16 -t UTF-8\n");
  }
  // A UTF-16 corpus, through the scenario that reads it.
  const fs::path dir = temp_path("utf16-corpus");
  fs::create_directories(dir / "corpora");
  fs::copy_file(fs::path(SQUALL_SOURCE_DIR) / kScenario, dir / "s.json");
  std::ofstream(dir / "corpora/crm.jsonl", std::ios::binary) << "\xFF\xFE" + le;
  const Result corpus = squall("validate " + (dir / "s.json").string());
  EXPECT_EQ(corpus.exit_code, 2);
  EXPECT_NE(corpus.err.find("crm.jsonl: expected UTF-8 text, got UTF-16 (little-endian, with a byte order mark)"),
            std::string::npos)
      << corpus.err;
}

TEST(WrongKindTest, AYamlFileIndentedWithATabSaysSo) {
  const fs::path file = temp_path("tab.yaml");
  std::ofstream(file) << "name: x\nworkload:\n\tarrivals: 1\n";
  const Result r = squall("validate " + file.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, file.string() +
                       ":3:1: expected spaces for indentation, got a tab: YAML indents with spaces only (YAML 1.2 "
                       "section 6.1)\n");
}

}  // namespace
