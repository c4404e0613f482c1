#include <gtest/gtest.h>

#include <fmt/core.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"

namespace squall::test_support {
namespace {

constexpr const char* kIncident = "scenarios/incidents/internal-api-retry-storm.json";

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

TEST(ReplayCommandTest, ReadsARunsOtlpExportBackIntoItsTasks) {
  const fs::path otlp = temp_path("run.otlp.json");
  const fs::path report = temp_path("run.json");
  ASSERT_EQ(squall(std::string("run ") + kIncident + " -q --out " + report.string() + " --report otlp=" + otlp.string())
                .exit_code,
            0);
  const nlohmann::json rep = nlohmann::json::parse(read_file(report));
  const Result r = squall("replay " + otlp.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(otlp.string() + " (otlp): "), std::string::npos) << r.out;
  const std::string tasks = fmt::format("grouped: {} tasks (0 without attempts)", rep["tasks"]["total"].get<int>());
  EXPECT_NE(r.out.find(tasks), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("irregular: 0 duplicates skipped, 0 orphans put under their trace, 0 ends before start"),
            std::string::npos)
      << r.out;
}

TEST(ReplayCommandTest, AMalformedTraceExitsTwoNamingFileSpanAndField) {
  const fs::path bad = temp_path("bad.json");
  write(bad, R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c",)"
             R"("spanId":"00f067aa0ba902b7","startTimeUnixNano":"1","endTimeUnixNano":true}]}]}]})");
  const Result r = squall("replay " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall replay: " + bad.string() +
                       ": span 0 (/resourceSpans/0/scopeSpans/0/spans/0): endTimeUnixNano: expected an integer count "
                       "of nanoseconds (a decimal string or a number), got true\n");
  EXPECT_EQ(r.out, "");
}

TEST(ReplayCommandTest, AnUnknownFormatIsAUsageError) {
  const Result r = squall("replay x.json --format zipkin");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "squall replay: --format expects otlp, litellm or auto, got \"zipkin\"\n");
}

}  // namespace
}  // namespace squall::test_support
