#include "engine/strategies/escalation.hpp"

#include <gtest/gtest.h>

#include "engine/call.hpp"
#include "engine/policy.hpp"
#include "engine/strategies/retry.hpp"
#include "engine/task_runner.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Harness;
using test::Reply;
using test::ScriptedProvider;

constexpr Nanos ms = kMillisecond;

EscalationConfig rules(std::vector<EscalationRule> list) {
  EscalationConfig c;
  c.rules = std::move(list);
  return c;
}

// "<level> <reason>", or "none" when no rule fired.
std::string level_of(const TaskContext& task) {
  if (!task.escalation.raised) return "none";
  return fmt::format("{} {}", to_string(task.escalation.level), to_string(task.escalation.reason));
}

// A task whose history saw `failed` failed attempts (server_error) after `succeeded`
// successes.
TaskContext task_with(std::uint32_t failed, std::uint32_t succeeded = 0) {
  TaskContext task;
  for (std::uint32_t i = 0; i < failed; ++i) task.history.saw_attempt(OutcomeKind::server_error);
  for (std::uint32_t i = 0; i < succeeded; ++i) task.history.saw_attempt(OutcomeKind::success);
  return task;
}

TEST(EscalationTest, VocabulariesAreInSeverityAndDeclarationOrder) {
  std::vector<std::string_view> levels;
  for (EscalationLevel l : all_escalation_levels()) levels.push_back(to_string(l));
  EXPECT_EQ(levels, (std::vector<std::string_view>{"auto_retry", "model_switch", "human_review", "urgent_action",
                                                   "critical_failure"}));
  std::vector<std::string_view> conditions;
  for (EscalationCondition c : all_escalation_conditions()) conditions.push_back(to_string(c));
  EXPECT_EQ(conditions, (std::vector<std::string_view>{"failed_attempts", "fallbacks", "fallbacks_exhausted",
                                                       "cost_usd", "tokens", "degraded", "safe_failed", "failed"}));
  EXPECT_EQ(argument_of(EscalationCondition::failed_attempts), ConditionArgument::count);
  EXPECT_EQ(argument_of(EscalationCondition::cost_usd), ConditionArgument::amount);
  EXPECT_EQ(argument_of(EscalationCondition::failed), ConditionArgument::flag);
}

TEST(EscalationTest, DefaultRulesFollowSeed004sLadder) {
  const auto d = EscalationConfig::default_rules();
  ASSERT_EQ(d.size(), 5U);
  EXPECT_EQ(d[0].when, EscalationCondition::failed_attempts);
  EXPECT_EQ(d[0].at_least, 1);
  EXPECT_EQ(d[0].level, EscalationLevel::auto_retry);
  EXPECT_EQ(d[1].when, EscalationCondition::fallbacks);
  EXPECT_EQ(d[1].level, EscalationLevel::model_switch);
  EXPECT_EQ(d[2].when, EscalationCondition::safe_failed);
  EXPECT_EQ(d[2].level, EscalationLevel::human_review);
  EXPECT_EQ(d[3].when, EscalationCondition::fallbacks_exhausted);
  EXPECT_EQ(d[3].level, EscalationLevel::urgent_action);
  EXPECT_EQ(d[4].when, EscalationCondition::failed);
  EXPECT_EQ(d[4].level, EscalationLevel::critical_failure);
}

TEST(EscalationTest, NoRuleFiresForACleanTask) {
  const EscalationConfig config;  // the defaults
  TaskContext task = task_with(0, 3);
  EXPECT_FALSE(escalate(&config, task, std::nullopt));
  EXPECT_FALSE(escalate(&config, task, TaskStatus::succeeded));
  EXPECT_EQ(level_of(task), "none");
}

TEST(EscalationTest, WithoutRulesATaskNeverEscalates) {
  TaskContext task;
  task.history.saw_attempt(OutcomeKind::timeout);
  EXPECT_FALSE(escalate(nullptr, task, TaskStatus::failed));
  EXPECT_EQ(level_of(task), "none");
}

TEST(EscalationTest, FailedAttemptsHoldAtTheThreshold) {
  const auto config = rules({{EscalationCondition::failed_attempts, 3, EscalationLevel::human_review}});
  TaskContext two = task_with(2, 1);
  EXPECT_FALSE(escalate(&config, two, TaskStatus::succeeded));
  EXPECT_EQ(level_of(two), "none");
  TaskContext three = task_with(3);
  EXPECT_TRUE(escalate(&config, three, std::nullopt));
  EXPECT_EQ(level_of(three), "human_review failed_attempts");
}

