// race(): run two tasks concurrently; the first to finish wins, the loser is cancelled.
//
//   RaceResult<Response> r = co_await race(
//       token,
//       [&](CancellationToken t) { return call_provider(request, t); },
//       [&](CancellationToken t) { return hedge_after(delay, request, t); });
//
// Each factory is called once, when its child starts, with the child's own token, and
// returns the child's Task<T> (both children must yield the same T). Each token comes from a
// CancellationSource linked to `parent`, so cancelling the race's caller cancels both
// children. Both children start at once, in argument order: the first runs until its
// first suspension before the second starts. The first child to complete, in event
// order, wins; the race then cancels the other child's token and waits for it to finish
// too. Cancellation is cooperative: the loser returns when its waits observe the token
// (the runtime's waits and the mocks return at once, a mock LLM with what it billed), so
// the race completes at the virtual time the loser comes back, normally the winner's. The
// loser's value is returned beside the winner's, so whatever it cost (tokens generated,
// capacity held) is accounted by the caller, and no child frame outlives the race.
//
// If a child throws (a programmer error: provider faults are values), it counts as
// finished first and the other is cancelled as usual; once both are done the race
// rethrows the winner's exception, or else the loser's.
//
// Concurrency rule: the two children run interleaved on one thread, so they must not share
// mutable per-call state. Give each child its own copy of whatever context it mutates (a
// CallContext whose deadline or attempt count strategies change, a Request a strategy
// rewrites); state that is deliberately shared across calls (a TaskContext's spent tokens,
// a breaker) is updated between suspensions and needs no more care than sequential calls.
//
// Cost: the race's frame, one frame per child, and two small frames that join them; no
// other allocation. The factories are moved into the race's frame, so captures of a
// coroutine lambda stay alive while its child runs.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include "engine/runtime/cancellation.hpp"
#include "engine/runtime/task.hpp"

namespace squall {

template <class T>
struct RaceResult {
  std::size_t winner = 0;  // 0: the first factory's child won, 1: the second's
  T won;                   // the winner's value
  T lost;                  // the loser's value, as it returned after being cancelled
};

namespace detail {

template <class TaskType>
struct TaskValue;
template <class T>
struct TaskValue<Task<T>> {
  using type = T;
};

template <class T>
struct RaceState {
  explicit RaceState(CancellationToken parent) : sources{CancellationSource(parent), CancellationSource(parent)} {}

  static constexpr std::size_t kNoWinner = 2;
  CancellationSource sources[2];
  std::optional<T> values[2];
  std::exception_ptr errors[2];
  std::size_t winner = kNoWinner;
  // The two children and the race's own start-up; whoever brings it to 0 resumes the race.
  int unfinished = 3;
  std::coroutine_handle<> race;
};

// Awaited by a child's arm when the child is done: the last one to arrive resumes the race
// by symmetric transfer; the arm itself stays suspended until the race destroys it.
template <class T>
struct ArriveLast {
  RaceState<T>& state;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<>) const noexcept {
    return --state.unfinished == 0 ? state.race : std::noop_coroutine();
  }
  void await_resume() const noexcept {}
};

// `factory` lives in the race's frame, which outlives the arm.
template <class T, class Factory>
Task<void> race_arm(RaceState<T>& state, Factory& factory, std::size_t index) {
  try {
    state.values[index].emplace(co_await factory(state.sources[index].token()));
  } catch (...) {
    state.errors[index] = std::current_exception();
  }
  if (state.winner == RaceState<T>::kNoWinner) {
    state.winner = index;
    state.sources[1 - index].cancel();
  }
  co_await ArriveLast<T>{state};
}

// Starts both arms from the race's suspension; the race stays suspended unless both
// finished synchronously.
template <class T>
struct StartBoth {
  RaceState<T>& state;
  Task<void>& first;
  Task<void>& second;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(std::coroutine_handle<> race) {
    state.race = race;
    first.await_suspend(std::noop_coroutine()).resume();
    second.await_suspend(std::noop_coroutine()).resume();
    return --state.unfinished != 0;
  }
  void await_resume() const noexcept {}
};

}  // namespace detail

template <class First, class Second,
          class T = typename detail::TaskValue<std::invoke_result_t<First&, CancellationToken>>::type>
Task<RaceResult<T>> race(CancellationToken parent, First first, Second second) {
  static_assert(std::is_same_v<std::invoke_result_t<Second&, CancellationToken>, Task<T>>,
                "both children of a race must return the same Task<T>");
  detail::RaceState<T> state(parent);
  Task<void> arm0 = detail::race_arm<T>(state, first, 0);
  Task<void> arm1 = detail::race_arm<T>(state, second, 1);
  co_await detail::StartBoth<T>{state, arm0, arm1};
  const std::size_t w = state.winner;
  if (state.errors[w]) std::rethrow_exception(state.errors[w]);
  if (state.errors[1 - w]) std::rethrow_exception(state.errors[1 - w]);
  co_return RaceResult<T>{w, std::move(*state.values[w]), std::move(*state.values[1 - w])};
}

}  // namespace squall
