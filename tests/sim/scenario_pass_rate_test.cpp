// k6's object form of a threshold with the pass rate it needs over `--seeds`
// (reports/pass_rate.hpp): read into Threshold::pass_rate, errors at their paths.
#include <gtest/gtest.h>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::kBaseFile;
using test::only;
using test::with;

Json object_form(std::string_view pass_rate) {
  return Json::array({Json{{"threshold", "rate>=0.9"}, {"pass_rate", std::string(pass_rate)}}});
}

TEST(ScenarioPassRateTest, TheObjectFormCarriesItsPassRate) {
  const Json doc = with(base_scenario(), "/thresholds/task_success",
                        Json::array({"rate>=0.5", Json{{"threshold", "rate>=0.9"}, {"pass_rate", "> 0.75"}},
                                     Json{{"threshold", "rate>=0.95"}}}));
  const LoadResult loaded = load_scenario_text(doc.dump(), kBaseFile);
  ASSERT_TRUE(loaded.errors.empty());
  const std::vector<Threshold>& t = loaded.scenario->thresholds;
  const auto at = [&](std::string_view expression) {
    return *std::find_if(t.begin(), t.end(), [&](const Threshold& x) { return x.expression == expression; });
  };
  EXPECT_FALSE(at("rate>=0.5").pass_rate);
  ASSERT_TRUE(at("rate>=0.9").pass_rate);
  EXPECT_EQ(at("rate>=0.9").pass_rate->op, Comparison::gt);
  EXPECT_DOUBLE_EQ(at("rate>=0.9").pass_rate->rate, 0.75);
  EXPECT_FALSE(at("rate>=0.95").pass_rate);
}

TEST(ScenarioPassRateTest, AMalformedPassRateIsReportedAtItsPath) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/task_success", object_form("90%"))),
            only("/thresholds/task_success/0/pass_rate",
                 "expected a pass rate such as \">=0.9\" (>= or > and a fraction of seeds in [0, 1]), got \"90%\""));
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/task_success", object_form(">=1.5"))),
            only("/thresholds/task_success/0/pass_rate", "a pass rate is a fraction of seeds in [0, 1], got 1.5"));
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/task_success",
                           Json::array({Json{{"threshold", "rate>=0.9"}, {"pass_rate", 0.9}}}))),
            only("/thresholds/task_success/0/pass_rate", "expected a string, got 0.9"));
}

TEST(ScenarioPassRateTest, TheObjectNeedsAThresholdAndNoOtherKey) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/task_success", Json::array({Json{{"pass_rate", ">=0.9"}}}))),
            only("/thresholds/task_success/0", "missing required key \"threshold\""));
  const std::vector<ValidationError> unknown =
      errors_of(with(base_scenario(), "/thresholds/task_success",
                     Json::array({Json{{"threshold", "rate>=0.9"}, {"abortOnFail", true}}})));
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].path, "/thresholds/task_success/0/abortOnFail");
  EXPECT_EQ(errors_of(with(base_scenario(), "/thresholds/task_latency",
                           Json::array({Json{{"threshold", "p(99)<25"}, {"pass_rate", ">=0.9"}}}))),
            only("/thresholds/task_latency/0/threshold",
                 "expected a duration with a unit for time metric \"task_latency\", such as \"p(99)<25ms\", got "
                 "\"p(99)<25\""));
}

}  // namespace
}  // namespace squall
