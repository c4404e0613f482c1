#include "engine/runtime/task.hpp"

#include <gtest/gtest.h>

#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/runtime/clock.hpp"
#include "sim/event_loop.hpp"

namespace squall {
namespace {

// Appends "+name" when built and "-name" when destroyed, so a test sees when a
// coroutine's frame (which holds it) goes away.
struct Witness {
  Witness(std::vector<std::string>& log, std::string name) : log_(log), name_(std::move(name)) {
    log_.push_back("+" + name_);
  }
  Witness(const Witness&) = delete;
  Witness& operator=(const Witness&) = delete;
  ~Witness() { log_.push_back("-" + name_); }

 private:
  std::vector<std::string>& log_;
  std::string name_;
};

Task<int> answer(EventLoop& loop, std::vector<std::string>& log) {
  Witness w(log, "answer");
  co_await sleep_until(loop, 10);
  co_return 42;
}

Task<void> root(EventLoop& loop, std::vector<std::string>& log) {
  Witness w(log, "root");
  log.push_back("started");
  const int x = co_await answer(loop, log);
  log.push_back("got " + std::to_string(x));
}

Task<void> answer_later(EventLoop& loop, std::vector<std::string>& log) {
  Witness w(log, "later");
  co_await sleep_until(loop, 20);
}

Task<void> fail_after(EventLoop& loop, TimePoint at, std::string message) {
  co_await sleep_until(loop, at);
  throw std::runtime_error(message);
}

Task<void> fail_at_once() {
  throw std::logic_error("at once");
  co_return;
}

TEST(TaskTest, SpawnRunsToTheFirstSuspensionThenFreesTheFrameWhenDone) {
  EventLoop loop;
  std::vector<std::string> log;
  std::exception_ptr error;
  spawn(root(loop, log), &error);
  // Until answer's sleep: both frames are alive.
  EXPECT_EQ(log, (std::vector<std::string>{"+root", "started", "+answer"}));
  loop.run();
  // The awaited task's frame goes when its awaiter resumes; the spawned one at its end.
  EXPECT_EQ(log, (std::vector<std::string>{"+root", "started", "+answer", "-answer", "got 42", "-root"}));
  EXPECT_FALSE(error);
}

TEST(TaskTest, SpawnKeepsTheFirstEscapingException) {
  EventLoop loop;
  std::exception_ptr error;
  spawn(fail_after(loop, 20, "second"), &error);
  spawn(fail_after(loop, 10, "first"), &error);
  loop.run();
  ASSERT_TRUE(error);
  try {
    std::rethrow_exception(error);
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "first");
  }
}

TEST(TaskTest, SpawnReportsAnExceptionThrownBeforeAnySuspension) {
  std::exception_ptr error;
  spawn(fail_at_once(), &error);
  EXPECT_TRUE(error);
  // No place to report: the exception is dropped, and the frame freed (the sanitizer
  // build's leak check would see it kept).
  spawn(fail_at_once(), nullptr);
}

TEST(TaskTest, ASpawnedTaskFreesItsFrameWithOrWithoutAnErrorSlot) {
  // A local of the task's frame counts its destruction: the frame is freed when the task
  // ends, whether spawn() was given a place for errors or not.
  struct Counted {
    int& freed;
    ~Counted() { ++freed; }
  };
  const auto task = [](EventLoop& l, int& freed) -> Task<void> {
    Counted counted{freed};
    co_await sleep_until(l, 5);
  };
  EventLoop loop;
  int freed = 0;
  std::exception_ptr error;
  spawn(task(loop, freed), &error);
  spawn(task(loop, freed), nullptr);
  EXPECT_EQ(freed, 0);
  loop.run();
  EXPECT_EQ(freed, 2);
  EXPECT_FALSE(error);
}

TEST(TaskTest, AnAwaitedTaskPassesItsExceptionToItsAwaiter) {
  EventLoop loop;
  std::exception_ptr error;
  std::string caught;
  const auto awaiter = [](EventLoop& l, std::string& out) -> Task<void> {
    try {
      co_await fail_after(l, 5, "inner");
    } catch (const std::runtime_error& e) {
      out = e.what();
    }
  };
  spawn(awaiter(loop, caught), &error);
  loop.run();
  EXPECT_EQ(caught, "inner");
  EXPECT_FALSE(error);
}

// Builds its result in the promise's slot, in two steps across a suspension.
Task<std::string> built_in_slot(EventLoop& loop) {
  std::string& result = co_await Task<std::string>::result_slot();
  result = "half";
  co_await sleep_until(loop, 3);
  result += " and half";
  co_return Task<std::string>::kSlotFilled;
}

TEST(TaskTest, AResultBuiltInItsSlotIsWhatTheAwaiterGets) {
  EventLoop loop;
  std::exception_ptr error;
  std::string got;
  const auto awaiter = [](EventLoop& l, std::string& out) -> Task<void> { out = co_await built_in_slot(l); };
  spawn(awaiter(loop, got), &error);
  loop.run();
  EXPECT_EQ(got, "half and half");
  EXPECT_FALSE(error);
}

TEST(TaskTest, IntoAssignsTheResultToAnExistingObject) {
  EventLoop loop;
  std::exception_ptr error;
  std::vector<std::string> log;
  int target = 0;
  const auto awaiter = [](EventLoop& l, std::vector<std::string>& lg, int& out) -> Task<void> {
    co_await answer(l, lg).into(out);
    lg.push_back("after into");
  };
  spawn(awaiter(loop, log, target), &error);
  loop.run();
  EXPECT_EQ(target, 42);
  // The awaited task's frame is gone by the next statement, as with a plain co_await.
  EXPECT_EQ(log, (std::vector<std::string>{"+answer", "-answer", "after into"}));
  EXPECT_FALSE(error);
}

TEST(TaskTest, FinishedLeavesTheResultInTheFinishedTask) {
  EventLoop loop;
  std::exception_ptr error;
  std::vector<std::string> log;
  const auto awaiter = [](EventLoop& l, std::vector<std::string>& lg) -> Task<void> {
    {
      Task<int> call = answer(l, lg);
      co_await call.finished();
      lg.push_back("result " + std::to_string(call.result()));
    }
    lg.push_back("scope left");
  };
  spawn(awaiter(loop, log), &error);
  loop.run();
  // The callee's locals end at its co_return; its result stays in the finished frame,
  // readable until the Task goes.
  EXPECT_EQ(log, (std::vector<std::string>{"+answer", "-answer", "result 42", "scope left"}));
  EXPECT_FALSE(error);
}

Task<int> fail_with_int(EventLoop& loop) {
  co_await sleep_until(loop, 2);
  throw std::runtime_error("finished");
}

TEST(TaskTest, FinishedPassesTheExceptionOn) {
  EventLoop loop;
  std::exception_ptr error;
  std::string caught;
  const auto awaiter = [](EventLoop& l, std::string& out) -> Task<void> {
    Task<int> call = fail_with_int(l);
    try {
      co_await call.finished();
    } catch (const std::runtime_error& e) {
      out = e.what();
    }
  };
  spawn(awaiter(loop, caught), &error);
  loop.run();
  EXPECT_EQ(caught, "finished");
  EXPECT_FALSE(error);
}

TEST(TaskTest, ADefaultTaskIsEmpty) {
  const Task<int> empty;
  EXPECT_FALSE(empty.valid());
}

}  // namespace
}  // namespace squall

