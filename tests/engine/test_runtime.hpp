// Test helpers for the engine's strategies: a scripted fake provider on the simulator's
// virtual clock, an EventSink that keeps copies of every event, and helpers that run
// logical calls to completion. Nothing here sleeps in real time.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/call.hpp"
#include "engine/events.hpp"
#include "engine/pipeline.hpp"
#include "engine/provider.hpp"
#include "engine/runtime/clock.hpp"
#include "engine/runtime/rng.hpp"
#include "engine/runtime/task.hpp"
#include "engine/search_results_store.hpp"
#include "sim/event_loop.hpp"

namespace squall::test {

// What the fake provider answers to one call, and after how long.
struct Reply {
  Response response;
  Nanos latency = 100 * kMillisecond;
};

// `hits` kept for the whole test program, as a search provider keeps the lists it
// answers with (SearchResultsStore). Their views must outlive it (literals).
inline std::span<const SearchResult> kept_hits(const std::vector<SearchResult>& hits) {
  static SearchResultsStore store;
  return store.keep(hits);
}

// A 200 with `hits` search results.
inline Response results(int hits = 1) {
  Response r;
  r.set_results(kept_hits(std::vector<SearchResult>(static_cast<std::size_t>(hits),
                                                    SearchResult{"title", "https://example.com", "snippet", 3})));
  return r;
}

// A 200 without results (classified empty).
inline Response no_results() { return Response{}; }

// `details` kept for the whole test program, as a provider keeps the details it sends
// (ErrorDetailsStore); null when they are empty. Their views must outlive it (literals).
inline const ErrorDetails* kept(const ErrorDetails& details) {
  static ErrorDetailsStore store;
  return store.keep(details);
}

// `r` with `edit` applied to a copy of its error details, kept (see kept()).
template <class Edit>
Response with_details(Response r, Edit edit) {
  ErrorDetails details = r.details();
  edit(details);
  r.error_details = kept(details);
  return r;
}

// An error status, with an optional raw Retry-After header value.
// `retry_after` must outlive the response (a literal).
inline Response status(int code, std::string_view retry_after = {}) {
  Response r;
  r.status = code;
  r.error_details = kept({.retry_after = retry_after});
  return r;
}

// One call the fake provider received.
struct ReceivedCall {
  TimePoint started = 0;
  TimePoint deadline = kNever;  // CallOptions::deadline
  std::string query;
};

// A Provider that answers from a script, honouring CallOptions::deadline the way the
// provider seam requires: when the reply would arrive after the deadline, it returns at
// the deadline with Transport::timeout (a reply due exactly at the deadline arrives).
class ScriptedProvider final : public Provider {
 public:
  // Answers call i (0-based) with `responder(i, request)`.
  using Responder = std::function<Reply(std::size_t call_index, const Request& request)>;

  ScriptedProvider(EventLoop& loop, Responder responder) : loop_(loop), responder_(std::move(responder)) {}
  // Answers call i with script[i], repeating the last entry once the script runs out.
  ScriptedProvider(EventLoop& loop, std::vector<Reply> script)
      : ScriptedProvider(loop, [script = std::move(script)](std::size_t i, const Request&) {
          return script.at(std::min(i, script.size() - 1));
        }) {}

  std::string_view name() const override { return "scripted"; }

  Task<Response> call(Request request, CallOptions options) override {
    const TimePoint started = loop_.now();
    const TimePoint deadline = options.deadline;
    calls_.push_back(ReceivedCall{started, deadline, std::string(request.query)});
    Reply reply = responder_(calls_.size() - 1, request);
    const TimePoint arrives = add_saturating(started, reply.latency);
    if (arrives > deadline) {
      co_await sleep_until(loop_, deadline);
      Response timed_out;
      timed_out.transport = Transport::timeout;
      timed_out.status = 0;
      co_return timed_out;
    }
    co_await sleep_until(loop_, arrives);
    co_return reply.response;
  }

  const std::vector<ReceivedCall>& calls() const { return calls_; }
  std::vector<TimePoint> start_times() const {
    std::vector<TimePoint> out;
    for (const auto& c : calls_) out.push_back(c.started);
    return out;
  }
  std::vector<std::string> queries() const {
    std::vector<std::string> out;
    for (const auto& c : calls_) out.push_back(c.query);
    return out;
  }