TEST(EscalationTest, FallbacksAndExhaustionReadTheHistory) {
  const auto config = rules({{EscalationCondition::fallbacks, 2, EscalationLevel::model_switch},
                             {EscalationCondition::fallbacks_exhausted, 0, EscalationLevel::urgent_action}});
  TaskContext task = task_with(1);
  task.history.fallbacks = 1;
  EXPECT_FALSE(escalate(&config, task, std::nullopt));
  task.history.fallbacks = 2;
  EXPECT_TRUE(escalate(&config, task, std::nullopt));
  EXPECT_EQ(level_of(task), "model_switch fallbacks");
  task.history.fallbacks_exhausted = true;
  EXPECT_TRUE(escalate(&config, task, std::nullopt));
  EXPECT_EQ(level_of(task), "urgent_action fallbacks_exhausted");
}

TEST(EscalationTest, CostAndTokensHoldAtOrAboveTheThreshold) {
  const auto config = rules({{EscalationCondition::cost_usd, 0.5, EscalationLevel::human_review},
                             {EscalationCondition::tokens, 10'000, EscalationLevel::urgent_action}});
  TaskContext task = task_with(0, 1);
  task.cost_spent_usd = 0.499;
  task.tokens_spent = 9'999;
  EXPECT_FALSE(escalate(&config, task, TaskStatus::succeeded));
  task.cost_spent_usd = 0.5;
  EXPECT_TRUE(escalate(&config, task, TaskStatus::succeeded));
  EXPECT_EQ(level_of(task), "human_review cost_usd");
  task.tokens_spent = 10'000;
  EXPECT_TRUE(escalate(&config, task, TaskStatus::succeeded));
  EXPECT_EQ(level_of(task), "urgent_action tokens");
}

TEST(EscalationTest, StatusRulesFireOnlyAtTaskEndWithTheirStatus) {
  const auto config = rules({{EscalationCondition::degraded, 0, EscalationLevel::auto_retry},
                             {EscalationCondition::safe_failed, 0, EscalationLevel::human_review},
                             {EscalationCondition::failed, 0, EscalationLevel::critical_failure}});
  for (const auto& [status, expected] :
       std::vector<std::pair<TaskStatus, std::string>>{{TaskStatus::succeeded, "none"},
                                                       {TaskStatus::degraded, "auto_retry degraded"},
                                                       {TaskStatus::safe_failed, "human_review safe_failed"},
                                                       {TaskStatus::failed, "critical_failure failed"}}) {
    TaskContext task = task_with(4);
    EXPECT_FALSE(escalate(&config, task, std::nullopt));  // no status before the end
    escalate(&config, task, status);
    EXPECT_EQ(level_of(task), expected) << to_string(status);
  }
}

TEST(EscalationTest, TheHighestLevelWinsAndTheFirstRuleAtItGivesTheReason) {
  const auto config = rules({{EscalationCondition::failed_attempts, 1, EscalationLevel::auto_retry},
                             {EscalationCondition::failed_attempts, 2, EscalationLevel::human_review},
                             {EscalationCondition::tokens, 1, EscalationLevel::human_review},
                             {EscalationCondition::failed_attempts, 3, EscalationLevel::model_switch}});
  TaskContext task = task_with(3);
  task.tokens_spent = 100;
  EXPECT_TRUE(escalate(&config, task, std::nullopt));
  // failed_attempts >= 2 and tokens >= 1 both give human_review, the highest that holds;
  // the first of them in list order is the reason. model_switch (listed later) is lower.
  EXPECT_EQ(level_of(task), "human_review failed_attempts");
}

TEST(EscalationTest, ALevelReachedIsKeptWithItsReason) {
  const auto config = rules({{EscalationCondition::tokens, 1, EscalationLevel::human_review},
                             {EscalationCondition::failed_attempts, 1, EscalationLevel::human_review},
                             {EscalationCondition::failed_attempts, 1, EscalationLevel::auto_retry}});
  TaskContext task = task_with(1);
  EXPECT_TRUE(escalate(&config, task, std::nullopt));
  EXPECT_EQ(level_of(task), "human_review failed_attempts");
  // Later the tokens rule holds too, at the same level: the earlier reason stays.
  task.tokens_spent = 5;
  EXPECT_FALSE(escalate(&config, task, TaskStatus::succeeded));
  EXPECT_EQ(level_of(task), "human_review failed_attempts");
}

TEST(EscalationTest, FindEscalationTakesTheListsItemAndBuildsNoStrategyForIt) {
  std::vector<StrategyConfig> list{RetryConfig{}, EscalationConfig{}};
  const EscalationConfig* found = find_escalation(list);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found, &std::get<EscalationConfig>(list[1]));
  EXPECT_EQ(find_escalation({RetryConfig{}}), nullptr);
  EXPECT_EQ(strategy_name(list[1]), "escalation");

  Harness h;
  ScriptedProvider provider(h.loop, std::vector<Reply>{{test::results(), 10 * ms}});
  const BuiltPipeline built =
      build_pipeline("search", list, provider, h.env, [](std::string_view) { return std::make_unique<FixedRng>(0); });
  EXPECT_EQ(built.pipeline->size(), 1U);  // retry only
}

// --- The task runner: tickets -------------------------------------------------------

struct Ticket {
  std::uint64_t task_id = 0;
  std::string template_name;
  std::string level;
  std::string reason;
  TimePoint at = 0;
  bool operator==(const Ticket&) const = default;
};

// Keeps tickets and, to check their order, the sequence of escalation and task events.
class TicketLog final : public EventSink {
 public:
  void on_escalation(const EscalationEvent& e) override {
    tickets.push_back(Ticket{e.task_id, std::string(e.template_name), std::string(to_string(e.level)),
                             std::string(to_string(e.reason)), e.at});
    sequence.push_back("escalation");
  }
  void on_task_finished(const TaskResult& r) override {
    sequence.push_back(fmt::format("task {} {}", to_string(r.status), r.finished / ms));
  }
  std::vector<Ticket> tickets;
  std::vector<std::string> sequence;
};

RetryConfig three_attempts() {
  RetryConfig c;
  c.max_attempts = 3;
  c.backoff = Backoff::constant;
  c.base_delay = 1000 * ms;
  c.jitter = Jitter::none;
  return c;
}

// One tool "search" (retry, 3 attempts, 1 s apart) over a scripted provider, and a
// one-step task plan "research" with `config` as its rules.
struct Agent {
  Agent(std::vector<Reply> script, const EscalationConfig* config)
      : provider(loop, std::move(script)),
        pipeline(test::make_pipeline(provider, env, std::make_unique<RetryStrategy>(three_attempts(), env, rng))),
        tool{"search", kNoProvider, pipeline.get(), config},
        runner(env) {
    plan.name = "research";
    plan.steps.push_back(StepPlan{&tool, false, true, 0, 0, {}});
    plan.resolve_escalation();
  }
  std::vector<std::string> run_one(std::uint64_t id = 1) {
    PoolQuery query;
    query.text = "acme";
    std::exception_ptr error;
    spawn(
        [](const TaskRunner& r, std::uint64_t task, const TaskPlan& p, const PoolQuery* q) -> Task<void> {
          co_await r.run(TaskContext{.id = task}, p, q);
        }(runner, id, plan, &query),
        &error);
    loop.run(100'000);
    if (error) std::rethrow_exception(error);
    return log.sequence;
  }

  EventLoop loop;
  TicketLog log;
  EngineEnv env{loop, loop, log};
  FixedRng rng{0};
  ScriptedProvider provider;
  std::unique_ptr<Pipeline> pipeline;
  ToolPlan tool;
  TaskRunner runner;
  TaskPlan plan;
};

TEST(EscalationRunnerTest, ACleanTaskHasNoTicket) {
  const EscalationConfig defaults;
  Agent agent({{test::results(), 100 * ms}}, &defaults);
  EXPECT_EQ(agent.run_one(), (std::vector<std::string>{"task succeeded 100"}));
  EXPECT_TRUE(agent.log.tickets.empty());
}

TEST(EscalationRunnerTest, ARetriedSuccessIsTicketedAutoRetryOnceAtTaskEnd) {
  // Attempt 1 at 0 ms: 503 after 100 ms; backoff 1 s; attempt 2 at 1100 ms succeeds after
  // 100 ms: the task ends at 1200 ms with one failed attempt (default rule 1).
  const EscalationConfig defaults;
  Agent agent({{test::status(503), 100 * ms}, {test::results(), 100 * ms}}, &defaults);
  EXPECT_EQ(agent.run_one(7), (std::vector<std::string>{"escalation", "task succeeded 1200"}));
  EXPECT_EQ(agent.log.tickets, (std::vector<Ticket>{{7, "research", "auto_retry", "failed_attempts", 1200 * ms}}));
}

TEST(EscalationRunnerTest, AFailedTaskIsTicketedOnceAtTheHighestLevel) {
  // Three 500s at 0, 1100 and 2200 ms, each answered after 100 ms: the task fails at
  // 2300 ms. failed_attempts >= 1 fired after the logical call (auto_retry); at task end
  // `failed` raises it to critical_failure: one ticket, at the highest level.
  const EscalationConfig defaults;
  Agent agent({{test::status(500), 100 * ms}}, &defaults);
  EXPECT_EQ(agent.run_one(3), (std::vector<std::string>{"escalation", "task failed 2300"}));
  EXPECT_EQ(agent.log.tickets, (std::vector<Ticket>{{3, "research", "critical_failure", "failed", 2300 * ms}}));
}

TEST(EscalationRunnerTest, AnEmptySearchIsASafeFailForHumanReview) {
  const EscalationConfig defaults;
  Agent agent({{test::no_results(), 100 * ms}}, &defaults);
  EXPECT_EQ(agent.run_one(), (std::vector<std::string>{"escalation", "task safe_failed 100"}));
  EXPECT_EQ(agent.log.tickets, (std::vector<Ticket>{{1, "research", "human_review", "safe_failed", 100 * ms}}));
}

TEST(EscalationRunnerTest, WithoutAnEscalationItemNoTaskIsTicketed) {
  Agent agent({{test::status(500), 100 * ms}}, nullptr);
  EXPECT_EQ(agent.run_one(), (std::vector<std::string>{"task failed 2300"}));
  EXPECT_TRUE(agent.log.tickets.empty());
}

TEST(EscalationRunnerTest, AHistoryRuleFiresWithoutAStatusRule) {
  const auto config = rules({{EscalationCondition::failed_attempts, 2, EscalationLevel::human_review}});
  Agent agent({{test::status(503), 100 * ms}, {test::status(503), 100 * ms}, {test::results(), 100 * ms}}, &config);
  EXPECT_EQ(agent.run_one(), (std::vector<std::string>{"escalation", "task succeeded 2300"}));
  EXPECT_EQ(agent.log.tickets, (std::vector<Ticket>{{1, "research", "human_review", "failed_attempts", 2300 * ms}}));
}

TEST(EscalationRunnerTest, ThePlansRulesAreThoseOfTheFirstStepWhoseToolHasAny) {
  const auto first = rules({{EscalationCondition::failed, 0, EscalationLevel::urgent_action}});
  const auto second = rules({{EscalationCondition::failed, 0, EscalationLevel::critical_failure}});
  ToolPlan none{"a", kNoProvider, nullptr, nullptr};
  ToolPlan one{"b", kNoProvider, nullptr, &first};
  ToolPlan two{"c", kNoProvider, nullptr, &second};
  TaskPlan plan;
  const auto step = [](const ToolPlan& tool) { return StepPlan{&tool, false, false, 0, 0, {}}; };
  plan.steps = {step(none), step(one), step(two)};
  plan.resolve_escalation();
  EXPECT_EQ(plan.escalation, &first);
  plan.steps = {step(none)};
  plan.resolve_escalation();
  EXPECT_EQ(plan.escalation, nullptr);
}

TEST(EscalationRunnerTest, TicketsAreDeterministic) {
  const EscalationConfig defaults;
  const auto once = [&defaults] {
    Agent agent({{test::status(503), 100 * ms}, {test::results(), 100 * ms}, {test::status(500), 100 * ms}}, &defaults);
    for (std::uint64_t id = 1; id <= 3; ++id) agent.run_one(id);
    return agent.log.tickets;
  };
  const auto a = once();
  EXPECT_EQ(a, once());
  EXPECT_EQ(a.size(), 3U);
}

}  // namespace
}  // namespace squall
