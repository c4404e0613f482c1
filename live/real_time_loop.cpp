#include "live/real_time_loop.hpp"

#include <boost/asio/post.hpp>
#include <cassert>
#include <cmath>

namespace squall::live {

RealTimeLoop::RealTimeLoop(boost::asio::io_context& io, double time_scale)
    : timer_(io), start_(std::chrono::steady_clock::now()), time_scale_(time_scale) {
  assert(time_scale > 0);
}

TimePoint RealTimeLoop::read_now() const {
  const auto real = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_);
  // A product of two increasing non-negative values rounds monotonically: now() never
  // decreases.
  return static_cast<TimePoint>(static_cast<double>(real.count()) * time_scale_);
}

Nanos RealTimeLoop::real_duration(Nanos virtual_duration) const {
  if (virtual_duration <= 0) return 0;
  const double real = std::ceil(static_cast<double>(virtual_duration) / time_scale_);
  return real >= static_cast<double>(kNever) ? kNever : static_cast<Nanos>(real);
}

TimerId RealTimeLoop::schedule_at(TimePoint at, std::coroutine_handle<> handle) {
  const TimePoint now = read_now();
  if (at < now) at = now;
  const TimerId id = next_id_++;
  queue_.emplace(Key{at, id}, handle);
  due_.emplace(id, at);
  arm();
  return id;
}

void RealTimeLoop::cancel(TimerId id) {
  const auto it = due_.find(id);
  if (it == due_.end()) return;
  queue_.erase(Key{it->second, id});
  due_.erase(it);
}

void RealTimeLoop::arm() {
  if (queue_.empty()) return;
  const TimePoint first = queue_.begin()->first.first;
  if (first >= armed_at_) return;  // the timer already fires at or before it
  armed_at_ = first;
  if (first <= read_now()) {
    // Already due (an answer with no latency left): run it from the io_context's queue,
    // after the handler running now, rather than through the timer, which would reset the
    // reactor's timerfd twice and wake it once more (bench/README.md, "Live mode"). A wait
    // of the timer armed for a later time stays; whichever wake comes first runs what is
    // due and re-arms for the rest, the other finds nothing new.
    boost::asio::post(timer_.get_executor(), [this] { wake(); });
    return;
  }
  const Nanos real = real_duration(first);
  const auto when =
      real == kNever ? std::chrono::steady_clock::time_point::max() : start_ + std::chrono::nanoseconds(real);
  timer_.expires_at(when);  // cancels the earlier wait, whose handler sees operation_aborted
  timer_.async_wait([this](const boost::system::error_code& error) {
    if (error != boost::asio::error::operation_aborted) wake();
  });
}

void RealTimeLoop::wake() {
  armed_at_ = kNever;
  run_due();
  arm();
}

void RealTimeLoop::run_due() {
  // Resumptions scheduled by those run here at a time already due run in this pass too,
  // in (time, id) order, as the simulator's would.
  while (!queue_.empty()) {
    const auto first = queue_.begin();
    if (first->first.first > read_now()) break;
    const std::coroutine_handle<> handle = first->second;
    due_.erase(first->first.second);
    queue_.erase(first);
    handle.resume();
  }
}

}  // namespace squall::live
