// Thresholds on the client_* metrics (reports/client_metrics.hpp): measured from a live
// run's ClientReport, and not evaluated (JUnit skipped, never held) without one.
#include <gtest/gtest.h>

#include "reports/json_writer.hpp"
#include "reports/report.hpp"
#include "reports/text_summary.hpp"
#include "reports/writers/junit_writer.hpp"
#include "reports/writers/markdown_writer.hpp"

namespace squall {
namespace {

std::vector<Threshold> client_thresholds() {
  std::vector<Threshold> out;
  for (const auto& [metric, expression] : std::vector<std::pair<std::string, std::string>>{
           {"client_retries{layer:sdk}", "count==2"},
           {"client_retry_amplification{client:a}", "max<=2"},
           {"client_retries_against_advice{reason:status_400}", "count==0"},
           {"client_peak_concurrency", "max<3"},
           {"provider_calls", "count>=0"}}) {
    out.push_back(std::get<Threshold>(parse_threshold(metric, expression)));
  }
  return out;
}

ClientReport two_clients() {
  ClientReport c;
  ClientRow a;
  a.client = "a";
  a.attempts = 3;
  a.logical = 1;
  a.retries = {0, 2, 0};
  a.peak_concurrency = 1;
  a.by_attempts = {std::vector<std::uint64_t>{0, 1}, {0, 0, 0, 1}, {0, 1}, {0, 0, 0, 1}};
  ClientRow b;
  b.client = "b";
  b.attempts = 2;
  b.logical = 2;
  b.peak_concurrency = 2;
  b.against_advice[2][static_cast<std::size_t>(AdviceReason::status_400)] = 1;
  b.by_attempts = {std::vector<std::uint64_t>{0, 2}, {0, 2}, {0, 2}, {0, 2}};
  c.clients = {a, b};
  return c;
}

TEST(ClientThresholds, AreMeasuredFromALiveRunsClients) {
  const ClientReport clients = two_clients();
  const Report rep = build_report(Recorder(), RunInfo{"live", 1, kSecond}, client_thresholds(), &clients);
  ASSERT_EQ(rep.thresholds.size(), 5U);
  EXPECT_EQ(rep.thresholds[0].observed, 2.0);
  EXPECT_TRUE(rep.thresholds[0].passed);
  EXPECT_EQ(rep.thresholds[1].observed, 3.0);  // a's one logical request took 3 attempts
  EXPECT_FALSE(rep.thresholds[1].passed);
  EXPECT_EQ(rep.thresholds[2].observed, 1.0);
  EXPECT_FALSE(rep.thresholds[2].passed);
  EXPECT_EQ(rep.thresholds[3].observed, 2.0);
  EXPECT_TRUE(rep.thresholds[3].passed);
  for (const ThresholdResult& t : rep.thresholds) EXPECT_EQ(t.not_evaluated, "");
}

TEST(ClientThresholds, AreNotEvaluatedInASimulatedRun) {
  const Report rep = build_report(Recorder(), RunInfo{"sim", 1, kSecond}, client_thresholds());
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(rep.thresholds[i].not_evaluated, "not measured (squall serve only)");
    EXPECT_EQ(rep.thresholds[i].observed, std::nullopt);
  }
  EXPECT_EQ(rep.thresholds[4].not_evaluated, "");
  EXPECT_TRUE(rep.all_thresholds_passed());
  const nlohmann::ordered_json j = to_json(rep);
  EXPECT_EQ(j["thresholds"][0].dump(),
            R"({"metric":"client_retries{layer:sdk}","expression":"count==2","observed":null,"passed":null,)"
            R"x("not_evaluated":"not measured (squall serve only)"})x");
  EXPECT_FALSE(j.contains("clients"));
  EXPECT_NE(text_summary(rep, false)
                .find("- client_retries{layer:sdk} : count==2  not evaluated: not measured (squall "
                      "serve only)\n"),
            std::string::npos);
  EXPECT_NE(markdown_summary(rep).find("| – | `client_peak_concurrency` | `max<3` | not evaluated: not measured "
                                       "(squall serve only) |\n"),
            std::string::npos);
  const std::string xml = junit_xml(rep);
  EXPECT_NE(xml.find(R"(tests="5" failures="0" errors="0" skipped="4")"), std::string::npos) << xml;
  EXPECT_NE(xml.find(R"x(<skipped message="not measured (squall serve only)"/>)x"), std::string::npos) << xml;
}

TEST(ClientThresholds, ALiveReportCarriesItsClients) {
  ClientReport clients = two_clients();
  Report rep = build_report(Recorder(), RunInfo{"live", 1, kSecond}, {}, &clients);
  rep.clients = clients;
  const nlohmann::ordered_json j = to_json(rep);
  EXPECT_EQ(j["clients"]["retry_amplification"].dump(),
            R"({"overall":1.666667,"gateway":1.0,"sdk":1.666667,"application":1.0})");
  EXPECT_EQ(j["clients"]["by_client"]["b"]["retries_against_advice"]["by_layer"].dump(),
            R"({"gateway":0,"sdk":0,"application":1})");
}

}  // namespace
}  // namespace squall
