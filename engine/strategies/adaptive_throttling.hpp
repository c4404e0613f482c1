// adaptive_throttling: client-side throttling that rejects requests locally, before they
// are sent, when the backend has been rejecting many of them (Google SRE book, chapter 21,
// "Client-Side Throttling"): with `requests` answered (local rejections included) and
// `accepts` over the last `window`, a request is rejected with probability
//   p = max(0, (requests - K * accepts) / (requests + 1)).
//
// Shape: AdaptiveThrottlingConfig below; one history per provider id, in one-second
// buckets. Units: Nanos for window (whole seconds), K a plain multiplier. Errors: none
// thrown; a rejected request ends at once as `throttled` (a local outcome, never sent) with
// a ThrottledEvent. One draw from the strategy's own stream per request only while p > 0.
//
// The algorithm, what counts as a rejection, the buckets and the sources of every default:
// docs/strategies/adaptive_throttling.md.
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
