#include "engine/runtime/wait_queue.hpp"

namespace squall {

void WaitQueue::push_back(Waiter& w) noexcept {
  w.prev_ = tail_;
  w.next_ = nullptr;
  if (tail_ != nullptr) {
    tail_->next_ = &w;
  } else {
    head_ = &w;
  }
  tail_ = &w;
  w.queued_ = true;
  ++size_;
}

void WaitQueue::remove(Waiter& w) noexcept {
  if (w.prev_ != nullptr) {
    w.prev_->next_ = w.next_;
  } else {
    head_ = w.next_;
  }
  if (w.next_ != nullptr) {
    w.next_->prev_ = w.prev_;
  } else {
    tail_ = w.prev_;
  }
  w.prev_ = nullptr;
  w.next_ = nullptr;
  w.queued_ = false;
  --size_;
}

bool WaitQueue::notify_one() {
  if (head_ == nullptr) return false;
  head_->finish_now(WaitResult::admitted);
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
  if (queued_) queue_.remove(*this);
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
  if (queued_) queue_.remove(*this);
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
  // Time 0 is the start of the run, never in the future: the scheduler runs it now.
  timer_ = queue_.scheduler_.schedule_at(TimePoint{0}, handle_);
  timer_pending_ = true;
}

}  // namespace squall