namespace squall {
namespace {

TEST(SpawnScopeTest, DestroysTheTasksStillSuspendedAndWhatTheyAwait) {
  // A run stopped early: the loop never runs again, so both roots stay suspended with
  // their awaited children. Destroying the scope destroys every frame, children first
  // (the awaiter's locals, among them the child Task, go before its own), newest root
  // first.
  std::vector<std::string> log;
  {
    EventLoop loop;
    SpawnScope scope;
    spawn(root(loop, log), scope);
    spawn(answer_later(loop, log), scope);
    EXPECT_FALSE(scope.empty());
    EXPECT_EQ(log, (std::vector<std::string>{"+root", "started", "+answer", "+later"}));
    log.clear();
  }
  EXPECT_EQ(log, (std::vector<std::string>{"-later", "-answer", "-root"}));
}

TEST(SpawnScopeTest, AFinishedTaskLeavesTheScopeAndDestroyAllFreesTheRest) {
  EventLoop loop;
  std::vector<std::string> log;
  SpawnScope scope;
  spawn(root(loop, log), scope);  // ends at 10
  const auto never = [](EventLoop& l, std::vector<std::string>& lg) -> Task<void> {
    Witness w(lg, "never");
    co_await sleep_until(l, 1'000);
  };
  spawn(never(loop, log), scope);
  loop.run_until(100);
  EXPECT_EQ(log, (std::vector<std::string>{"+root", "started", "+answer", "+never", "-answer", "got 42", "-root"}));
  EXPECT_FALSE(scope.empty());
  log.clear();
  scope.destroy_all();
  EXPECT_TRUE(scope.empty());
  EXPECT_EQ(log, (std::vector<std::string>{"-never"}));
  // A second call, and the scope's destruction, find nothing left.
  scope.destroy_all();
  EXPECT_TRUE(log.size() == 1);
}

TEST(SpawnScopeTest, KeepsTheFirstEscapingExceptionUntilTakenAndFreesTheFrame) {
  EventLoop loop;
  SpawnScope scope;
  spawn(fail_after(loop, 20, "second"), scope);
  spawn(fail_after(loop, 10, "first"), scope);
  spawn(fail_at_once(), scope);
  ASSERT_TRUE(scope.error());
  loop.run();
  EXPECT_TRUE(scope.empty());
  const std::exception_ptr taken = scope.take_error();
  EXPECT_FALSE(scope.error());
  try {
    std::rethrow_exception(taken);
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "at once");
  }
}

}  // namespace
}  // namespace squall
