// InvariantChecker: an event sink that watches a simulated run and records every breach of
// what any run must hold, whatever its scenario and policy (FoundationDB's check(),
// TigerBeetle's state checker). World takes it as its observer (sim/world.hpp); the world
// tests, the property tests over whole runs and `--check-invariants` use it. The rules,
// each named as its violations are:
//   finished_once        a task finishes once (World itself checks that every arrival
//                        finishes)
//   spend_is_attempts    a task's tokens and USD are the sum of its attempts' (1e-9 relative)
//   before_deadline      no attempt starts at or after its task's deadline (start + the
//                        template's deadline)
//   attempt_in_order     an attempt does not end before it starts, nor before an attempt
//                        reported earlier ended (events come in time order)
//   not_resent           a non-idempotent provider gets no attempt in a logical call that
//                        starts at or after an attempt to it in the same call ended in an
//                        outcome that may have reached it (engine/retry_safety.hpp)
//   loser_billed         a hedge loser cancelled with a spend bills what an attempt of its
//                        task on its provider, ended by then, billed (the loser's last
//                        attempt; hedging nested in hedging reports the inner call's outcome,
//                        which may be an earlier failed attempt's)
// Memory: per task in flight and per logical call in flight, released when they end.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/events.hpp"
#include "sim/scenario.hpp"

namespace squall {

class InvariantChecker final : public EventSink {
 public:
  // The scenario must outlive the checker.
  explicit InvariantChecker(const Scenario& scenario);

  void on_attempt(const AttemptEvent& e) override;
  void on_logical_call(const LogicalCallEvent& e) override;
  void on_hedge(const HedgeEvent& e) override;
  void on_task_finished(const TaskResult& r) override;

  // The rules' names, as violations start.
  static constexpr std::array<std::string_view, 6> kRules{"finished_once",    "spend_is_attempts", "before_deadline",
                                                          "attempt_in_order", "not_resent",        "loser_billed"};
  // Attempts watched so far.
  std::uint64_t attempts() const { return attempts_; }
  // The first kMaxKept violations, each "rule: what, at when"; and how many there were.
  static constexpr std::size_t kMaxKept = 20;
  const std::vector<std::string>& violations() const { return kept_; }
  std::uint64_t violation_count() const { return count_; }
  // "N invariant violations:" and the kept ones, one per line; empty without any.
  std::string summary() const;

 private:
  struct Billed {
    std::string provider;
    TimePoint finished = 0;
    std::int64_t tokens = 0;
    double cost_usd = 0;
  };
  struct TaskSpend {
    std::int64_t tokens = 0;
    double cost_usd = 0;
    TimePoint latest_start = -1;
    std::vector<Billed> billed;  // the task's attempts, for loser_billed
  };
  void violate(std::string_view rule, std::string what, TimePoint at);

  const Scenario& scenario_;
  std::map<std::string, bool, std::less<>> idempotent_;  // by provider name
  std::unordered_map<std::uint64_t, TaskSpend> tasks_;
  std::vector<bool> finished_;  // by task id (World numbers its tasks from 0)
  // Per logical call in flight (task, tool): for each non-idempotent provider, the earliest
  // end of an attempt whose outcome may have reached it.
  std::map<std::pair<std::uint64_t, std::string>, std::map<std::string, TimePoint, std::less<>>> ambiguous_;
  TimePoint last_finished_ = 0;
  std::uint64_t attempts_ = 0;
  std::vector<std::string> kept_;
  std::uint64_t count_ = 0;
};

}  // namespace squall
