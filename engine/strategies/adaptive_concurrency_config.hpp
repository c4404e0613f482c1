// adaptive_concurrency's configuration and field table (the strategy is in
// adaptive_concurrency.hpp, its limit algorithms in limit_algorithm.hpp).
//
// Shape: AdaptiveConcurrencyConfig below. Units: limits in calls in flight, durations in
// Nanos, rates in [0, 1]. Every default's source is in the table's `source` and in
// docs/strategies/adaptive_concurrency.md: Netflix concurrency-limits (AIMDLimit,
// VegasLimit, WindowedLimit, SimpleLimiter) unless it says otherwise; the keys that are not
// Netflix's are the fixes (and the bugs) of the 2026 LLM clients' controllers.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/outcome.hpp"
#include "engine/runtime/time.hpp"

namespace squall {

// X(name, doc)
#define SQUALL_LIMIT_ALGORITHMS(X)                                                                 \
  X(aimd, "loss-based: +1 while calls succeed, times backoff_ratio on a drop (Netflix AIMDLimit)") \
  X(vegas,                                                                                         \
    "delay-based: grows while the estimated queue (limit x (1 - min RTT / RTT)) is short, "        \
    "shrinks when it is long or on a drop (Netflix VegasLimit)")
enum class LimitAlgorithmKind : std::uint8_t { SQUALL_LIMIT_ALGORITHMS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kLimitAlgorithmCount = 0 SQUALL_LIMIT_ALGORITHMS(SQUALL_COUNT);
std::string_view to_string(LimitAlgorithmKind algorithm);

// X(name, doc)
#define SQUALL_LIMIT_GROWTHS(X)                                                   \
  X(per_update, "+1 per update that may grow (Netflix AIMDLimit)")                \
  X(per_limit,                                                                    \
    "+1 per `limit` updates that may grow: TCP congestion avoidance, the growth " \
    "window tied to the limit of aibrix#2530")
enum class LimitGrowth : std::uint8_t { SQUALL_LIMIT_GROWTHS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kLimitGrowthCount = 0 SQUALL_LIMIT_GROWTHS(SQUALL_COUNT);
std::string_view to_string(LimitGrowth growth);

struct AdaptiveConcurrencyConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "adaptive_concurrency";

  LimitAlgorithmKind algorithm = LimitAlgorithmKind::aimd;
  std::int32_t initial_limit = 20;
  std::int32_t min_limit = 1;
  std::int32_t max_limit = 1000;
  // aimd: the decrease factor on a drop, and the round trip above which a call is a drop.
  double backoff_ratio = 0.9;
  Nanos timeout = 5 * kSecond;
  LimitGrowth growth = LimitGrowth::per_update;
  bool slow_start = false;  // per_limit: +1 per update until the first decrease
  // vegas: the new estimate's weight, and how often the no-load RTT is probed again.
  double smoothing = 1.0;
  std::int32_t probe_multiplier = 30;
  // The answers that are drops; other answers a provider gave are plain samples, and the
  // engine's own refusals (retry class local) are ignored, as Netflix's onIgnore.
  std::vector<OutcomeKind> drop_on = default_drop_on();
  // 0: every drop decreases the limit (Netflix). Else at most one decrease per window this
  // long, and only once the window has seen min_drops drops and min_drop_rate of its calls
  // were drops (the aibrix#2452 fix); the window's other drops change nothing.
  Nanos decrease_window = 0;
  std::int32_t min_drops = 1;
  double min_drop_rate = 0;
  // After a decrease, no increase for this long; with cooldown_from_retry_after, also not
  // before the Retry-After of any drop has passed (inspect_ai#5138's behaviour).
  Nanos cooldown = 0;
  bool cooldown_from_retry_after = false;
  // Calls waiting for a slot, oldest first, and for how long (as bulkhead's).
  std::int32_t max_queue = 0;
  Nanos queue_timeout = kNever;

