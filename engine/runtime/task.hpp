// Task<T>: the lazily started coroutine type of engine and mock logic, spawn() for
// fire-and-forget roots, and SpawnScope, the owner of the roots a run may stop before they end.
//
// A Task starts when awaited and resumes its awaiter by symmetric transfer when it
// finishes, so chains of co_await never grow the native stack. Exceptions thrown inside
// a task propagate to its awaiter; provider faults are values (Response/Outcome), never
// exceptions: exceptions are reserved for programmer errors.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "engine/runtime/frame_pool.hpp"
#include "engine/runtime/intrusive_list.hpp"

namespace squall {

class SpawnScope;

namespace detail {

// The tag of Task<T>::kSlotFilled.
struct SlotFilled {};

// Where a Task<T>'s promise keeps its result. A T that can be default-constructed is kept
// as itself, constructed with the promise and assigned when the coroutine returns: an
// optional's engaged flag would be one more word in every frame (8 bytes after an
// Outcome), and the frames of calls in flight are the simulator's memory
// (bench/README.md). Other types are kept in an optional, constructed on return.
template <class T, bool = std::is_default_constructible_v<T>>
struct ResultStorage {
  T value{};
  T& get() noexcept { return value; }
  template <class U>
  void set(U&& v) {
    value = std::forward<U>(v);
  }
  // The result to build in place (Task::result_slot): default-constructed, as the
  // promise made it; the coroutine has not returned yet.
  T& slot() noexcept { return value; }
};

template <class T>
struct ResultStorage<T, false> {
  std::optional<T> value;
  T& get() noexcept { return *value; }
  template <class U>
  void set(U&& v) {
    value.emplace(std::forward<U>(v));
  }
};

struct PooledFrame {
  static void* operator new(std::size_t n) { return frame_pool::allocate(n); }
  static void operator delete(void* p, std::size_t n) noexcept { frame_pool::deallocate(p, n); }
};

// A detached task's record, outside its frame so that awaited tasks (nearly every frame)
// pay nothing for it: where an escaping exception goes, and, when spawned into a
// SpawnScope, its place in the scope's list of live roots.
struct Spawned : IntrusiveListNode<Spawned>, PooledFrame {
  std::coroutine_handle<> frame;
  std::exception_ptr* error = nullptr;  // may be null: the exception is dropped
  SpawnScope* scope = nullptr;          // null for spawn(task, error)
};

// Unlinks `spawned` from its scope, if any, and frees it (defined after SpawnScope).
void release(Spawned* spawned) noexcept;

// Every call in flight holds a promise in its frame, so it is two words: where to go on
// finishing, and one slot whose meaning depends on it.
//
// An awaited task keeps the exception that escaped it, for its awaiter to rethrow. A
// detached task (spawn()) has no awaiter: its continuation is null, it frees its own
// frame and its record when it finishes, and it reports an exception at once to the place
// spawn() was given (if that is still empty; nowhere if it was null). The two uses never
// meet, so the slot is a union: one word fewer in every frame.
struct PromiseBase : PooledFrame {
  std::coroutine_handle<> continuation = std::noop_coroutine();
  union {
    std::exception_ptr exception;  // awaited (continuation is not null)
    Spawned* spawned;              // detached (continuation is null)
  };

  PromiseBase() noexcept : exception() {}
  ~PromiseBase() {
    if (continuation) std::destroy_at(&exception);
  }
  PromiseBase(const PromiseBase&) = delete;
  PromiseBase& operator=(const PromiseBase&) = delete;

  bool detached() const noexcept { return !continuation; }
  // Makes the task detached, reporting through `record` (spawn()); before it has run.
  void detach(Spawned* record) noexcept {
    std::destroy_at(&exception);  // empty: the task has not run
    continuation = nullptr;
    spawned = record;
  }

  struct FinalAwaiter {
    bool await_ready() const noexcept { return false; }
    template <class P>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) const noexcept {
      PromiseBase& p = h.promise();
      if (!p.detached()) return p.continuation;
      Spawned* record = p.spawned;
      h.destroy();  // allowed: the coroutine is suspended at its final point
      release(record);
      return std::noop_coroutine();
    }
    void await_resume() const noexcept {}
  };

