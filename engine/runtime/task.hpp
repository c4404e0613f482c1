// Task<T>: the lazily started coroutine type of engine and mock logic, and spawn() for
// fire-and-forget roots.
//
// A Task starts when awaited and resumes its awaiter by symmetric transfer when it
// finishes, so chains of co_await never grow the native stack. Exceptions thrown inside
// a task propagate to its awaiter; provider faults are values (Response/Outcome), never
// exceptions: exceptions are reserved for programmer errors.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <utility>

#include "engine/runtime/frame_pool.hpp"

namespace squall {

namespace detail {

struct PooledFrame {
  static void* operator new(std::size_t n) { return frame_pool::allocate(n); }
  static void operator delete(void* p, std::size_t n) noexcept { frame_pool::deallocate(p, n); }
};

struct PromiseBase : PooledFrame {
  std::coroutine_handle<> continuation = std::noop_coroutine();
  std::exception_ptr exception;

  struct FinalAwaiter {
    bool await_ready() const noexcept { return false; }
    template <class P>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) const noexcept {
      return h.promise().continuation;
    }
    void await_resume() const noexcept {}
  };

  std::suspend_always initial_suspend() const noexcept { return {}; }
  FinalAwaiter final_suspend() const noexcept { return {}; }
  void unhandled_exception() noexcept { exception = std::current_exception(); }
};

}  // namespace detail

template <class T = void>
class [[nodiscard]] Task {
 public:
  struct promise_type : detail::PromiseBase {
    std::optional<T> value;
    Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    template <class U>
    void return_value(U&& v) {
      value.emplace(std::forward<U>(v));
    }
  };

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
    return std::move(*p.value);
  }

 private:
  explicit Task(std::coroutine_handle<promise_type> h) : handle_(h) {}
  void destroy() {
    if (handle_) handle_.destroy();
  }
  std::coroutine_handle<promise_type> handle_;
};

template <>
class [[nodiscard]] Task<void> {
 public:
  struct promise_type : detail::PromiseBase {
    Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    void return_void() const noexcept {}
  };

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

 private:
  explicit Task(std::coroutine_handle<promise_type> h) : handle_(h) {}
  void destroy() {
    if (handle_) handle_.destroy();
  }
  std::coroutine_handle<promise_type> handle_;
};

namespace detail {

// A root coroutine that starts at once and frees its own frame when it finishes.
struct Detached {
  struct promise_type : PooledFrame {
    Detached get_return_object() const noexcept { return {}; }
    std::suspend_never initial_suspend() const noexcept { return {}; }
    std::suspend_never final_suspend() const noexcept { return {}; }
    void return_void() const noexcept {}
    // run_detached catches everything, so this is unreachable.
    [[noreturn]] void unhandled_exception() const noexcept { std::terminate(); }
  };
};

inline Detached run_detached(Task<void> task, std::exception_ptr* error) {
  try {
    co_await task;
  } catch (...) {
    if (error != nullptr && !*error) *error = std::current_exception();
  }
}

}  // namespace detail

// Starts `task` now and lets it run to completion on its own; it runs until its first
// suspension before spawn() returns. An exception escaping the task (a programmer error)
// is stored in `*error` if that is still empty, so the owner of the run can rethrow it.
inline void spawn(Task<void> task, std::exception_ptr* error) {
  detail::run_detached(std::move(task), error);
}

}  // namespace squall