  static std::vector<OutcomeKind> default_drop_on();
};

// Limits up to a million calls in flight: far beyond any client's concurrency (bulkhead's).
inline constexpr IntRange kConcurrencyLimit{1, 1'000'000};
// AIMDLimit's own precondition: a ratio in [0.5, 1.0); 0.999 is the closest a decimal
// bound states.
inline constexpr NumberRange kBackoffRatio{0.5, false, 0.999};
inline constexpr NumberRange kSmoothing{0, true, 1};
inline constexpr IntRange kProbeMultiplier{1, 1000};
inline constexpr IntRange kDropCount{1, 1'000'000};

namespace limit_rules {
using C = AdaptiveConcurrencyConfig;
template <LimitAlgorithmKind kAlgorithm>
inline constexpr FieldRule<C> only = [](const C& c, const Written& w) {
  if (!w.ok("algorithm")) return Finding::skip();
  if (c.algorithm == kAlgorithm) return Finding{};
  return Finding::error("applies only to algorithm " + quote(to_string(kAlgorithm)) + ", not " +
                        quote(to_string(c.algorithm)));
};
inline constexpr FieldRule<C> per_limit = [](const C& c, const Written& w) {
  if (!w.ok("growth") || !w.ok("algorithm")) return Finding::skip();
  if (c.algorithm == LimitAlgorithmKind::aimd && c.growth == LimitGrowth::per_limit) return Finding{};
  return Finding::error("applies only to algorithm \"aimd\" with growth \"per_limit\"");
};
inline constexpr FieldRule<C> windowed = [](const C& c, const Written& w) {
  if (!w.ok("decrease_window")) return Finding::skip();
  if (c.decrease_window > 0) return Finding{};
  return Finding::error("applies only when decrease_window > 0");
};
inline constexpr FieldRule<C> queued = [](const C& c, const Written& w) {
  if (!w.ok("max_queue") || c.max_queue > 0) return Finding{};
  return Finding::error("applies only when max_queue > 0");
};
// min_limit <= initial_limit <= max_limit, whichever of them is left at its default: a
// rule of the object, read once all three are.
inline constexpr FieldRule<C> ordered = [](const C& c, const Written& w) {
  if (!w.ok("initial_limit") || !w.ok("min_limit") || !w.ok("max_limit")) return Finding::skip();
  if (c.min_limit <= c.initial_limit && c.initial_limit <= c.max_limit) return Finding{};
  return Finding::object_error("expected min_limit <= initial_limit <= max_limit, got " + std::to_string(c.min_limit) +
                               ", " + std::to_string(c.initial_limit) + " and " + std::to_string(c.max_limit));
};
using A = LimitAlgorithmKind;
inline constexpr auto kFields =
    table<C>(field("algorithm", &C::algorithm, FieldKind::choice)
                 .choices(kAllValues<A, kLimitAlgorithmCount>)
                 .with_default(R"("aimd")")
                 .doc("how the limit follows the answers")
                 .source("Netflix concurrency-limits AIMDLimit"),
             integer("initial_limit", &C::initial_limit, kConcurrencyLimit)
                 .with_default("20")
                 .unit("calls")
                 .doc("the limit before any answer")
                 .source("VegasLimit and Gradient2Limit initialLimit"),
             integer("min_limit", &C::min_limit, kConcurrencyLimit)
                 .with_default("1")
                 .unit("calls")
                 .doc("the floor")
                 .source("AIMDLimit and VegasLimit never go below 1"),
             integer("max_limit", &C::max_limit, kConcurrencyLimit)
                 .with_default("1000")
                 .unit("calls")
                 .doc("the ceiling")
                 .source("VegasLimit maxConcurrency"),
             number("backoff_ratio", &C::backoff_ratio, kBackoffRatio)
                 .only_if(limit_rules::only<A::aimd>)
                 .with_default("0.9")
                 .doc("the limit's factor on a drop")
                 .source("AIMDLimit backoffRatio"),
             duration("timeout", &C::timeout, DurationMin::positive)
                 .only_if(limit_rules::only<A::aimd>)
                 .with_default(R"("5s")")
                 .doc("a round trip longer than this is a drop")
                 .source("AIMDLimit timeout"),
             field("growth", &C::growth, FieldKind::choice)
                 .choices(kAllValues<LimitGrowth, kLimitGrowthCount>)
                 .only_if(limit_rules::only<A::aimd>)
                 .with_default(R"("per_update")")
                 .doc("how fast the limit grows back")
                 .source("AIMDLimit: +1 per sample"),
             field("slow_start", &C::slow_start, FieldKind::boolean)
                 .only_if(limit_rules::per_limit)
                 .with_default("false")
                 .doc("+1 per update until the first decrease")
                 .source("TCP slow start (RFC 5681); AIMDLimit has none"),
             number("smoothing", &C::smoothing, kSmoothing)
                 .only_if(limit_rules::only<A::vegas>)
                 .with_default("1")
                 .doc("the new estimate's weight")
                 .source("VegasLimit smoothing"),
             integer("probe_multiplier", &C::probe_multiplier, kProbeMultiplier)
                 .only_if(limit_rules::only<A::vegas>)
                 .with_default("30")
                 .unit("updates per unit of limit")
                 .doc("the no-load RTT is measured again every 0.5-1 x this x limit updates")
                 .source("VegasLimit probeMultiplier"),
             field("drop_on", &C::drop_on, FieldKind::provider_kinds)
                 .noted("adaptive concurrency")
                 .with_default(R"(["timeout", "rate_limited", "overloaded"])")
                 .doc("the answers that mean the backend is saturated")
                 .source("SimpleLimiter onDropped for timeouts and rejections"),
             duration("decrease_window", &C::decrease_window, DurationMin::zero)
                 .with_default(R"("0s")")
                 .doc("0: every drop decreases; else at most one decrease per window")
                 .source("AIMDLimit decreases on every drop; the aibrix#2452 fix"),
             integer("min_drops", &C::min_drops, kDropCount)
                 .only_if(limit_rules::windowed)
                 .with_default("1")
                 .unit("calls")
                 .doc("drops a window needs before it decreases")
                 .source("AIMDLimit: any drop; the aibrix#2452 fix counts them"),
             number("min_drop_rate", &C::min_drop_rate, kProbability)
                 .only_if(limit_rules::windowed)
                 .with_default("0")
                 .doc("the share of the window's calls that must be drops")
                 .source("AIMDLimit: any drop"),
             duration("cooldown", &C::cooldown, DurationMin::zero)
                 .with_default(R"("0s")")
                 .doc("no increase for this long after a decrease")
                 .source("Netflix has none; the inspect_ai#5138 fix"),
             field("cooldown_from_retry_after", &C::cooldown_from_retry_after, FieldKind::boolean)
                 .with_default("false")
                 .doc("a drop's Retry-After also holds increases off")
                 .source("inspect_ai#5138's behaviour, kept to reproduce it"),
             integer("max_queue", &C::max_queue, IntRange{0, 1'000'000})
                 .with_default("0")
                 .unit("calls")
                 .doc("calls waiting for a slot, oldest first")
                 .source("SimpleLimiter rejects at the limit"),
             duration("queue_timeout", &C::queue_timeout, DurationMin::positive)
                 .only_if(limit_rules::queued)
                 .doc("longest wait; none: until the call's deadline"))
        .then(ordered);
}  // namespace limit_rules

constexpr const auto& field_table(std::type_identity<AdaptiveConcurrencyConfig>) { return limit_rules::kFields; }

}  // namespace squall
