// Helpers for runtime tests written as virtual-time timelines: do something at a time
// point, and record what happened when. Nothing here sleeps in real time.
#pragma once

#include <exception>
#include <functional>
#include <utility>

#include "engine/runtime/clock.hpp"
#include "engine/runtime/task.hpp"
#include "sim/event_loop.hpp"

namespace squall::test {

namespace detail {
inline Task<void> act_at(EventLoop& loop, TimePoint at, std::function<void()> action) {
  co_await sleep_until(loop, at);
  action();
}
}  // namespace detail

// Runs `action` at virtual time `at` (one event), from a spawned task.
inline void at(EventLoop& loop, TimePoint at, std::function<void()> action, std::exception_ptr* error) {
  spawn(detail::act_at(loop, at, std::move(action)), error);
}

}  // namespace squall::test