 private:
  EventLoop& loop_;
  Responder responder_;
  std::vector<ReceivedCall> calls_;
};

// An Rng whose uniform01() returns `fractions` in order (each as FixedRng::at_fraction
// gives it, exact for dyadic fractions such as 0.25), repeating the last one once the
// script runs out, and counts its draws: exact timelines of jittered backoff.
class ScriptedRng final : public Rng {
 public:
  explicit ScriptedRng(std::vector<double> fractions) : fractions_(std::move(fractions)) {}
  std::uint64_t next_u64() override {
    const double u = fractions_.at(std::min(draws_, fractions_.size() - 1));
    ++draws_;
    return FixedRng::at_fraction(u).next_u64();
  }
  std::size_t draws() const { return draws_; }

 private:
  std::vector<double> fractions_;
  std::size_t draws_ = 0;
};

// Owned copies of the events (the engine's events carry views valid during the call only).
struct RecordedGiveUp {
  std::string reason;
  TimePoint at = 0;
  OutcomeKind last_kind = OutcomeKind::success;
};
struct RecordedQueryChange {
  std::string step;
  std::string from;
  std::string to;
  TimePoint at = 0;
};
struct RecordedBudget {
  std::string limit;
  TimePoint at = 0;
  double spent = 0;
  double projected = 0;
  double maximum = 0;
};

class EventLog final : public EventSink {
 public:
  void on_attempt(const AttemptEvent& e) override { attempts.push_back(e); }
  void on_backoff(const BackoffEvent& e) override { backoffs.push_back(e); }
  void on_give_up(const GiveUpEvent& e) override {
    give_ups.push_back(RecordedGiveUp{std::string(e.reason), e.at, e.last_kind});
  }
  void on_breaker_transition(const BreakerTransitionEvent& e) override {
    transitions.push_back(fmt::format("{}ms {}->{}", e.at / kMillisecond, to_string(e.from), to_string(e.to)));
    if (e.to == BreakerState::open) openings.push_back(fmt::format("{}ms {}", e.at / kMillisecond, to_string(e.cause)));
  }
  void on_query_change(const QueryChangeEvent& e) override {
    query_changes.push_back(RecordedQueryChange{std::string(e.step), std::string(e.from), std::string(e.to), e.at});
  }
  void on_budget_exhausted(const BudgetExhaustedEvent& e) override {
    budgets.push_back(RecordedBudget{std::string(e.limit), e.at, e.spent, e.projected, e.maximum});
  }
  void on_fallback(const FallbackEvent& e) override {
    fallbacks.push_back(fmt::format("{}ms {} {}->{} on {}", e.at / kMillisecond, to_string(e.action), e.from, e.to,
                                    to_string(e.trigger)));
    if (e.wait != 0) fallbacks.back() += fmt::format(" for {}ms", e.wait / kMillisecond);
  }

  void on_reflection(const ReflectionEvent& e) override {
    reflections.push_back(fmt::format("{}ms-{}ms {} #{} on {}: {}", e.started / kMillisecond, e.finished / kMillisecond,
                                      e.provider, e.reflection, to_string(e.trigger), to_string(e.kind)));
  }

  void on_cache(const CacheEvent& e) override {
    caches.push_back(fmt::format("{}ms task {} {} age={}ms saved={}", e.at / kMillisecond, e.task_id,
                                 to_string(e.action), e.age / kMillisecond, e.calls_saved));
  }

  void on_threshold_relax(const ThresholdRelaxEvent& e) override {
    relaxations.push_back(fmt::format("{}ms rung {} {}", e.at / kMillisecond, e.rung, e.label));
  }
  void on_rewrite(const RewriteEvent& e) override {
    rewrites.push_back(fmt::format("{}ms-{}ms {} #{}: {} {} \"{}\" -> \"{}\"", e.started / kMillisecond,
                                   e.finished / kMillisecond, e.provider, e.rewrite, to_string(e.kind),
                                   to_string(e.result), e.from, e.to));
  }

  void on_retry_refused(const RetryRefusedEvent& e) override {
    refusals.push_back(fmt::format("{}ms {} level={} limit={}", e.at / kMillisecond, e.mode, e.level, e.limit));
  }
  void on_throttled(const ThrottledEvent& e) override {
    throttles.push_back(
        fmt::format("{}ms requests={} accepts={} p={:.4f}", e.at / kMillisecond, e.requests, e.accepts, e.probability));
  }

