// adaptive_throttling: client-side throttling that rejects requests locally, before they
// are sent, when the backend has been rejecting many of them (Google SRE book, chapter 21
// "Handling Overload", section "Client-Side Throttling").
//
// For each backend the client keeps, over the last `window` (the book's two minutes):
//   requests: requests the application made that have been answered, those rejected
//             locally included (a request in flight is not counted yet: see Time)
//   accepts:  requests the backend accepted (answered with anything but a rejection)
// and rejects each new request locally with probability
//   p = max(0, (requests - K * accepts) / (requests + 1))
// computed from the counts before the request is counted (the book's formula; the + 1
// keeps p < 1, so some requests always reach the backend and can find it recovered). A
// rejected request is then counted in `requests`; a sent one when its answer comes. While
// the backend accepts every
// request p stays 0; K = 2 (the book's "K = 2") lets requests run up to twice the accepts
// before any is rejected, so the backend still sees some traffic above what it accepts.
//
// The draw. When p > 0 the strategy draws u = rng.uniform01() from its own stream
// ("policy/<owner>/<i>/adaptive_throttling") and rejects when u < p; when p = 0 it draws
// nothing, so the stream's position depends only on the requests that could be rejected.
// A rejected request ends at once as `throttled` (a local outcome, status 0: never sent,
// never a provider failure; retry does not retry it by default, circuit_breaker ignores
// it) and emits a ThrottledEvent.
//
// What counts as a rejection by the backend: an outcome of a request that reached it
// whose kind is in reject_on (default rate_limited and overloaded: the backend shedding
// load, the book's "rejected due to lack of quota"). Every other outcome of a request that
// reached the backend is an accept, errors included. Outcomes the engine produced itself
// (local kinds) and calls during which no attempt started count as neither.
//
// Time. The window is kept in one-second buckets, window / 1 s of them, as resilience4j's
// time-based sliding window keeps a bucket per second: bounded memory whatever the load.
// At time t the counts are those of the buckets for seconds floor(t / 1 s) - n + 1 up to
// floor(t / 1 s) (the current, partial second included), n = window / 1 s. A sent request
// and its accept are counted in the bucket of the second its answer arrived in, as Envoy's
// admission control counts both at completion: counted when sent, a request in flight
// looked like a rejection (the second request of a run saw requests 1, accepts 0, p = 0.5
// against a backend that had refused nothing). A local rejection is counted in the second
// it was made in.
//
// One history per backend. In a provider's own stack the history is the provider's,
// shared by every tool and task that reaches it (the book's "per backend"); in a tool's
// pipeline the strategy keeps one history per provider id, as circuit_breaker does.
#pragma once

#include <array>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"
#include "engine/runtime/rng.hpp"
#include "engine/strategies/outcome_mask.hpp"

namespace squall {

struct AdaptiveThrottlingConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "adaptive_throttling";

  // The history's length: a whole number of seconds, >= 1 s. Default 2 minutes (the SRE
  // book: "the last two minutes of its history").
  Nanos window = 2 * kMinute;
  // The multiplier K, >= 1. Default 2 (the SRE book).
  double k = 2.0;
  // Outcome kinds that are the backend rejecting a request. Default: rate_limited,
  // overloaded.
  std::vector<OutcomeKind> reject_on = default_reject_on();

  static std::vector<OutcomeKind> default_reject_on();
};

// K in [1, 1000] (below 1 it rejects requests the backend accepts); a window of at most
// an hour, 3600 one-second buckets per backend.
inline constexpr NumberRange kThrottleK{1, false, 1000};
inline constexpr Nanos kLongestThrottleWindow = kHour;

constexpr auto field_table(std::type_identity<AdaptiveThrottlingConfig>) {
  using C = AdaptiveThrottlingConfig;
  return table<C>(whole_seconds("window", &C::window, kLongestThrottleWindow)
                      .with_default(R"("2m")")
                      .doc("the history, kept in one-second buckets")
                      .source("the SRE book: the last two minutes"),
                  number("k", &C::k, kThrottleK).with_default("2").doc("the multiplier K").source("the SRE book"),
                  field("reject_on", &C::reject_on, FieldKind::provider_kinds)
                      .noted("adaptive throttling")
                      .with_default(R"(["rate_limited", "overloaded"])")
                      .doc("the answers that count as the backend rejecting")
                      .source("the SRE book: rejections for lack of quota"));
}

class AdaptiveThrottlingStrategy final : public Strategy {
 public:
  // `rng` is this strategy's own stream; it must outlive the strategy.
  AdaptiveThrottlingStrategy(AdaptiveThrottlingConfig config, EngineEnv env, Rng& rng);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  // The counts of `provider`'s window as of now, and the rejection probability a request
  // made now would have. Exposed for tests.
  struct Counts {
    std::uint64_t requests = 0;
    std::uint64_t accepts = 0;
  };
  Counts counts(ProviderId provider = kNoProvider);
  double rejection_probability(ProviderId provider = kNoProvider);
  // The book's formula, max(0, (requests - k * accepts) / (requests + 1)).
  static double rejection_probability(Counts counts, double k);

 private:
  struct Bucket {
    std::int64_t second = -1;  // the second it counts (time / 1 s); -1: never used
    std::uint64_t requests = 0;
    std::uint64_t accepts = 0;
  };
  struct History {
    std::vector<Bucket> buckets;  // window / 1 s of them, a ring indexed by second
    Counts total;                 // the sums over the buckets
  };
  History& history_of(ProviderId provider);
  // The bucket of the current second, after dropping the seconds that left the window.
  Bucket& current(History& h);
  std::string_view provider_name(ProviderId provider) const;

  AdaptiveThrottlingConfig config_;
  EngineEnv env_;
  Rng& rng_;
  OutcomeMask reject_on_;
  std::int64_t seconds_;  // buckets per history
  // By provider id; index 0 also serves calls without one (kNoProvider, engine tests).
  std::vector<History> histories_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const AdaptiveThrottlingConfig& config, const StrategyBuild& build);

}  // namespace squall
