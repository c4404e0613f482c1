// Faults that line up across policies (DESIGN section 3): two policies run on one seed
// meet the same fault decisions on every attempt they share, because the chaos layer
// keys its decisions by (provider, task, step, attempt) and time, not by call count.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "sim/run.hpp"
#include "sim/scenario_loader.hpp"
#include "world_test_support.hpp"

namespace squall {
namespace {

// Each attempt's status by (task, tool, provider, attempt number).
class AttemptLog final : public EventSink {
 public:
  void on_attempt(const AttemptEvent& e) override {
    statuses[{e.task_id, std::string(e.tool), std::string(e.provider), e.attempt}] = {e.status, e.started};
  }
  std::map<std::tuple<std::uint64_t, std::string, std::string, std::int32_t>, std::pair<int, TimePoint>> statuses;
};

TEST(CommonFaultsTest, TwoPoliciesOnOneSeedMeetTheSameFaultsOnSharedAttempts) {
  // The launch-surge scenario under its own policy (jittered backoff, a breaker) and under
  // naive immediate retries: the calls differ in number and in time, yet every attempt
  // both made at the same virtual time in the same fault window got the same status. An
  // attempt made at another time may fall in another window, so only same-time attempts
  // are compared; they are many (every task's first attempt of its first step, at least).
  const PreparedScenario prepared(test::file_scenario("scenarios/incidents/launch-surge-429-storm.json"));
  const auto naive = load_policy_file(std::string(SQUALL_SOURCE_DIR) + "/scenarios/policies/naive-retry.json");
  ASSERT_TRUE(naive.ok());
  AttemptLog careful_log;
  AttemptLog naive_log;
  const Report careful = prepared.run(7, Provenance{}, &careful_log);
  const Report blind = prepared.run(*naive.policy, 7, Provenance{}, &naive_log);
  ASSERT_NE(test::provider_calls(careful), test::provider_calls(blind));
  std::size_t shared = 0;
  std::size_t faulty = 0;
  for (const auto& [attempt, careful_status] : careful_log.statuses) {
    const auto other = naive_log.statuses.find(attempt);
    if (other == naive_log.statuses.end() || other->second.second != careful_status.second) continue;
    // Status 0 is no answer: a timeout either policy's own deadline may cut differently.
    if (careful_status.first == 0 || other->second.first == 0) continue;
    ++shared;
    faulty += careful_status.first != 200 ? 1 : 0;
    EXPECT_EQ(other->second.first, careful_status.first)
        << "task " << std::get<0>(attempt) << " " << std::get<1>(attempt) << " attempt " << std::get<3>(attempt);
  }
  EXPECT_GT(shared, 1000U);
  EXPECT_GT(faulty, 100U);
}

}  // namespace
}  // namespace squall
