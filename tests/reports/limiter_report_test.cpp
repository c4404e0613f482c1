// An adaptive_concurrency limiter's events through the recorder (its limit per window and
// its dips), the report model, the threshold metrics and the JSON and text writers.
#include <gtest/gtest.h>

#include "reports/json_writer.hpp"
#include "reports/metric_values.hpp"
#include "reports/recorder.hpp"
#include "reports/report.hpp"
#include "reports/text_summary.hpp"

namespace squall {
namespace {

void limit(Recorder& r, LimitAction action, TimePoint at, std::int32_t previous, std::int32_t now) {
  r.on_limit(LimitEvent{1, "model", action, at, now, previous, 0, 0});
}

// Windows of 10 s. The limit starts at 20 (1 s), halves to 10 at 12 s and 5 at 13 s (one
// dip, level 20), climbs back to 20 at 27 s (recovered after 15 s), dips again to 18 at
// 41 s (level 20), never recovers in a run of 60 s (19 s to its end). One rejection.
void feed(Recorder& r) {
  limit(r, LimitAction::start, kSecond, 20, 20);
  limit(r, LimitAction::decrease, 12 * kSecond, 20, 10);
  limit(r, LimitAction::decrease, 13 * kSecond, 10, 5);
  limit(r, LimitAction::rejected, 13 * kSecond, 5, 5);
  for (int i = 6; i <= 19; ++i) limit(r, LimitAction::increase, 14 * kSecond, i - 1, i);
  limit(r, LimitAction::increase, 27 * kSecond, 19, 20);
  limit(r, LimitAction::decrease, 41 * kSecond, 20, 18);
}

constexpr Nanos kRun = 60 * kSecond;

std::optional<double> observed(const Recorder& r, std::string_view metric, std::string_view expression) {
  auto t = parse_threshold(metric, expression);
  if (auto* error = std::get_if<std::string>(&t)) {
    ADD_FAILURE() << *error;
    return std::nullopt;
  }
  return observe(r, std::get<Threshold>(t), kRun);
}

TEST(LimiterReportTest, RecorderKeepsTheLimitPerWindowAndItsDips) {
  Recorder r;
  feed(r);
  ASSERT_EQ(r.limiters().size(), 1u);
  const LimiterStats& s = r.limiters()[0];
  EXPECT_EQ(s.initial, 20);
  EXPECT_EQ(s.current, 18);
  EXPECT_EQ(s.lowest, 5);
  EXPECT_EQ(s.actions[static_cast<std::size_t>(LimitAction::increase)], 15u);
  EXPECT_EQ(s.actions[static_cast<std::size_t>(LimitAction::rejected)], 1u);
  const std::vector<LimitRange> series = s.series(6);
  ASSERT_EQ(series.size(), 6u);
  EXPECT_EQ(series[0].lowest, 20);  // window 0: from 1 s
  EXPECT_EQ(series[1].lowest, 5);   // 10-20 s: 20 (carried), 10, 5, up to 19
  EXPECT_EQ(series[1].highest, 20);
  EXPECT_EQ(series[1].last, 19);
  EXPECT_EQ(series[2].lowest, 19);  // 20-30 s: back to 20 at 27 s
  EXPECT_EQ(series[2].last, 20);
  EXPECT_EQ(series[4].lowest, 18);  // 40-50 s
  EXPECT_EQ(series[5].lowest, 18);  // carried to the run's end
  const std::vector<LimitDip> dips = s.recoveries(kRun);
  ASSERT_EQ(dips.size(), 2u);
  EXPECT_EQ(dips[0].level, 20);
  EXPECT_EQ(dips[0].recovery, 15 * kSecond);
  EXPECT_TRUE(dips[0].recovered);
  EXPECT_EQ(dips[1].recovery, 19 * kSecond);  // open: to the run's end
  EXPECT_FALSE(dips[1].recovered);
}

TEST(LimiterReportTest, ThresholdsReadTheLowestLimitsAndTheRecoveryTimes) {
  Recorder r;
  feed(r);
  EXPECT_EQ(observed(r, "concurrency_limit{tool:model}", "min>=8"), 5);
  EXPECT_EQ(observed(r, "concurrency_limit", "max>0"), 20);
  EXPECT_EQ(observed(r, "limit_recovery_time{tool:model}", "max<30s"), 19000);  // ms
  EXPECT_EQ(observed(r, "limit_recovery_time", "min<30s"), 15000);
  EXPECT_EQ(observed(r, "concurrency_limit{tool:other}", "min>=8"), std::nullopt);  // no samples
}

TEST(LimiterReportTest, ALimiterThatNeverDippedRecoveredInNoTime) {
  Recorder r;
  limit(r, LimitAction::start, kSecond, 20, 20);
  EXPECT_EQ(observed(r, "limit_recovery_time{tool:model}", "max<30s"), 0);
  EXPECT_EQ(observed(r, "limit_recovery_time{tool:other}", "max<30s"), std::nullopt);  // no such limiter
}

TEST(LimiterReportTest, JsonAndTextShowTheLimiter) {
  Recorder r;
  feed(r);
  const Report rep = build_report(r, RunInfo{"s", 1, kRun}, {});
  ASSERT_EQ(rep.limiters.size(), 1u);
  const nlohmann::ordered_json j = to_json(rep);
  const nlohmann::ordered_json& l = j.at("limiters").at("model");
  EXPECT_EQ(l.at("initial_limit"), 20);
  EXPECT_EQ(l.at("final_limit"), 18);
  EXPECT_EQ(l.at("lowest_limit"), 5);
  EXPECT_EQ(l.at("decrease"), 3);
  EXPECT_EQ(l.at("rejected"), 1);
  EXPECT_EQ(l.at("dips"), 2);
  EXPECT_EQ(l.at("dips_recovered"), 1);
  EXPECT_EQ(l.at("dip_list").at(0).at("recovery_ms"), 15000.0);
  EXPECT_EQ(l.at("limit_by_window").at("lowest"), (nlohmann::ordered_json{20, 5, 19, 20, 18, 18}));
  EXPECT_NE(text_summary(rep, false).find("limit model"), std::string::npos);
  // A run without a limiter has no section at all.
  EXPECT_FALSE(to_json(build_report(Recorder{}, RunInfo{"s", 1, kRun}, {})).contains("limiters"));
}

}  // namespace
}  // namespace squall
