// Hostile input to the CLI, one test per rule with its exact message: every file squall
// reads is a regular file of at most 64 MiB (mocks/input_file.hpp), compared reports are
// strict JSON with values a report can hold, no output of ci or compare overwrites a file
// the run reads, names read from files are escaped on the terminal, and bad input is
// exit 2 with nothing written.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
using squall::test_support::squall;
namespace fs = std::filesystem;

// A report of the quickstart written by `run`, with its first `from` replaced by `to`, in
// the temporary directory under `name`.
fs::path edited_report(const std::string& name, const std::string& from, const std::string& to) {
  static const fs::path original = [] {
    const fs::path out = temp_path("hostile-original.json");
    EXPECT_EQ(squall("run scenarios/quickstart.json --out " + out.string()).exit_code, 0);
    return out;
  }();
  std::string text = read_file(original);
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  const fs::path file = temp_path(name);
  std::ofstream(file) << text;
  return file;
}

// Where /tasks/total's value starts in a report.
constexpr const char* kTasksTotal = "\"tasks\": {\n    \"total\": ";

fs::path good_report() { return edited_report("hostile-good.json", "\"seed\"", "\"seed\""); }

TEST(HostileInputTest, CompareRefusesADeviceAFifoAndAFileOver64MiBWithoutReadingThem) {
  const fs::path good = good_report();
  const Result zero = squall("compare /dev/zero " + good.string());
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_EQ(zero.err, "/dev/zero: not a regular file\n");
  EXPECT_EQ(zero.out, "");
  const fs::path fifo = temp_path("hostile.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Result pipe = squall("compare " + good.string() + " " + fifo.string());
  EXPECT_EQ(pipe.exit_code, 2);
  EXPECT_EQ(pipe.err, fifo.string() + ": not a regular file\n");
  const fs::path big = temp_path("hostile-big.json");
  std::ofstream(big) << "{";
  fs::resize_file(big, std::uintmax_t{64} * 1024 * 1024 + 1);  // sparse: no disk used
  const Result large = squall("compare " + big.string() + " " + good.string());
  EXPECT_EQ(large.exit_code, 2);
  EXPECT_EQ(large.err, big.string() + ": larger than 64 MiB\n");
  const Result missing = squall("compare " + good.string() + " /nonexistent/r.json");
  EXPECT_EQ(missing.err, "/nonexistent/r.json: file not found\n");
}

TEST(HostileInputTest, KernelPseudoFilesAreRefusedWithoutReadingThem) {
  // /proc and /sys call their files regular, of size 0; /proc/kmsg's read blocks until the
  // kernel logs something, so reading it hung every command. Refused by where the path
  // leads, a link to it included.
  const fs::path link = temp_path("hostile-proc-link.json");
  fs::remove(link);
  fs::create_symlink("/proc/self/status", link);
  const Result linked = squall("validate " + link.string());
  EXPECT_EQ(linked.exit_code, 2);
  EXPECT_EQ(linked.err, link.string() + ": not a regular file\n");
  if (fs::exists("/proc/kmsg")) {
    const Result kmsg = squall("validate /proc/kmsg");
    EXPECT_EQ(kmsg.exit_code, 2);
    EXPECT_EQ(kmsg.err, "/proc/kmsg: not a regular file\n");
  }
  const Result policy = squall("run scenarios/quickstart.json --policy /proc/self/status");
  EXPECT_EQ(policy.exit_code, 2);
  EXPECT_NE(policy.err.find("/proc/self/status: not a regular file"), std::string::npos) << policy.err;
}

TEST(HostileInputTest, CompareRefusesARepeatedKeyAtItsJsonPointer) {
  const fs::path dup = edited_report("hostile-dup.json", kTasksTotal, std::string(kTasksTotal) + "1, \"total\": ");
  const Result r = squall("compare " + dup.string() + " " + good_report().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, dup.string() + ": /tasks/total: duplicate key \"total\"\n");
  EXPECT_EQ(r.out, "");
}

TEST(HostileInputTest, CompareRefusesTextThatIsNotJsonAtItsLineAndColumn) {
  const fs::path text = temp_path("hostile-text.json");
  std::ofstream(text) << "{\n  \"a\": x\n}\n";
  const Result r = squall("compare " + text.string() + " " + good_report().string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, text.string() +
                       ":2:8: not JSON: syntax error while parsing value - invalid literal; last read: '\"a\": x'\n");
}

TEST(HostileInputTest, CompareRefusesNegativeHugeAndSubnormalHeadlineNumbers) {
  const fs::path neg = edited_report("hostile-neg.json", "\"succeeded\": ", "\"succeeded\": -5, \"x\": ");
  const fs::path good = good_report();
  const Result negative = squall("compare " + neg.string() + " " + good.string());
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_EQ(negative.err, neg.string() +
                              ": not a squall report of version 1: /tasks/succeeded is -5, expected a "
                              "number from 0 to 9007199254740992 (2^53)\n");
  const fs::path big = edited_report("hostile-1e308.json", kTasksTotal, std::string(kTasksTotal) + "-1e308, \"x\": ");
  const Result huge = squall("compare " + good.string() + " " + big.string());
  EXPECT_EQ(huge.exit_code, 2);
  EXPECT_EQ(huge.err, big.string() +
                          ": not a squall report of version 1: /tasks/total is -1e+308, expected a number "
                          "from 0 to 9007199254740992 (2^53)\n");
  const fs::path tiny = edited_report("hostile-tiny.json", kTasksTotal, std::string(kTasksTotal) + "5e-324, \"x\": ");
  const Result subnormal = squall("compare " + tiny.string() + " " + good.string());
  EXPECT_EQ(subnormal.exit_code, 2);
  EXPECT_EQ(subnormal.err, tiny.string() +
                               ": not a squall report of version 1: /tasks/total is 5e-324, expected 0 or "
                               "at least 0.000001 (reports round to 6 decimals)\n");
}

TEST(HostileInputTest, CompareEscapesControlCharactersOfAReportsScenarioName) {
  const fs::path red =
      edited_report("hostile-red.json", "\"scenario\": \"quickstart\"", "\"scenario\": \"a\\u001b[31mred\\nX\"");
  const Result r = squall("compare " + good_report().string() + " " + red.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "squall compare: warning: the reports are of different scenarios: \"quickstart\" and "
            "\"a\\u001b[31mred\\u000aX\"\n");
}

// Runs `args`, whose --report json|junit=scenarios/corpora/crm.jsonl names the corpus the
// quickstart reads, and expects it refused by `command` with nothing written.
void expect_corpus_kept(const std::string& args, const std::string& command, const std::string& format) {
  const fs::path corpus = fs::path(SQUALL_SOURCE_DIR) / "scenarios/corpora/crm.jsonl";
  const std::string before = read_file(corpus);
  const Result r = squall(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall " + command + ": cannot write the " + format + " report (--report " + format +
                       "=scenarios/corpora/crm.jsonl): \"scenarios/corpora/crm.jsonl\" is an input of this run "
                       "(scenarios/corpora/crm.jsonl); the report would overwrite it\n");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_file(corpus), before);
}

TEST(HostileInputTest, CompareNeverWritesOverACorpusTheScenarioReads) {
  expect_corpus_kept(
      "compare scenarios/quickstart.json --policy scenarios/policies/naive-retry.json --report "
      "json=scenarios/corpora/crm.jsonl",
      "compare", "json");
}

TEST(HostileInputTest, CiNeverWritesOverACorpusTheScenarioReads) {
  expect_corpus_kept("ci scenarios/quickstart.json --report junit=scenarios/corpora/crm.jsonl", "ci", "junit");
}

TEST(HostileInputTest, CiNeverAppendsItsStepSummaryToAScenarioOrACorpus) {
  const fs::path md = temp_path("hostile-ci.md");
  const std::string scenario = read_file(fs::path(SQUALL_SOURCE_DIR) / "scenarios/quickstart.json");
  const Result onto_scenario = squall("ci scenarios/quickstart.json --report markdown=" + md.string(),
                                      "GITHUB_STEP_SUMMARY=scenarios/quickstart.json ");
  EXPECT_EQ(onto_scenario.exit_code, 2);
  EXPECT_EQ(onto_scenario.err,
            "squall ci: cannot append the markdown summary to $GITHUB_STEP_SUMMARY: \"scenarios/quickstart.json\" is "
            "an input of this run (scenarios/quickstart.json); the report would overwrite it\n");
  const Result onto_corpus = squall("ci scenarios/quickstart.json --report markdown=" + md.string(),
                                    "GITHUB_STEP_SUMMARY=scenarios/corpora/crm.jsonl ");
  EXPECT_EQ(onto_corpus.exit_code, 2);
  EXPECT_EQ(onto_corpus.err,
            "squall ci: cannot append the markdown summary to $GITHUB_STEP_SUMMARY: \"scenarios/corpora/crm.jsonl\" "
            "is an input of this run (scenarios/corpora/crm.jsonl); the report would overwrite it\n");
  EXPECT_EQ(read_file(fs::path(SQUALL_SOURCE_DIR) / "scenarios/quickstart.json"), scenario);
  EXPECT_FALSE(fs::exists(md));
}

TEST(HostileInputTest, CiEscapesControlCharactersOfFileNamesInEveryLine) {
  std::string text = read_file(fs::path(SQUALL_SOURCE_DIR) / "scenarios/quickstart.json");
  const std::size_t at = text.find("\"corpora/crm.jsonl\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 19, std::string("\"") + SQUALL_SOURCE_DIR + "/scenarios/corpora/crm.jsonl\"");
  const std::size_t threshold = text.find("\"p(95)<20s\"");
  ASSERT_NE(threshold, std::string::npos);
  text.replace(threshold, 11, "\"p(95)<1ms\"");  // fails, so the repro line is printed
  const fs::path dir = temp_path("hostile-ci-names");
  fs::create_directories(dir);
  const fs::path file = dir / "a\x1b[31mred\nX.json";
  std::ofstream(file) << text;
  const Result r = squall("ci '" + dir.string() + "'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string shown = dir.string() + "/a\\u001b[31mred\\u000aX.json";
  EXPECT_NE(r.out.find("FAIL  " + shown + " (seed 42, 1 of "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nFAIL   " + shown + "  "), std::string::npos) << r.out;  // the table
  EXPECT_NE(r.out.find("\nthreshold failed: " + shown + ": "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("a\\u001b[31mred\\u000aX.json' --seed 42\n"), std::string::npos) << r.out;  // the repro line
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
}

TEST(HostileInputTest, RunEscapesControlCharactersOfARefusedReportPath) {
  const Result r = squall("run scenarios/quickstart.json --out '/nonexistent\x1b[31m/x.json'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "squall: cannot write the json report (--out /nonexistent\\u001b[31m/x.json): directory "
            "\"/nonexistent\\u001b[31m\" does not exist\n");
  EXPECT_EQ(r.out, "");
}

}  // namespace