  std::suspend_always initial_suspend() const noexcept { return {}; }
  FinalAwaiter final_suspend() const noexcept { return {}; }
  void unhandled_exception() noexcept {
    if (!detached()) {
      exception = std::current_exception();
    } else if (spawned->error != nullptr && !*spawned->error) {
      *spawned->error = std::current_exception();
    }
  }
};

}  // namespace detail

template <class T = void>
class [[nodiscard]] Task {
 public:
  struct promise_type : detail::PromiseBase {
    detail::ResultStorage<T> result;
    Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    template <class U>
    void return_value(U&& v) {
      result.set(std::forward<U>(v));
    }
    // `co_return Task<T>::kSlotFilled;` after building the result in its slot.
    void return_value(detail::SlotFilled) noexcept {}
  };

  // `T& result = co_await Task<T>::result_slot();` inside a Task<T> coroutine: the
  // promise's result, default-constructed with the promise (no suspension), for the
  // coroutine to build in place and end with `co_return Task<T>::kSlotFilled;`. GCC 12
  // gives every local of a coroutine its own bytes in the frame, so a local result plus
  // the promise's copy hold the result twice in a frame every task in flight keeps
  // (bench/README.md); this holds it once and saves the move at co_return.
  class ResultSlot {
   public:
    bool await_ready() const noexcept { return false; }
    bool await_suspend(std::coroutine_handle<promise_type> h) noexcept {
      slot_ = &h.promise().result.slot();
      return false;  // resume at once
    }
    T& await_resume() const noexcept { return *slot_; }

   private:
    T* slot_ = nullptr;
  };
  static ResultSlot result_slot() noexcept { return {}; }
  static constexpr detail::SlotFilled kSlotFilled{};

  // An empty Task: no coroutine, nothing to await (Provider::start returns one when it
  // answered at once). valid() says which.
  Task() noexcept = default;
  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      destroy();
      handle_ = std::exchange(other.handle_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { destroy(); }

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
    handle_.promise().continuation = awaiter;
    return handle_;
  }
  T await_resume() {
    auto& p = handle_.promise();
    if (p.exception) std::rethrow_exception(p.exception);
    return std::move(p.result.get());
  }

  bool valid() const noexcept { return static_cast<bool>(handle_); }

  // `co_await task.finished()` runs the task to its end without taking its result, which
  // stays in the finished task: result() reads it there, until the Task is destroyed or
  // assigned. The awaiting coroutine then holds a reference instead of its own copy.
  class Finished {
   public:
    explicit Finished(Task& task) : task_(task) {}
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
      return task_.await_suspend(awaiter);
    }
    void await_resume() const {
      if (task_.handle_.promise().exception) std::rethrow_exception(task_.handle_.promise().exception);
    }

   private:
    Task& task_;
  };
  Finished finished() & { return Finished(*this); }
  // The result of a task awaited with finished().
  T& result() { return handle_.promise().result.get(); }

  // `co_await std::move(task).into(x)` runs the task and move-assigns its result to `x`,
  // as `x = co_await std::move(task)` does but without the temporary that GCC 12 keeps
  // in the awaiting coroutine's frame for the whole coroutine (bench/README.md). The
  // Task must stay alive until the await completes (a temporary in the co_await
  // expression does).
  class Into {
   public:
    Into(Task& task, T& target) : task_(task), target_(target) {}
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
      return task_.await_suspend(awaiter);
    }
    void await_resume() {
      auto& p = task_.handle_.promise();
      if (p.exception) std::rethrow_exception(p.exception);
      target_ = std::move(p.result.get());
    }

   private:
    Task& task_;
    T& target_;
  };
  Into into(T& target) && { return Into(*this, target); }

 private:
  explicit Task(std::coroutine_handle<promise_type> h) : handle_(h) {}
  void destroy() {
    if (handle_) handle_.destroy();
  }
  std::coroutine_handle<promise_type> handle_{};
};

