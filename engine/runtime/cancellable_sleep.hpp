// A sleep that a CancellationToken cuts short: `co_await sleep_until(scheduler, t, token)`.
//
// It yields Wake::elapsed when time t came, Wake::cancelled when the token fired first
// (or had already fired: then it does not suspend at all). On cancellation the sleep's
// timer is removed with Scheduler::cancel and the coroutine is rescheduled for the
// current time, so it resumes from the event loop at the time of the cancel, after the
// events already queued for that time, and never inside CancellationSource::cancel().
//
// The awaiter holds its cancellation registration itself, so it lives in the awaiting
// coroutine's frame and a sleep allocates nothing. With the default token it costs one
// timer, like the plain sleep_until of clock.hpp. If the awaiting coroutine is destroyed
// while it sleeps, the awaiter's destructor removes the pending timer, so nothing resumes
// a freed frame.
#pragma once

#include <coroutine>
#include <cstdint>

#include "engine/runtime/cancellation.hpp"
#include "engine/runtime/clock.hpp"

namespace squall {

// Why a cancellable wait ended.
enum class Wake : std::uint8_t {
  elapsed,    // its time came
  cancelled,  // its token fired first
};

class CancellableSleep {
 public:
  CancellableSleep(Scheduler& scheduler, TimePoint at, CancellationToken token)
      : scheduler_(scheduler), at_(at), token_(token) {}
  ~CancellableSleep() {
    if (timer_pending_) scheduler_.cancel(timer_);
  }
  CancellableSleep(const CancellableSleep&) = delete;
  CancellableSleep& operator=(const CancellableSleep&) = delete;

  bool await_ready() noexcept {
    cancelled_ = token_.cancelled();
    return cancelled_;
  }
  void await_suspend(std::coroutine_handle<> h) {
    handle_ = h;
    timer_ = scheduler_.schedule_at(at_, h);
    timer_pending_ = true;
    callback_.arm(token_, &CancellableSleep::on_cancel, this);
  }
  Wake await_resume() noexcept {
    timer_pending_ = false;
    callback_.disarm();
    return cancelled_ ? Wake::cancelled : Wake::elapsed;
  }

 private:
  static void on_cancel(void* self) {
    auto& s = *static_cast<CancellableSleep*>(self);
    s.cancelled_ = true;
    s.scheduler_.cancel(s.timer_);
    s.timer_ = schedule_now(s.scheduler_, s.handle_);
  }

  Scheduler& scheduler_;
  TimePoint at_;
  CancellationToken token_;
  std::coroutine_handle<> handle_;
  TimerId timer_ = 0;
  bool timer_pending_ = false;
  bool cancelled_ = false;
  CancellationCallback callback_;
};

inline CancellableSleep sleep_until(Scheduler& scheduler, TimePoint at, CancellationToken token) {
  return {scheduler, at, token};
}

}  // namespace squall
