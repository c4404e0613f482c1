// Every way a run can stop before its tasks end: a run limit, an exception from a component,
// an interrupt thrown from the progress callback. Each stops with its own message, and the
// world then destroys what the run started: the suspended tasks' frames, and the capacity
// model's server-side coroutines. The sanitizer build (CMakePresets.json's debug preset,
// run by scripts/test.sh) fails these tests on any frame left behind; a run that shares
// its process with others (a sweep, `squall ci`) would otherwise grow with each stopped run.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "world_test_support.hpp"

namespace squall {
namespace {

// One task a second for 60 s, each a call to an LLM whose first token takes 10 s: about ten
// tasks in flight at any time. The provider's capacity holds one call at a time and queues
// up to 100, so by the time the run stops most calls wait in the server's queue.
constexpr std::string_view kSlowQueuedLlm = R"({
  "name": "slow-queued-llm", "duration": "60s",
  "workload": { "arrivals": { "process": "constant", "rate_per_s": 1 },
                "tasks": [ { "name": "ask", "deadline": "300s", "steps": [ { "tool": "llm" } ] } ] },
  "providers": { "llm": { "type": "llm", "mean_output_tokens": 1,
                          "time_to_first_token": { "distribution": "constant", "value": "10s" },
                          "capacity": { "max_concurrency": 1, "queue_size": 100, "queue_timeout": "300s" } } } })";

TEST(WorldStopTest, TheInFlightLimitStopsARunWithTasksSuspended) {
  // Tasks 0 to 3 arrive at 0 s to 3 s and none has finished: the fourth is the fourth in
  // flight, over a limit of 3. Three tasks are suspended (one in service, two queued).
  const Scenario scenario = test::inline_scenario(kSlowQueuedLlm);
  const Corpora corpora = load_corpora(scenario);
  World world(scenario, scenario.policy, corpora, 1, nullptr, RunLimits{3});
  try {
    world.run();
    FAIL() << "the limit was not enforced";
  } catch (const RunLimitExceeded& e) {
    EXPECT_EQ(e.limit(), RunLimitExceeded::Limit::tasks_in_flight);
    EXPECT_STREQ(e.what(),
                 "at 3s of simulated time, more than 3 tasks were in flight (the limit) while tasks arrived at 1 "
                 "per second: tasks arrive faster than they finish, or the limit is too low for this workload");
  }
}

TEST(WorldStopTest, TheEventsAtOneInstantGuardStopsARunWithTasksSuspended) {
  // Three nested retries of 1,000 attempts with no delay against server errors that take no
  // time: the first task never lets time advance. The arrivals wait for the next task, and
  // the stalled task's frames are suspended when the guard stops the run.
  const Scenario scenario = test::inline_scenario(R"({ "name": "never-waits", "duration": "2s",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 1 },
                  "tasks": [ { "name": "ask", "steps": [ { "tool": "llm" } ] } ] },
    "providers": { "llm": { "type": "llm", "faults": [ { "kind": "server_error", "probability": 1,
                            "latency": { "distribution": "constant", "value": "0s" } } ] } },
    "policy": { "llm": [
      { "retry": { "max_attempts": 1000, "base_delay": "0s", "backoff": "constant", "jitter": "none" } },
      { "retry": { "max_attempts": 1000, "base_delay": "0s", "backoff": "constant", "jitter": "none" } },
      { "retry": { "max_attempts": 1000, "base_delay": "0s", "backoff": "constant", "jitter": "none" } } ] } })");
  World world(scenario, 1);
  try {
    world.run();
    FAIL() << "the stall was not detected";
  } catch (const RunLimitExceeded& e) {
    EXPECT_EQ(e.limit(), RunLimitExceeded::Limit::events_per_instant);
    EXPECT_STREQ(e.what(),
                 "virtual time stopped advancing at 0s: 10000000 events in a row at that instant, the last scheduled "
                 "by a task of template \"ask\" (a loop that never waits, EventLoop::kMaxEventsPerInstant)");
  }
}

// An observer that fails on the fifth attempt (at 50 s, the calls being served one at a
// time), as a trace writer does when its disk is full: the exception leaves the task that
// reported the event, and the run stops with the others queued.
class FailingObserver : public EventSink {
 public:
  void on_attempt(const AttemptEvent&) override {
    if (++attempts_ == 5) throw std::runtime_error("the trace's disk is full");
  }

 private:
  int attempts_ = 0;
};

TEST(WorldStopTest, AnExceptionFromAComponentStopsTheRunAndIsRethrown) {
  const Scenario scenario = test::inline_scenario(kSlowQueuedLlm);
  const Corpora corpora = load_corpora(scenario);
  FailingObserver observer;
  World world(scenario, scenario.policy, corpora, 1, &observer);
  try {
    world.run();
    FAIL() << "the observer's exception was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the trace's disk is full");
  }
}

TEST(WorldStopTest, AnInterruptFromTheProgressCallbackStopsTheRun) {
  // 1,000 tasks a second for 100 s outnumber the first slice of events (65,536): the
  // callback sees tasks in flight and throws, as an interrupt handler that stops a run does.
  std::string json(kSlowQueuedLlm);
  json.replace(json.find(R"("rate_per_s": 1)"), 15, R"("rate_per_s": 1000)");
  json.replace(json.find(R"("60s")"), 5, R"("100s")");
  json.replace(json.find(R"("max_concurrency": 1)"), 20, R"("max_concurrency": 10000)");
  const Scenario scenario = test::inline_scenario(json);
  World world(scenario, 1);
  RunProgress seen;
  world.set_progress([&](const RunProgress& progress) {
    seen = progress;
    throw std::runtime_error("interrupted");
  });
  try {
    world.run();
    FAIL() << "the interrupt did not stop the run";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "interrupted");
  }
  EXPECT_GT(seen.tasks_started, seen.tasks_finished);
}

}  // namespace
}  // namespace squall
