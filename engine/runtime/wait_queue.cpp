#include "engine/runtime/wait_queue.hpp"

namespace squall {

void WaitQueue::push_back(Waiter& w) noexcept {
  waiters_.push_back(w);
  ++size_;
}

void WaitQueue::remove(Waiter& w) noexcept {
  waiters_.remove(w);
  --size_;
}

bool WaitQueue::notify_one() {
  if (waiters_.empty()) return false;
  waiters_.front()->finish_now(WaitResult::admitted);
  return true;
}

std::size_t WaitQueue::notify_all() {
  // Bounded by the queue's length at entry: admitted waiters resume later, from the event
  // loop, so none can join the queue while this runs.
  std::size_t admitted = 0;
  while (notify_one()) ++admitted;
  return admitted;
}

WaitQueue::Waiter::~Waiter() {
  if (linked()) queue_.remove(*this);
  if (timer_pending_) queue_.scheduler_.cancel(timer_);
}

bool WaitQueue::Waiter::await_ready() noexcept {
  if (token_.cancelled()) {
    result_ = WaitResult::cancelled;
  } else if (deadline_ <= queue_.clock_.now()) {
    result_ = WaitResult::timed_out;
  } else if (queue_.size_ >= queue_.max_waiters_) {
    result_ = WaitResult::rejected;
  } else {
    return false;
  }
  return true;
}

void WaitQueue::Waiter::await_suspend(std::coroutine_handle<> h) {
  handle_ = h;
  queue_.push_back(*this);
  if (deadline_ != kNever) {
    timer_ = queue_.scheduler_.schedule_at(deadline_, h);
    timer_pending_ = true;
  }
  // The token was not cancelled in await_ready and nothing ran since, so this only
  // registers.
  callback_.arm(token_, &Waiter::on_cancel, this);
}

WaitResult WaitQueue::Waiter::await_resume() noexcept {
  // Still queued means the deadline's timer resumed us: a timeout (result_'s default).
  if (linked()) queue_.remove(*this);
  timer_pending_ = false;
  callback_.disarm();
  return result_;
}

void WaitQueue::Waiter::on_cancel(void* self) { static_cast<Waiter*>(self)->finish_now(WaitResult::cancelled); }

void WaitQueue::Waiter::finish_now(WaitResult result) {
  queue_.remove(*this);
  callback_.disarm();
  if (timer_pending_) queue_.scheduler_.cancel(timer_);
  result_ = result;
  timer_ = schedule_now(queue_.scheduler_, handle_);
  timer_pending_ = true;
}

}  // namespace squall
