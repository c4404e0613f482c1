// Escalation in a whole run (engine/strategies/escalation.hpp): one ticket per task at
// most, tickets that follow the task outcomes under the default rules, determinism, and
// no effect on anything but tickets.
#include <gtest/gtest.h>

#include <variant>

#include "reports/json_writer.hpp"
#include "tests/sim/world_test_support.hpp"

namespace squall {
namespace {

using test::file_scenario;
using test::run_world;

constexpr std::string_view kOutage = "scenarios/incidents/openai-outage-model-fallback.json";

std::uint64_t tickets(const Report& r, EscalationLevel level) { return r.escalations.by_level[index_of(level)]; }

TEST(WorldEscalationTest, DefaultRulesTicketEveryFailedTaskCriticalAndNoTaskTwice) {
  const Scenario scenario = file_scenario(kOutage);
  const Report r = run_world(scenario, scenario.seed);
  const std::uint64_t failed = r.tasks.by_status[index_of(TaskStatus::failed)];
  ASSERT_GT(failed, 0U);
  EXPECT_EQ(tickets(r, EscalationLevel::critical_failure), failed);
  EXPECT_EQ(r.escalations.by_level_and_reason[index_of(EscalationLevel::critical_failure)]
                                             [index_of(EscalationCondition::failed)],
            failed);
  // Every degraded task here succeeded on the backup: model_switch, by its fallbacks.
  EXPECT_EQ(tickets(r, EscalationLevel::model_switch), r.tasks.by_status[index_of(TaskStatus::degraded)]);
  EXPECT_LE(r.escalations.total, r.tasks.total);
  EXPECT_GT(tickets(r, EscalationLevel::auto_retry), 0U);
}

TEST(WorldEscalationTest, TicketsAreDeterministic) {
  const Scenario scenario = file_scenario(kOutage);
  EXPECT_EQ(to_json_text(run_world(scenario, 5)), to_json_text(run_world(scenario, 5)));
}

TEST(WorldEscalationTest, EscalationChangesNothingButTickets) {
  // Escalation is not in the call path: without its item, every call and outcome is the
  // same; only the tickets (and the fingerprint, which folds them) go.
  const Scenario with = file_scenario(kOutage);
  Scenario without = with;
  for (auto& [tool, strategies] : without.policy) {
    std::erase_if(strategies, [](const StrategyConfig& s) { return std::holds_alternative<EscalationConfig>(s); });
  }
  const Report a = run_world(with, 11);
  const Report b = run_world(without, 11);
  EXPECT_GT(a.escalations.total, 0U);
  EXPECT_EQ(b.escalations.total, 0U);
  EXPECT_EQ(a.tasks.by_status, b.tasks.by_status);
  EXPECT_EQ(a.tokens.input, b.tokens.input);
  EXPECT_EQ(a.cost.total_usd, b.cost.total_usd);
  ASSERT_EQ(a.providers.size(), b.providers.size());
  for (std::size_t i = 0; i < a.providers.size(); ++i) EXPECT_EQ(a.providers[i].by_outcome, b.providers[i].by_outcome);
}

}  // namespace
}  // namespace squall