template <>
class [[nodiscard]] Task<void> {
 public:
  struct promise_type : detail::PromiseBase {
    Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    void return_void() const noexcept {}
  };

  // An empty Task: no coroutine, nothing to await (a FusedCall that is not waiting on one).
  Task() noexcept = default;
  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      destroy();
      handle_ = std::exchange(other.handle_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { destroy(); }

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
    handle_.promise().continuation = awaiter;
    return handle_;
  }
  void await_resume() const {
    if (handle_.promise().exception) std::rethrow_exception(handle_.promise().exception);
  }
  bool valid() const noexcept { return static_cast<bool>(handle_); }

 private:
  friend void spawn(Task<void> task, std::exception_ptr* error);
  friend void spawn(Task<void> task, SpawnScope& scope);
  explicit Task(std::coroutine_handle<promise_type> h) : handle_(h) {}
  void destroy() {
    if (handle_) handle_.destroy();
  }
  std::coroutine_handle<promise_type> handle_{};
};

// Owns the detached tasks spawned into it until they finish: destroying the scope (or
// calling destroy_all()) destroys the frames of those still suspended, and with them every
// frame they await. A run that stops early (a run limit, a component's exception, an
// interrupt) leaves tasks suspended on timers and queues that will never fire again; their
// owner destroys them through the scope, so nothing the run started outlives it. Destroy
// the scope (or call destroy_all()) while everything those frames reference still lives,
// and never from inside one of its tasks.
class SpawnScope {
 public:
  SpawnScope() = default;
  SpawnScope(const SpawnScope&) = delete;
  SpawnScope& operator=(const SpawnScope&) = delete;
  ~SpawnScope() { destroy_all(); }

  // The first exception that escaped a task spawned here (a programmer error), or null.
  const std::exception_ptr& error() const noexcept { return error_; }
  // Hands over that exception and forgets it, for an owner that reports it once.
  std::exception_ptr take_error() noexcept { return std::exchange(error_, nullptr); }
  // True when no task spawned here is still suspended.
  bool empty() const noexcept { return live_.empty(); }
  // Destroys every task spawned here that has not finished, most recent first.
  void destroy_all() noexcept {
    while (detail::Spawned* record = live_.back()) {
      const std::coroutine_handle<> frame = record->frame;
      detail::release(record);
      frame.destroy();
    }
  }

 private:
  friend void spawn(Task<void> task, SpawnScope& scope);
  friend void detail::release(detail::Spawned* spawned) noexcept;
  IntrusiveList<detail::Spawned> live_;
  std::exception_ptr error_;
};

namespace detail {
inline void release(Spawned* spawned) noexcept {
  if (spawned->scope != nullptr) spawned->scope->live_.remove(*spawned);
  delete spawned;
}
}  // namespace detail

// Starts `task` now and lets it run to completion on its own; it runs until its first
// suspension before spawn() returns. An exception escaping the task (a programmer error)
// is stored in `*error` if that is still empty, so the owner of the run can rethrow it;
// with a null `error` it is dropped. The task is marked detached and resumed directly:
// when it finishes, its final awaiter reports the exception and frees the frame, so a
// spawned task costs no wrapper coroutine, only its small record (detail::Spawned). A task
// that never finishes is never freed: use the SpawnScope overload for tasks a run may
// abandon.
inline void spawn(Task<void> task, std::exception_ptr* error) {
  const std::coroutine_handle<Task<void>::promise_type> h = std::exchange(task.handle_, {});
  auto* record = new detail::Spawned;
  record->frame = h;
  record->error = error;
  h.promise().detach(record);
  h.resume();
}

// The same, owned by `scope` until it finishes; its exception goes to scope.error().
inline void spawn(Task<void> task, SpawnScope& scope) {
  const std::coroutine_handle<Task<void>::promise_type> h = std::exchange(task.handle_, {});
  auto* record = new detail::Spawned;
  record->frame = h;
  record->error = &scope.error_;
  record->scope = &scope;
  scope.live_.push_back(*record);
  h.promise().detach(record);
  h.resume();
}

}  // namespace squall