  std::vector<std::string> refusals;   // "<at>ms <mode> level=<level> limit=<limit>"
  std::vector<std::string> throttles;  // "<at>ms requests=<n> accepts=<n> p=<p>"
  void on_hedge(const HedgeEvent& e) override {
    hedges.push_back(fmt::format("{}ms {} #{} ${:g}", e.at / kMillisecond, to_string(e.action), e.hedge, e.cost_usd));
    hedge_providers.push_back(fmt::format("{} #{} {}", to_string(e.action), e.hedge, e.provider));
  }
  std::vector<std::string> hedge_providers;  // "<action> #<attempt index> <provider>"
  void on_validation_failed(const ValidationFailedEvent& e) override {
    validations.push_back(fmt::format("{}ms {} check={} in={} out={} ${:g}", e.at / kMillisecond, e.tool, e.check,
                                      e.input_tokens, e.output_tokens, e.cost_usd));
  }
  std::vector<std::string> validations;  // "<at>ms <owner> check=<check> in=<tokens> out=<tokens> $<cost>"
  void on_limit(const LimitEvent& e) override {
    limits.push_back(fmt::format("{}ms {} {}->{} in_flight={} queued={}", e.at / kMillisecond, to_string(e.action),
                                 e.previous, e.limit, e.in_flight, e.queued));
  }
  std::vector<std::string> limits;  // "<at>ms <action> <previous>-><limit> in_flight=<n> queued=<n>"

  std::vector<std::string> hedges;       // "<at>ms <action> #<attempt index> $<billed cost>"
  std::vector<std::string> relaxations;  // "<at>ms rung <n> <label>"
  // "<started>ms-<finished>ms <provider> #<n>: <kind> <result> "<from>" -> "<to>""
  std::vector<std::string> rewrites;
  std::vector<std::string> reflections;  // "<started>ms-<finished>ms <provider> #<n> on <trigger>: <kind>"
  std::vector<std::string> caches;       // "<at>ms task <id> <action> age=<age>ms saved=<calls saved>"
  std::vector<AttemptEvent> attempts;    // `tool` views the CallContext's tool, a literal in tests
  std::vector<BackoffEvent> backoffs;
  std::vector<RecordedGiveUp> give_ups;
  std::vector<std::string> transitions;  // "<at in ms>ms <from>-><to>"
  std::vector<std::string> openings;     // "<at in ms>ms <cause>", transitions to open only
  std::vector<RecordedQueryChange> query_changes;
  std::vector<RecordedBudget> budgets;
  std::vector<std::string> fallbacks;  // "<at in ms>ms <action> <from>-><to> on <trigger>"
};

// The virtual clock and scheduler, the event log, and the EngineEnv over both.
struct Harness {
  EventLoop loop;
  EventLog log;
  EngineEnv env{loop, loop, log};
};

template <class... S>
std::unique_ptr<Pipeline> make_pipeline(Provider& provider, EngineEnv env, std::unique_ptr<S>... strategies) {
  std::vector<std::unique_ptr<Strategy>> chain;
  (chain.push_back(std::move(strategies)), ...);
  return std::make_unique<Pipeline>(provider, env, std::move(chain));
}

// A pipeline that ends in `terminal` (a ProviderRegistry), which must outlive it.
template <class... S>
std::unique_ptr<Pipeline> make_pipeline(Terminal& terminal, std::unique_ptr<S>... strategies) {
  std::vector<std::unique_ptr<Strategy>> chain;
  (chain.push_back(std::move(strategies)), ...);
  return std::make_unique<Pipeline>(terminal, std::move(chain));
}

// One logical call's state; its address must stay fixed while the call runs.
struct Call {
  explicit Call(std::string query = "acme revenue") : text(std::move(query)) { request.query = text; }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  std::string text;  // what request.query views
  TaskContext task;
  CallContext ctx{task, "web_search"};
  Request request;
  std::optional<Outcome> outcome;
  TimePoint finished = -1;  // virtual time at which the call returned
};

namespace detail {
inline Task<void> complete(Task<Outcome> call, Call& out, const Clock& clock) {
  out.outcome = co_await std::move(call);
  out.finished = clock.now();
}
}  // namespace detail

// Starts `call` through `pipeline` now; it runs until its first suspension.
inline void start(Harness& h, const Pipeline& pipeline, Call& call, std::exception_ptr* error) {
  spawn(detail::complete(pipeline.execute(call.ctx, call.request), call, h.loop), error);
}

// Runs the loop until nothing is pending (bounded, so a bug cannot hang the test).
inline void drain(Harness& h) {
  constexpr std::uint64_t kMaxEvents = 100'000;
  h.loop.run(kMaxEvents);
  if (!h.loop.empty()) throw std::runtime_error("event loop did not drain");
}

// Runs one call to completion and returns its outcome.
inline Outcome run(Harness& h, const Pipeline& pipeline, Call& call) {
  std::exception_ptr error;
  start(h, pipeline, call, &error);
  drain(h);
  if (error) std::rethrow_exception(error);
  if (!call.outcome) throw std::runtime_error("call did not finish");
  return *call.outcome;
}

}  // namespace squall::test
