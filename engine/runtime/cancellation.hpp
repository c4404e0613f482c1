// Cooperative cancellation for one simulation thread: CancellationSource, the token it
// hands out, and CancellationCallback, a registration that runs when the token fires.
//
// The shape is C++20's std::stop_source / std::stop_token / std::stop_callback and .NET's
// CancellationTokenSource / CancellationToken / CancellationTokenRegistration, without
// their atomics: one simulation runs on one thread (DESIGN section 3).
//
// - A CancellationSource owns the state and fires it with cancel(). Cancelling is
//   idempotent: the callbacks run once, on the first cancel().
// - A CancellationToken is a copyable view of a source (one pointer). The default token
//   is never cancelled, so a call that nobody will cancel carries `{}` and costs nothing.
// - A CancellationCallback is an intrusive list node: the waiter keeps it in its own
//   storage (usually the awaiter object inside the awaiting coroutine's frame), so a
//   registration allocates nothing. It unregisters itself when destroyed.
// - A source can be linked to a parent token (CancellationSource(parent)): it is
//   cancelled when the parent is, as with .NET's CreateLinkedTokenSource. Cancelling
//   the child never cancels the parent. Hedging and races give each child its own linked
//   source under the caller's token.
//
// Callbacks run synchronously inside cancel(), in registration order. They must not
// destroy the source that is firing (nor the object holding it); the runtime's waits only
// reschedule their coroutine through the Scheduler, so the cancelled work resumes from the
// event loop, never inside cancel(). A callback may destroy its own registration or any
// other, and may register new callbacks (on a cancelled token those run at once).
//
// Lifetimes: a source must outlive its tokens' use and every callback registered on it;
// destroying a source with callbacks still registered detaches them (they never run).
#pragma once

#include "engine/runtime/intrusive_list.hpp"

namespace squall {

class CancellationSource;
class CancellationCallback;

class CancellationToken {
 public:
  // A token that is never cancelled.
  CancellationToken() = default;

  // True once the source has been cancelled.
  bool cancelled() const noexcept;
  // False for the default token: it can never be cancelled, so waits need not register.
  bool can_be_cancelled() const noexcept { return source_ != nullptr; }

  friend bool operator==(const CancellationToken&, const CancellationToken&) = default;

 private:
  friend class CancellationSource;
  friend class CancellationCallback;
  explicit CancellationToken(CancellationSource* source) : source_(source) {}
  CancellationSource* source_ = nullptr;
};

class CancellationCallback : public IntrusiveListNode<CancellationCallback> {
 public:
  using Fn = void (*)(void* context);

  CancellationCallback() = default;
  // Registers `fn(context)` on `token` (see arm()).
  CancellationCallback(CancellationToken token, Fn fn, void* context) { arm(token, fn, context); }
  ~CancellationCallback() { disarm(); }
  // A registration is linked by address; it cannot move while armed.
  CancellationCallback(const CancellationCallback&) = delete;
  CancellationCallback& operator=(const CancellationCallback&) = delete;

  // Registers `fn(context)` to run once when `token` is cancelled. On the default token
  // it does nothing; on a token already cancelled it calls fn at once (std::stop_callback's
  // rule, so a registration never misses a cancellation). Replaces a previous registration.
  void arm(CancellationToken token, Fn fn, void* context);
  // Unregisters; fn will not run. A no-op when not registered (or already run).
  void disarm() noexcept;
  bool armed() const noexcept { return source_ != nullptr; }

 private:
  friend class CancellationSource;
  CancellationSource* source_ = nullptr;  // set while linked into the source's list
  Fn fn_ = nullptr;
  void* context_ = nullptr;
};

class CancellationSource {
 public:
  CancellationSource() = default;
  // A source that is also cancelled when `parent` is (at once if it already is).
  explicit CancellationSource(CancellationToken parent);
  ~CancellationSource();
  // Tokens and callbacks point at the source; it cannot move.
  CancellationSource(const CancellationSource&) = delete;
  CancellationSource& operator=(const CancellationSource&) = delete;

  CancellationToken token() noexcept { return CancellationToken(this); }
  bool cancelled() const noexcept { return cancelled_; }
  // Marks the source cancelled and runs every registered callback once, in registration
  // order. Later calls do nothing.
  void cancel();
  // Registered callbacks not yet run (for tests and assertions).
  bool has_callbacks() const noexcept { return !callbacks_.empty(); }

 private:
  friend class CancellationCallback;
  static void on_parent_cancelled(void* self);
  void link(CancellationCallback& node);
  void unlink(CancellationCallback& node) noexcept;

  IntrusiveList<CancellationCallback> callbacks_;  // in registration order
  bool cancelled_ = false;
  CancellationCallback parent_link_;  // registered on the parent token, if any
};

inline bool CancellationToken::cancelled() const noexcept { return source_ != nullptr && source_->cancelled(); }

}  // namespace squall
