// RealTimeLoop: the engine's Clock and Scheduler over the wall clock, for `squall serve`.
//
// The simulator's EventLoop (sim/event_loop.hpp) runs virtual time as fast as events allow;
// live mode runs the same mocks, chaos decorators and capacity model at the pace of real
// time (docs/live.md, "Time"). This adapter is, with cli/, the only code that reads the
// wall clock (DESIGN section 3): std::chrono::steady_clock, monotonic, so now() never
// decreases.
//
// Time is virtual time scaled: now() = (steady_clock now - start) x time_scale, in integer
// nanoseconds from the server's start, so a scenario's windows ("from": "2m") are measured
// from the start and a time_scale of 10 runs them ten times faster. A resumption due at
// virtual time t runs at the real instant start + t / time_scale.
//
// Resumptions wait in one ordered map keyed by (due time, TimerId) behind one Asio timer
// armed at the earliest: equal times run in scheduling order, as the EventLoop's do, and
// a time in the past is clamped to now() (it runs after those already due). cancel() is
// O(log n). Everything runs on the io_context's one thread: the engine is single-threaded.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <coroutine>
#include <map>
#include <unordered_map>
#include <utility>

#include "engine/runtime/clock.hpp"

namespace squall::live {

class RealTimeLoop final : public Clock, public Scheduler {
 public:
  // `time_scale` > 0: virtual seconds per real second. Time 0 is the construction.
  RealTimeLoop(boost::asio::io_context& io, double time_scale);
  RealTimeLoop(const RealTimeLoop&) = delete;
  RealTimeLoop& operator=(const RealTimeLoop&) = delete;

  TimerId schedule_at(TimePoint at, std::coroutine_handle<> handle) override;
  void cancel(TimerId id) override;

  double time_scale() const { return time_scale_; }
  // A virtual duration as the real one it lasts (rounded up to the nanosecond).
  Nanos real_duration(Nanos virtual_duration) const;
  // Resumptions scheduled and neither run nor cancelled.
  std::size_t pending() const { return queue_.size(); }

 private:
  using Key = std::pair<TimePoint, TimerId>;
  TimePoint read_now() const override;
  void arm();
  // A wake of the timer or of a post: runs what is due, then arms for what is left.
  void wake();
  void run_due();

  boost::asio::steady_timer timer_;
  std::chrono::steady_clock::time_point start_;
  double time_scale_;
  std::map<Key, std::coroutine_handle<>> queue_;
  std::unordered_map<TimerId, TimePoint> due_;  // the queued ids' due times, for cancel()
  TimerId next_id_ = 1;
  TimePoint armed_at_ = kNever;  // the due time the timer waits for; kNever: not armed
};

}  // namespace squall::live
