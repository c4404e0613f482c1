// Golden reports: the JSON reports of shipped scenarios at their own seeds, stored in
// tests/golden/ and compared byte for byte. Determinism tests compare a run with another
// run of the same build; these compare it with what earlier builds wrote, so a change that
// alters any figure of a shipped scenario (an event tie-break, a stream name, a rounding)
// fails here until the stored report is rewritten, and the commit says so.
//
// To rewrite them after an intended change:
//   SQUALL_UPDATE_GOLDEN=1 ctest --preset release -R GoldenReport
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "reports/json_writer.hpp"
#include "sim/run.hpp"
#include "tests/sim/world_test_support.hpp"

namespace squall {
namespace {

namespace fs = std::filesystem;

struct Golden {
  const char* scenario;  // relative to the source directory
  const char* report;    // in tests/golden/
};

constexpr Golden kGolden[] = {
    {"scenarios/incidents/launch-surge-429-storm.json", "launch-surge-429-storm.json"},
    {"scenarios/incidents/openai-outage-model-fallback.json", "openai-outage-model-fallback.json"},
    {"scenarios/ci/llm-context-window-fallback.json", "llm-context-window-fallback.json"},
    {"scenarios/ci/tool-argument-errors-reflection.json", "tool-argument-errors-reflection.json"},
    {"scenarios/incidents/pinecone-index-outage-rag.json", "pinecone-index-outage-rag.json"},
    {"scenarios/ci/vector-threshold-relaxation.json", "vector-threshold-relaxation.json"},
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Test names show the scenario, not the struct's bytes.
void PrintTo(const Golden& g, std::ostream* os) { *os << g.scenario; }

class GoldenReportTest : public testing::TestWithParam<Golden> {};

TEST_P(GoldenReportTest, MatchesTheStoredReportByteForByte) {
  const Golden& g = GetParam();
  const PreparedScenario prepared(test::file_scenario(g.scenario));
  const std::uint64_t seed = prepared.scenario().seed;
  Provenance provenance;
  provenance.scenario_file = g.scenario;
  provenance.repro = "squall run " + std::string(g.scenario) + " --seed " + std::to_string(seed);
  // The version is the build's; the stored reports are written with a fixed one so that a
  // version bump alone does not rewrite them.
  Report report = prepared.run(seed, provenance);
  report.produced_by.squall_version = "golden";
  const std::string actual = to_json_text(report);

  const fs::path stored = fs::path(SQUALL_SOURCE_DIR) / "tests/golden" / g.report;
  if (std::getenv("SQUALL_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(stored, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << stored;
  }
  ASSERT_TRUE(fs::exists(stored)) << stored << " is missing; run with SQUALL_UPDATE_GOLDEN=1 to write it";
  const std::string expected = read_file(stored);
  if (actual == expected) return;
  // Name the first difference rather than dumping two reports.
  std::size_t at = 0;
  while (at < actual.size() && at < expected.size() && actual[at] == expected[at]) ++at;
  const std::size_t from = at < 80 ? 0 : at - 80;
  FAIL() << g.scenario << ": the report differs from " << stored << " at byte " << at << "\n  stored: ..."
         << expected.substr(from, 160) << "\n  now:    ..." << actual.substr(from, 160)
         << "\nIf the change is intended, rewrite with SQUALL_UPDATE_GOLDEN=1 and say so in the commit message.";
}

INSTANTIATE_TEST_SUITE_P(Shipped, GoldenReportTest, testing::ValuesIn(kGolden),
                         [](const testing::TestParamInfo<Golden>& param) {
                           std::string name = param.param.report;
                           name = name.substr(0, name.find('.'));
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace squall
