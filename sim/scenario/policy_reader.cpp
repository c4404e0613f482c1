#include "sim/scenario/policy_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"

namespace squall {
namespace {

constexpr std::size_t kStrategyCount = std::variant_size_v<StrategyConfig>;

// Upper bounds, far beyond any real policy, that keep every count and product the
// engine derives from them finite and cheap:
// - max_attempts: 1000 attempts of one logical call is a retry storm by itself, and the
//   backoff of attempt n is computed in up to n steps;
// - multiplier: 1000 reaches any max_delay from 1 ns within 7 retries;
// - jitter_range factors: 1000 times a delay is far beyond any real policy's spread
//   (seed 004's is [0.75, 1.25]); the product is capped at max_delay anyway;
// - failure_threshold, half_open_probes: a million consecutive failures or probes; more
//   would never trip or close within a run;
// - max_tokens: 1e15 tokens per task, beyond any budget, far from int64 overflow when
//   the budget adds a call's tokens to it;
// - max_cost_usd: a billion USD per task.
constexpr IntRange kMaxAttempts{1, 1000};  // also budget.max_iterations
constexpr NumberRange kMultiplier{1, false, 1000};
constexpr NumberRange kJitterFactor{0, true, 1000};
constexpr IntRange kBreakerCount{1, 1'000'000};
// - circuit_breaker sliding_window: 100000 calls (a ring entry each, per provider) or an
//   hour of one-second buckets (minimum_number_of_calls takes kBreakerCount); the rate
//   thresholds are percentages kept in parts per million, so 0.0001 is the finest and least.
constexpr IntRange kBreakerWindowCalls{1, 100'000};
constexpr Nanos kMaxBreakerWindow = kHour;
constexpr NumberRange kRatePercent{0.0001, false, 100};
constexpr IntRange kBudgetTokens{1, 1'000'000'000'000'000};
constexpr NumberRange kBudgetCostUsd{0, true, 1e9};
// - reflect's prompt_tokens and max_output_tokens: 1e9 tokens, the providers' bound;
// - max_reflections: 100 reflections of one logical call, each an LLM call.
constexpr IntRange kReflectTokens{1, 1'000'000'000};
constexpr IntRange kMaxReflections{1, 100};
// - relax_threshold step: 0.01 at least, so a ladder has at most 101 dense rungs, each a
//   provider call (a finer step is below any difference in similarity that matters);
// - rewrite_query's prompt_tokens and max_output_tokens: reflect's bounds; max_rewrites:
//   100 rewrites of one query, each an LLM call.
constexpr NumberRange kRelaxStep{0.01, false, 1};
constexpr IntRange kMaxRewrites{1, 100};
// - escalation at_least: a billion failed attempts, fallbacks or tokens, or USD, per task:
//   far beyond any real task, and exact in the double the rule keeps.
constexpr IntRange kEscalationCount{1, 1'000'000'000};
constexpr NumberRange kEscalationAmount{0, true, 1e9};
// - cache max_entries: ten million entries, each a page of search hits; more is
//   gigabytes of memory for one pipeline's cache.
constexpr IntRange kCacheEntries{1, 10'000'000};
// - retry_budget: budget_percent is a percentage; min_retry_concurrency, a million retries
//   in flight; max_tokens is gRFC A6's range (0, 1000] from its
//   finest value, 0.001, token_ratio at most max_tokens'
//   bound (a success adding more than the bucket holds means nothing more).
// - adaptive_throttling: K in [1, 1000] (below 1 it rejects requests the backend accepts);
//   a window of at most an hour, 3600 one-second buckets per backend.
constexpr NumberRange kBudgetPercent{0, false, 100};
constexpr IntRange kRetryConcurrency{0, 1'000'000};
constexpr NumberRange kGrpcTokens{0.001, false, 1000};
constexpr NumberRange kThrottleK{1, false, 1000};
constexpr Nanos kMaxThrottleWindow = kHour;
// - hedging max_hedged_attempts: 10 hedges per call (gRPC caps maxAttempts at 5 by default);
//   budget: 10 hedged attempts per primary request, the most 10 hedges can use; kept in
//   integer parts per million, so 1e7 ppm times any call count stays far from overflow.
// - bulkhead max_concurrent_calls and max_queue, rate_limiter limit_for_period: a
//   million, far beyond any real client's concurrency or burst.
constexpr IntRange kMaxHedgedAttempts{1, 10};
constexpr NumberRange kHedgeBudget{0, false, 10};
constexpr IntRange kBulkheadCalls{1, 1'000'000};
constexpr IntRange kBulkheadQueue{0, 1'000'000};
constexpr IntRange kLimitForPeriod{1, 1'000'000};

// The provider types whose searches rewrite_query repairs: search providers (relax_threshold
// repairs only vector_search's). A new search type is one more entry here.
constexpr std::array kSearchTypes{ProviderType::web_search, ProviderType::vector_search};

// Strategy names in StrategyConfig's alternative order (engine/strategies/strategy_list.hpp).
template <std::size_t... I>
constexpr std::array<std::string_view, kStrategyCount> make_strategy_names(std::index_sequence<I...>) {
  return {std::variant_alternative_t<I, StrategyConfig>::kName...};
}
constexpr auto kStrategyNames = make_strategy_names(std::make_index_sequence<kStrategyCount>());
const std::array<std::string_view, kStrategyCount>& strategy_names() { return kStrategyNames; }

// Outcome kinds a retry_on or failure_on list may name: every kind but success.
struct KindChoices {
  std::vector<std::string_view> names;
  std::vector<OutcomeKind> values;
};
const KindChoices& failure_kinds() {
  static const KindChoices choices = [] {
    KindChoices c;
    for (const OutcomeKind kind : all_outcome_kinds()) {
      if (kind == OutcomeKind::success) continue;
      c.names.push_back(to_string(kind));
      c.values.push_back(kind);
    }
    return c;
  }();
  return choices;
}

void read_kinds(const ObjectReader& obj, std::string_view key, std::vector<OutcomeKind>& out) {
  const Json* v = obj.find(key);
  if (v == nullptr) return;
  const KindChoices& kinds = failure_kinds();
  if (auto list = read_choice_list<OutcomeKind>(*v, obj.path_of(key), obj.diag(), kinds.names, kinds.values)) {
    out = std::move(*list);
  }
}

// A list of kinds counted only for calls that reached the provider (circuit_breaker's
// failure_on, retry_budget's failure_on, adaptive_throttling's reject_on): a local refusal
// (retry class local: circuit_open, bulkhead_full, ...) never reaches that count, so naming
// one would silently do nothing. `counter` names who counts, for the message.
void read_provider_kinds(const ObjectReader& obj, std::string_view key, std::vector<OutcomeKind>& out,
                         std::string_view counter) {
  std::vector<OutcomeKind> kinds = out;
  read_kinds(obj, key, kinds);
  bool ok = true;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (retry_class(kinds[i]) != RetryClass::local) continue;
    ok = false;
    obj.diag().error(pointer_append(obj.path_of(key), i),
                     fmt::format("\"{}\" is a local refusal, made without calling the provider; {} counts only calls "
                                 "that reached the provider, so it never sees one",
                                 to_string(kinds[i]), counter));
  }
  if (ok) out = std::move(kinds);
}

void read_config(const ObjectReader& obj, TimeoutConfig& config) {
  obj.get_duration("per_attempt", config.per_attempt, DurationMin::positive);
  obj.get_duration("total", config.total, DurationMin::positive);
}

// jitter_range: [min, max], two factors in (0, 1000] with min <= max.
void read_jitter_range(const ObjectReader& obj, JitterRange& out) {
  const Json& v = *obj.find("jitter_range");
  const std::string path = obj.path_of("jitter_range");
  if (!v.is_array() || v.size() != 2) {
    obj.diag().error(path, fmt::format("expected an array of two numbers [min, max], got {}", describe(v)));
    return;
  }
  const auto min = read_number(v[0], pointer_append(path, 0), obj.diag(), kJitterFactor);
  const auto max = read_number(v[1], pointer_append(path, 1), obj.diag(), kJitterFactor);
  if (!min || !max) return;
  if (*min > *max) {
    obj.diag().error(path, fmt::format("expected [min, max] with min <= max, got {}", describe(v)));
    return;
  }
  out = JitterRange{*min, *max};
}

void read_config(const ObjectReader& obj, RetryConfig& config) {
  static constexpr auto kBackoffs = all_values<Backoff, kBackoffCount>();
  static constexpr auto kJitters = all_values<Jitter, kJitterCount>();
  static const auto kBackoffNames = names_of(kBackoffs);
  static const auto kJitterNames = names_of(kJitters);
  // Decorrelated jitter replaces the backoff formula (engine/strategies/retry.hpp), so
  // the keys that shape that formula do not apply to it. The jitter itself is read (and
  // its errors reported) at its own place below.
  const Json* jitter = obj.find("jitter");
  const bool decorrelated = jitter != nullptr && jitter->is_string() &&
                            jitter->get_ref<const std::string&>() == to_string(Jitter::decorrelated);
  const auto replaced_by_decorrelated = [&obj](std::string_view key) {
    obj.diag().error(obj.path_of(key), "does not apply to jitter \"decorrelated\", which replaces the backoff formula");
  };
  obj.get("max_attempts", config.max_attempts, kMaxAttempts);
  read_kinds(obj, "retry_on", config.retry_on);
  bool backoff_ok = obj.find("backoff") == nullptr;
  if (!backoff_ok && decorrelated) {
    replaced_by_decorrelated("backoff");
  } else if (!backoff_ok) {
    backoff_ok = obj.get_choice<Backoff>("backoff", config.backoff, kBackoffNames, kBackoffs);
  }
  const bool base_ok =
      obj.find("base_delay") == nullptr || obj.get_duration("base_delay", config.base_delay, DurationMin::zero);
  if (obj.find("multiplier") != nullptr && decorrelated) {
    replaced_by_decorrelated("multiplier");
  } else if (obj.find("multiplier") != nullptr && backoff_ok && config.backoff != Backoff::exponential) {
    obj.diag().error(obj.path_of("multiplier"),
                     fmt::format("applies only to backoff \"exponential\", not \"{}\"", to_string(config.backoff)));
  } else {
    obj.get("multiplier", config.multiplier, kMultiplier);
  }
  // base_delay <= max_delay, whichever of them is left at its default.
  if (obj.find("max_delay") != nullptr) {
    if (obj.get_duration("max_delay", config.max_delay, DurationMin::zero) && base_ok &&
        config.max_delay < config.base_delay) {
      obj.diag().error(obj.path_of("max_delay"),
                       fmt::format("expected a duration >= base_delay ({}), got {}", format_duration(config.base_delay),
                                   describe(*obj.find("max_delay"))));
    }
  } else if (obj.find("base_delay") != nullptr && base_ok && config.base_delay > config.max_delay) {
    obj.diag().error(
        obj.path_of("base_delay"),
        fmt::format("expected a duration <= max_delay ({}, its default; set max_delay to allow more), got {}",
                    format_duration(config.max_delay), describe(*obj.find("base_delay"))));
  }
  const bool jitter_ok = jitter == nullptr || obj.get_choice<Jitter>("jitter", config.jitter, kJitterNames, kJitters);
  if (obj.find("jitter_range") != nullptr) {
    if (!jitter_ok) {
      // The jitter's own error says enough; whether the range applies is unknown.
    } else if (config.jitter != Jitter::proportional) {
      obj.diag().error(obj.path_of("jitter_range"),
                       fmt::format("applies only to jitter \"proportional\", not \"{}\"", to_string(config.jitter)));
    } else {
      read_jitter_range(obj, config.jitter_range);
    }
  }
  const bool honour_ok =
      obj.find("honour_retry_after") == nullptr || obj.get("honour_retry_after", config.honour_retry_after);
  // The keys that say how a Retry-After is read mean nothing when it is not honoured.
  const auto honoured = [&](std::string_view key) {
    if (obj.find(key) == nullptr || !honour_ok || config.honour_retry_after) return true;
    obj.diag().error(obj.path_of(key), "applies only when honour_retry_after is true");
    return false;
  };
  static constexpr auto kOverMax = all_values<RetryAfterOverMax, kRetryAfterOverMaxCount>();
  static const auto kOverMaxNames = names_of(kOverMax);
  if (honoured("over_max_retry_after")) {
    obj.get_choice<RetryAfterOverMax>("over_max_retry_after", config.over_max_retry_after, kOverMaxNames, kOverMax);
  }
  static constexpr auto kZero = all_values<RetryAfterZero, kRetryAfterZeroCount>();
  static const auto kZeroNames = names_of(kZero);
  if (honoured("zero_retry_after")) {
    obj.get_choice<RetryAfterZero>("zero_retry_after", config.zero_retry_after, kZeroNames, kZero);
  }
  if (honoured("max_retry_after")) obj.get_duration("max_retry_after", config.max_retry_after, DurationMin::zero);
}

// sliding_window: {"type": count_based | time_based (required), "size": calls (an integer)
// or seconds (a whole-second duration)}.
std::optional<SlidingWindowConfig> read_sliding_window(const ObjectReader& parent) {
  static constexpr auto kTypes = all_values<SlidingWindowType, kSlidingWindowTypeCount>();
  static const auto kTypeNames = names_of(kTypes);
  const std::size_t errors_before = parent.diag().count();
  const ObjectReader obj(*parent.find("sliding_window"), parent.path_of("sliding_window"), parent.diag(),
                         {"type", "size"});
  if (!obj.valid()) return std::nullopt;
  SlidingWindowConfig window;
  if (obj.require("type") == nullptr || !obj.get_choice<SlidingWindowType>("type", window.type, kTypeNames, kTypes)) {
    return std::nullopt;
  }
  if (obj.find("size") != nullptr && window.type == SlidingWindowType::count_based) {
    obj.get("size", window.size, kBreakerWindowCalls);
  } else if (obj.find("size") != nullptr) {
    Nanos size = 0;
    if (obj.get_duration("size", size, DurationMin::positive)) {
      if (size % kSecond != 0 || size > kMaxBreakerWindow) {
        obj.diag().error(obj.path_of("size"), fmt::format("expected a whole number of seconds from 1s to 1h, got {}",
                                                          describe(*obj.find("size"))));
      } else {
        window.size = size / kSecond;
      }
    }
  }
  if (parent.diag().count() != errors_before) return std::nullopt;
  return window;
}

// A percentage in (0, 100], kept in parts per million (0.0001 percent): a finer value is an
// error rather than silently rounded (0.00001 would round to 0 ppm and open the breaker
// with no failure at all).
void read_rate_ppm(const ObjectReader& obj, std::string_view key, std::int64_t& out) {
  double percent = 0;
  if (!obj.get(key, percent, kRatePercent)) return;
  const double ppm = percent * 10'000.0;
  const double rounded = std::round(ppm);
  if (rounded < 1 || std::abs(ppm - rounded) > 1e-6) {
    obj.diag().error(obj.path_of(key),
                     fmt::format("expected a multiple of 0.0001 (the breaker keeps rates in parts per million), got {}",
                                 describe(*obj.find(key))));
    return;
  }
  out = static_cast<std::int64_t>(rounded);
}

// Two modes (engine/strategies/circuit_breaker.hpp): without sliding_window, consecutive
// failures (failure_threshold); with it, failure and slow-call rates, whose keys apply only
// there.
void read_config(const ObjectReader& obj, CircuitBreakerConfig& config) {
  const bool windowed = obj.find("sliding_window") != nullptr;
  if (windowed) config.sliding_window = read_sliding_window(obj);
  if (windowed && obj.find("failure_threshold") != nullptr) {
    obj.diag().error(obj.path_of("failure_threshold"),
                     "applies only without sliding_window (the consecutive-failure mode); a sliding_window opens on "
                     "failure_rate_threshold");
  } else {
    obj.get("failure_threshold", config.failure_threshold, kBreakerCount);
  }
  const bool open_ok = obj.find("open_duration") == nullptr ||
                       obj.get_duration("open_duration", config.open_duration, DurationMin::positive);
  std::int32_t probes = 0;
  if (obj.get("half_open_probes", probes, kBreakerCount)) config.half_open_probes = probes;
  read_provider_kinds(obj, "failure_on", config.failure_on, "the breaker");
  for (const std::string_view key :
       {std::string_view("failure_rate_threshold"), std::string_view("minimum_number_of_calls"),
        std::string_view("slow_call_rate_threshold"), std::string_view("slow_call_duration_threshold")}) {
    if (!windowed && obj.find(key) != nullptr) {
      obj.diag().error(obj.path_of(key), "applies only with a sliding_window (the rate-based mode)");
    }
  }
  if (windowed) {
    read_rate_ppm(obj, "failure_rate_threshold", config.failure_rate_threshold_ppm);
    obj.get("minimum_number_of_calls", config.minimum_number_of_calls, kBreakerCount);
    read_rate_ppm(obj, "slow_call_rate_threshold", config.slow_call_rate_threshold_ppm);
    obj.get_duration("slow_call_duration_threshold", config.slow_call_duration_threshold, DurationMin::positive);
  }
  obj.get("open_duration_multiplier", config.open_duration_multiplier, kMultiplier);
  Nanos max_open = 0;
  if (obj.get_duration("max_open_duration", max_open, DurationMin::positive)) {
    if (open_ok && max_open < config.open_duration) {
      obj.diag().error(obj.path_of("max_open_duration"),
                       fmt::format("expected a duration >= open_duration ({}), got {}",
                                   format_duration(config.open_duration), describe(*obj.find("max_open_duration"))));
    } else {
      config.max_open_duration = max_open;
    }
  }
}

void read_config(const ObjectReader& obj, SimplifyQueryConfig& config) {
  static constexpr std::array<SimplifyStep, 5> kSteps{SimplifyStep::drop_quotes, SimplifyStep::drop_years,
                                                      SimplifyStep::first_5_words, SimplifyStep::first_3_words,
                                                      SimplifyStep::drop_filler_words};
  static const auto kStepNames = names_of(kSteps);
  bool steps_ok = true;
  if (const Json* steps = obj.find("steps")) {
    auto list = read_choice_list<SimplifyStep>(*steps, obj.path_of("steps"), obj.diag(), kStepNames, kSteps);
    steps_ok = list.has_value();
    if (list) config.steps = std::move(*list);
  }
  const Json* words = obj.find("filler_words");
  if (words == nullptr) return;
  const std::string path = obj.path_of("filler_words");
  if (steps_ok &&
      std::find(config.steps.begin(), config.steps.end(), SimplifyStep::drop_filler_words) == config.steps.end()) {
    obj.diag().error(path, "applies only when steps include \"drop_filler_words\"");
    return;
  }
  const auto elements = read_array(*words, path, obj.diag(), /*nonempty=*/false);
  config.filler_words.clear();
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (auto word = read_nonempty_string(elements[i], pointer_append(path, i), obj.diag())) {
      config.filler_words.push_back(std::move(*word));
    }
  }
}

// Similarity thresholds are in [0, 1] (kProbability's range), and the floor is at most
// the first threshold, whichever of them is left at its default: a ladder only goes down.
void read_config(const ObjectReader& obj, RelaxThresholdConfig& config) {
  const bool initial_ok = obj.find("initial") == nullptr || obj.get("initial", config.initial, kProbability);
  obj.get("step", config.step, kRelaxStep);
  if (obj.find("floor") != nullptr) {
    if (obj.get("floor", config.floor, kProbability) && initial_ok && config.floor > config.initial) {
      obj.diag().error(obj.path_of("floor"), fmt::format("expected a number <= initial ({}), got {}", config.initial,
                                                         describe(*obj.find("floor"))));
    }
  } else if (obj.find("initial") != nullptr && initial_ok && config.initial < config.floor) {
    obj.diag().error(obj.path_of("initial"),
                     fmt::format("expected a number >= floor ({}, its default; set floor to go lower), got {}",
                                 config.floor, describe(*obj.find("initial"))));
  }
  obj.get("keyword", config.keyword);
}

void read_config(const ObjectReader& obj, RewriteQueryConfig& config) {
  if (obj.require("provider") != nullptr) obj.get_nonempty("provider", config.provider);
  obj.get("prompt_tokens", config.prompt_tokens, kReflectTokens);
  obj.get("max_output_tokens", config.max_output_tokens, kReflectTokens);
  obj.get("max_rewrites", config.max_rewrites, kMaxRewrites);
}

void read_config(const ObjectReader& obj, BudgetConfig& config) {
  std::int64_t max_tokens = 0;
  if (obj.get("max_tokens", max_tokens, kBudgetTokens)) config.max_tokens = max_tokens;
  double max_cost_usd = 0;
  if (obj.get("max_cost_usd", max_cost_usd, kBudgetCostUsd)) config.max_cost_usd = max_cost_usd;
  std::int32_t max_iterations = 0;
  if (obj.get("max_iterations", max_iterations, kMaxAttempts)) config.max_iterations = max_iterations;
  if (obj.find("max_tokens") == nullptr && obj.find("max_cost_usd") == nullptr &&
      obj.find("max_iterations") == nullptr) {
    obj.diag().error(obj.path(), "expected at least one of: max_tokens, max_cost_usd, max_iterations");
  }
}

void read_config(const ObjectReader& obj, FallbackConfig& config) {
  static constexpr auto kRoutings = all_values<FallbackRouting, kFallbackRoutingCount>();
  static const auto kRoutingNames = names_of(kRoutings);
  if (const Json* list = obj.require("providers")) {
    const std::string path = obj.path_of("providers");
    const auto elements = read_array(*list, path, obj.diag(), /*nonempty=*/true);
    for (std::size_t i = 0; i < elements.size(); ++i) {
      const std::string item = pointer_append(path, i);
      auto name = read_nonempty_string(elements[i], item, obj.diag());
      if (!name) continue;
      const auto seen = std::find(config.providers.begin(), config.providers.end(), *name);
      if (seen != config.providers.end()) {
        obj.diag().error(item,
                         fmt::format("duplicate \"{}\" (also {})", *name,
                                     pointer_append(path, static_cast<std::size_t>(seen - config.providers.begin()))));
        continue;
      }
      config.providers.push_back(std::move(*name));
    }
  }
  read_kinds(obj, "on", config.on);
  obj.get_choice<FallbackRouting>("routing", config.routing, kRoutingNames, kRoutings);
}

void read_config(const ObjectReader& obj, ValidateConfig& config) {
  static constexpr auto kChecks = all_values<ValidateCheck, kValidateCheckCount>();
  static const auto kCheckNames = names_of(kChecks);
  if (const Json* list = obj.find("require")) {
    if (auto checks =
            read_choice_list<ValidateCheck>(*list, obj.path_of("require"), obj.diag(), kCheckNames, kChecks)) {
      config.require = std::move(*checks);
    }
  }
}

// A non-empty list of distinct non-empty names at `key`.
void read_name_list(const ObjectReader& obj, std::string_view key, std::vector<std::string>& out) {
  const Json* list = obj.find(key);
  if (list == nullptr) return;
  const std::string path = obj.path_of(key);
  const auto elements = read_array(*list, path, obj.diag(), /*nonempty=*/true);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::string item = pointer_append(path, i);
    auto name = read_nonempty_string(elements[i], item, obj.diag());
    if (!name) continue;
    const auto seen = std::find(out.begin(), out.end(), *name);
    if (seen != out.end()) {
      obj.diag().error(item, fmt::format("duplicate \"{}\" (also {})", *name,
                                         pointer_append(path, static_cast<std::size_t>(seen - out.begin()))));
      continue;
    }
    out.push_back(std::move(*name));
  }
}

void read_config(const ObjectReader& obj, ReflectConfig& config) {
  if (obj.require("provider") != nullptr) obj.get_nonempty("provider", config.provider);
  read_kinds(obj, "on", config.on);
  obj.get("prompt_tokens", config.prompt_tokens, kReflectTokens);
  obj.get("max_output_tokens", config.max_output_tokens, kReflectTokens);
  obj.get("max_reflections", config.max_reflections, kMaxReflections);
  if (obj.find("include_tools") != nullptr && obj.find("exclude_tools") != nullptr) {
    obj.diag().error(obj.path(), "expected at most one of include_tools and exclude_tools, got both");
    return;
  }
  read_name_list(obj, "include_tools", config.include_tools);
  read_name_list(obj, "exclude_tools", config.exclude_tools);
}

void read_config(const ObjectReader& obj, CacheConfig& config) {
  obj.get_duration("ttl", config.ttl, DurationMin::positive);
  obj.get("max_entries", config.max_entries, kCacheEntries);
  Nanos stale_if_error = 0;
  if (obj.get_duration("stale_if_error", stale_if_error, DurationMin::positive)) {
    config.stale_if_error = stale_if_error;
  }
  if (obj.find("stale_on") != nullptr && obj.find("stale_if_error") == nullptr) {
    obj.diag().error(obj.path_of("stale_on"), "applies only when stale_if_error is set");
  } else {
    read_kinds(obj, "stale_on", config.stale_on);
  }
  Nanos cache_empty = 0;
  if (obj.get_duration("cache_empty", cache_empty, DurationMin::positive)) config.cache_empty = cache_empty;
}

// A gRPC token figure (max_tokens, token_ratio) in milli-tokens: A6 keeps three decimal
// places, so a finer value is an error rather than silently truncated.
void read_milli_tokens(const ObjectReader& obj, std::string_view key, std::int64_t& out) {
  double value = 0;
  if (!obj.get(key, value, kGrpcTokens)) return;
  const double milli = value * 1000.0;
  const double rounded = std::round(milli);
  if (rounded < 1 || std::abs(milli - rounded) > 1e-6) {
    obj.diag().error(obj.path_of(key), fmt::format("expected a multiple of 0.001 (gRPC keeps milli-tokens), got {}",
                                                   describe(*obj.find(key))));
    return;
  }
  out = static_cast<std::int64_t>(rounded);
}

// Keys of one mode only: "applies only to mode \"grpc\"".
void read_config(const ObjectReader& obj, RetryBudgetConfig& config) {
  static constexpr auto kModes = all_values<RetryBudgetMode, kRetryBudgetModeCount>();
  static const auto kModeNames = names_of(kModes);
  const bool mode_ok =
      obj.find("mode") == nullptr || obj.get_choice<RetryBudgetMode>("mode", config.mode, kModeNames, kModes);
  const auto only = [&](std::string_view key, RetryBudgetMode mode) {
    if (obj.find(key) == nullptr || !mode_ok || config.mode == mode) return true;
    obj.diag().error(obj.path_of(key), fmt::format("applies only to mode \"{}\"", to_string(mode)));
    return false;
  };
  if (only("budget_percent", RetryBudgetMode::envoy)) obj.get("budget_percent", config.budget_percent, kBudgetPercent);
  if (only("min_retry_concurrency", RetryBudgetMode::envoy)) {
    obj.get("min_retry_concurrency", config.min_retry_concurrency, kRetryConcurrency);
  }
  if (only("max_tokens", RetryBudgetMode::grpc)) read_milli_tokens(obj, "max_tokens", config.max_milli_tokens);
  if (only("token_ratio", RetryBudgetMode::grpc)) read_milli_tokens(obj, "token_ratio", config.token_ratio_milli);
  if (only("failure_on", RetryBudgetMode::grpc))
    read_provider_kinds(obj, "failure_on", config.failure_on, "the retry budget");
}

// The window is kept in one-second buckets: a whole number of seconds, at most an hour.
void read_config(const ObjectReader& obj, AdaptiveThrottlingConfig& config) {
  Nanos window = 0;
  if (obj.get_duration("window", window, DurationMin::positive)) {
    if (window % kSecond != 0 || window > kMaxThrottleWindow) {
      obj.diag().error(obj.path_of("window"), fmt::format("expected a whole number of seconds from 1s to 1h, got {}",
                                                          describe(*obj.find("window"))));
    } else {
      config.window = window;
    }
  }
  obj.get("k", config.k, kThrottleK);
  read_provider_kinds(obj, "reject_on", config.reject_on, "adaptive throttling");
}

// A rule: {"when": condition, "at_least": threshold (count and amount conditions only),
// "level": level}.
std::optional<EscalationRule> read_escalation_rule(const Json& value, const std::string& path, Diagnostics& diag) {
  static const auto kConditionNames = names_of(all_escalation_conditions());
  static const auto kLevelNames = names_of(all_escalation_levels());
  const std::size_t errors_before = diag.count();
  const ObjectReader obj(value, path, diag, {"when", "at_least", "level"});
  if (!obj.valid()) return std::nullopt;
  EscalationRule rule;
  const bool when_ok =
      obj.require("when") != nullptr &&
      obj.get_choice<EscalationCondition>("when", rule.when, kConditionNames, std::span(all_escalation_conditions()));
  if (obj.require("level") != nullptr) {
    obj.get_choice<EscalationLevel>("level", rule.level, kLevelNames, std::span(all_escalation_levels()));
  }
  if (when_ok) {
    const ConditionArgument argument = argument_of(rule.when);
    if (argument == ConditionArgument::flag) {
      if (obj.find("at_least") != nullptr) {
        std::vector<std::string_view> thresholds;
        for (EscalationCondition c : all_escalation_conditions()) {
          if (argument_of(c) != ConditionArgument::flag) thresholds.push_back(to_string(c));
        }
        diag.error(obj.path_of("at_least"), fmt::format("applies only to conditions with a threshold ({}), not \"{}\"",
                                                        join(thresholds), to_string(rule.when)));
      }
    } else if (obj.find("at_least") == nullptr) {
      diag.error(path, fmt::format("missing required key \"at_least\", which \"{}\" needs", to_string(rule.when)));
    } else if (argument == ConditionArgument::count) {
      std::int64_t at_least = 0;
      if (obj.get("at_least", at_least, kEscalationCount)) rule.at_least = static_cast<double>(at_least);
    } else {
      obj.get("at_least", rule.at_least, kEscalationAmount);
    }
  }
  if (diag.count() != errors_before) return std::nullopt;
  return rule;
}

void read_config(const ObjectReader& obj, EscalationConfig& config) {
  const Json* list = obj.find("rules");
  if (list == nullptr) return;
  const std::string path = obj.path_of("rules");
  config.rules.clear();
  std::vector<std::size_t> positions;  // each accepted rule's index in the array
  const auto elements = read_array(*list, path, obj.diag(), /*nonempty=*/true);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::string item = pointer_append(path, i);
    auto rule = read_escalation_rule(elements[i], item, obj.diag());
    if (!rule) continue;
    const bool flag = argument_of(rule->when) == ConditionArgument::flag;
    bool repeated = false;
    for (std::size_t j = 0; j < config.rules.size() && !repeated; ++j) {
      const EscalationRule& seen = config.rules[j];
      if (seen.when != rule->when || (!flag && seen.at_least != rule->at_least)) continue;
      const std::string what = flag ? fmt::format("\"{}\"", to_string(rule->when))
                                    : fmt::format("\"{}\" at_least {}", to_string(rule->when), rule->at_least);
      obj.diag().error(item, fmt::format("duplicate rule {} (also {})", what, pointer_append(path, positions[j])));
      repeated = true;
    }
    if (repeated) continue;
    config.rules.push_back(*rule);
    positions.push_back(i);
  }
}

void read_config(const ObjectReader& obj, HedgingConfig& config) {
  obj.get("max_hedged_attempts", config.max_hedged_attempts, kMaxHedgedAttempts);
  obj.get_duration("delay", config.delay, DurationMin::zero);
  double budget = 0;
  if (obj.get("budget", budget, kHedgeBudget)) {
    // Kept in parts per million: a finer value is an error rather than silently rounded
    // (1e-7 would round to 0 and refuse every hedge).
    const double ppm = budget * 1e6;
    if (std::abs(ppm - std::round(ppm)) > 1e-6) {
      obj.diag().error(
          obj.path_of("budget"),
          fmt::format("expected a multiple of 0.000001 (hedging keeps its budget in parts per million), got {}",
                      describe(*obj.find("budget"))));
    } else {
      config.budget = budget;
    }
  }
  read_name_list(obj, "providers", config.providers);
}

void read_config(const ObjectReader& obj, BulkheadConfig& config) {
  obj.get("max_concurrent_calls", config.max_concurrent_calls, kBulkheadCalls);
  const bool queue_ok = obj.get("max_queue", config.max_queue, kBulkheadQueue) || obj.find("max_queue") == nullptr;
  if (obj.find("queue_timeout") != nullptr && queue_ok && config.max_queue == 0) {
    obj.diag().error(obj.path_of("queue_timeout"), "applies only when max_queue > 0");
  } else {
    obj.get_duration("queue_timeout", config.queue_timeout, DurationMin::positive);
  }
}

void read_config(const ObjectReader& obj, RateLimiterConfig& config) {
  obj.get("limit_for_period", config.limit_for_period, kLimitForPeriod);
  obj.get_duration("limit_refresh_period", config.limit_refresh_period, DurationMin::positive);
  obj.get_duration("timeout_duration", config.timeout_duration, DurationMin::zero);
}

// Reads the config of the strategy with alternative index `index`.
template <std::size_t I = 0>
std::optional<StrategyConfig> read_strategy(std::size_t index, const Json& value, const std::string& path,
                                            Diagnostics& diag) {
  if constexpr (I == kStrategyCount) {
    return std::nullopt;
  } else {
    if (index != I) return read_strategy<I + 1>(index, value, path, diag);
    std::variant_alternative_t<I, StrategyConfig> config;
    const std::size_t errors_before = diag.count();
    const ObjectReader obj(value, path, diag, decltype(config)::kKeys);
    if (obj.valid()) read_config(obj, config);
    if (diag.count() != errors_before) return std::nullopt;
    return StrategyConfig(std::move(config));
  }
}

// The cross-check rules, shared by read_policy (file positions) and check_policy (list
// positions, equal to the file's for a complete policy). A key names a tool (its
// pipeline) or, in a scenario with a `tools` block, a provider (its own stack).
void check_owner(std::string_view owner, const ScenarioNames& names, const std::string& path, Diagnostics& diag) {
  if (names.tools.contains(owner)) return;
  if (names.explicit_tools && names.providers.contains(owner)) return;
  if (!names.explicit_tools) {
    diag.error(path, no_such_provider(owner, names.providers));
    return;
  }
  diag.error(path, fmt::format("{}; nor is it a provider", names.no_such_tool(owner)));
}

// Whether a call to a provider of type `a` may go to one of type `b` instead: the same
// type, or two search types (a vector index may fall back to a web search, as a RAG
// agent's retriever does: both answer a query with hits; each ignores the other's
// parameters).
bool interchangeable(ProviderType a, ProviderType b) {
  const auto is_search = [](ProviderType t) {
    return std::find(kSearchTypes.begin(), kSearchTypes.end(), t) != kSearchTypes.end();
  };
  return a == b || (is_search(a) && is_search(b));
}

// The providers a tool's strategy sends the tool's requests to besides its own (fallback's
// backups, hedging's targets, at `path`): each exists and can take the tool's requests
// (interchangeable types); the tool's own provider `primary` is listed only if `own_allowed`.
void check_other_providers(const std::vector<std::string>& providers, const std::string& primary, bool own_allowed,
                           const ScenarioNames& names, const std::string& path, Diagnostics& diag) {
  const auto primary_type = names.providers.find(primary);
  for (std::size_t i = 0; i < providers.size(); ++i) {
    const std::string& name = providers[i];
    const std::string item = pointer_append(path, i);
    const auto candidate = names.providers.find(name);
    if (candidate == names.providers.end()) {
      diag.error(item, no_such_provider(name, names.providers));
    } else if (name == primary && !own_allowed) {
      diag.error(item,
                 fmt::format("\"{}\" is the tool's own provider; fallback lists the providers to try after it", name));
    } else if (candidate->second && primary_type != names.providers.end() && primary_type->second &&
               !interchangeable(*candidate->second, *primary_type->second)) {
      diag.error(item,
                 fmt::format("{}; the tool's provider \"{}\" is {} {} provider", provider_is(name, *candidate->second),
                             primary, *primary_type->second == ProviderType::llm ? "an" : "a",
                             to_string(*primary_type->second)));
    }
  }
}

// The error for a strategy that lives only in tools' pipelines, found in provider `owner`'s
// stack, which serves one provider.
std::string only_for_tools(std::string_view owner) {
  return fmt::format("applies only to a tool's pipeline; \"{}\" is a provider, whose stack serves one provider", owner);
}

void check_fallback(const FallbackConfig& config, std::string_view owner, const ScenarioNames& names,
                    const std::string& path, Diagnostics& diag) {
  const auto tool = names.tool_provider.find(owner);
  if (tool == names.tool_provider.end()) {
    if (names.providers.contains(owner)) diag.error(path, "fallback " + only_for_tools(owner));
    return;
  }
  check_other_providers(config.providers, tool->second, false, names, pointer_append(path, "providers"), diag);
}

// Hedging's `providers`: a tool's pipeline only (a provider's stack serves one provider),
// each an existing provider that can take the tool's requests (interchangeable types, as
// fallback's backups). The tool's own provider may be listed: hedges then alternate.
void check_hedging(const HedgingConfig& config, std::string_view owner, const ScenarioNames& names,
                   const std::string& path, Diagnostics& diag) {
  if (config.providers.empty()) return;
  const std::string providers = pointer_append(path, "providers");
  const auto tool = names.tool_provider.find(owner);
  if (tool == names.tool_provider.end()) {
    if (names.providers.contains(owner)) diag.error(providers, only_for_tools(owner));
    return;
  }
  check_other_providers(config.providers, tool->second, true, names, providers, diag);
}

// A strategy that calls another provider for a tool's call (reflect, rewrite_query)
// lives only in tools' pipelines: a provider's stack is built before the registry holds
// every provider, and serves one provider.
void only_in_tools(std::string_view strategy, std::string_view owner, const ScenarioNames& names,
                   const std::string& path, Diagnostics& diag) {
  if (names.tools.contains(owner) || !names.providers.contains(owner)) return;
  diag.error(path, fmt::format("{} {}", strategy, only_for_tools(owner)));
}

// The provider of a strategy that asks an LLM (`purpose`: "reflect", "rewrite queries")
// exists and is an llm provider.
void check_llm_provider(const std::string& provider, std::string_view purpose, const ScenarioNames& names,
                        const std::string& path, Diagnostics& diag) {
  if (const auto llm = names.providers.find(provider); llm == names.providers.end()) {
    diag.error(path, no_such_provider(provider, names.providers));
  } else if (llm->second && *llm->second != ProviderType::llm) {
    diag.error(path, fmt::format("expected an llm provider to {}; {}", purpose, provider_is(provider, *llm->second)));
  }
}

void check_reflect(const ReflectConfig& config, std::string_view owner, const ScenarioNames& names,
                   const std::string& path, Diagnostics& diag) {
  const auto tool = names.tools.find(owner);
  if (tool == names.tools.end()) {
    only_in_tools(ReflectConfig::kName, owner, names, path, diag);
    return;
  }
  if (tool->second && *tool->second != ProviderType::tool) {
    const auto served = names.tool_provider.find(owner);
    const std::string& provider = served != names.tool_provider.end() ? served->second : tool->first;
    diag.error(path, fmt::format("reflect applies only to tools served by tool providers; {}",
                                 provider_is(provider, *tool->second)));
  }
  check_llm_provider(config.provider, "reflect", names, pointer_append(path, "provider"), diag);
  for (const auto& [key, list] :
       {std::pair{"include_tools", &config.include_tools}, std::pair{"exclude_tools", &config.exclude_tools}}) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      if (!names.tools.contains((*list)[i])) {
        diag.error(pointer_append(pointer_append(path, key), i), names.no_such_tool((*list)[i]));
      }
    }
  }
}

// The cache keys requests by their query: it serves search tools and search providers'
// stacks only (CacheConfig::kAppliesTo).
void check_cache(std::string_view owner, ProviderType type, const ScenarioNames& names, const std::string& path,
                 Diagnostics& diag) {
  const auto& kinds = CacheConfig::kAppliesTo;
  if (std::find(kinds.begin(), kinds.end(), type) != kinds.end()) return;
  const auto served = names.tool_provider.find(owner);
  const std::string_view provider = served != names.tool_provider.end() ? std::string_view(served->second) : owner;
  const auto kind_names = names_of(kinds);
  diag.error(path, fmt::format("cache applies only to tools and stacks of search providers ({}), whose requests "
                               "carry a query; {}",
                               join(kind_names), provider_is(provider, type)));
}

void check_strategy(const StrategyConfig& config, std::string_view owner, const ScenarioNames& names,
                    const std::string& path, Diagnostics& diag) {
  if (std::holds_alternative<EscalationConfig>(config)) {
    if (!names.tools.contains(owner) && names.providers.contains(owner)) {
      diag.error(path, fmt::format("escalation applies only to a tool's list; \"{}\" is a provider, whose stack "
                                   "serves calls, not tasks",
                                   owner));
    }
    return;
  }
  if (const auto* fallback = std::get_if<FallbackConfig>(&config)) {
    check_fallback(*fallback, owner, names, path, diag);
    return;
  }
  if (const auto* hedging = std::get_if<HedgingConfig>(&config)) check_hedging(*hedging, owner, names, path, diag);
  if (const auto* reflect = std::get_if<ReflectConfig>(&config)) {
    check_reflect(*reflect, owner, names, path, diag);
    return;
  }
  std::optional<ProviderType> type;
  if (const auto tool = names.tools.find(owner); tool != names.tools.end()) {
    type = tool->second;
  } else if (const auto provider = names.providers.find(owner); provider != names.providers.end()) {
    type = provider->second;
  }
  if (const auto* rewrite = std::get_if<RewriteQueryConfig>(&config)) {
    only_in_tools(RewriteQueryConfig::kName, owner, names, path, diag);
    check_llm_provider(rewrite->provider, "rewrite queries", names, pointer_append(path, "provider"), diag);
  }
  if (!type) return;
  if (std::holds_alternative<CacheConfig>(config)) {
    check_cache(owner, *type, names, path, diag);
    return;
  }
  if (std::holds_alternative<SimplifyQueryConfig>(config) && *type != ProviderType::web_search) {
    diag.error(path, fmt::format("simplify_query applies only to web_search providers; {}", provider_is(owner, *type)));
  }
  // A similarity threshold is a vector index's: a web search matches words, has no score
  // to lower, and would be sent the same request again for each rung.
  if (std::holds_alternative<RelaxThresholdConfig>(config) && *type != ProviderType::vector_search) {
    diag.error(path, fmt::format("relax_threshold applies only to vector_search providers, whose hits have a "
                                 "similarity threshold to lower; {}",
                                 provider_is(owner, *type)));
    return;
  }
  if (std::holds_alternative<RewriteQueryConfig>(config) &&
      std::find(kSearchTypes.begin(), kSearchTypes.end(), *type) == kSearchTypes.end()) {
    std::vector<std::string_view> searches;
    for (const ProviderType t : kSearchTypes) searches.push_back(to_string(t));
    diag.error(path, fmt::format("{} applies only to {} providers; {}", strategy_name(config),
                                 fmt::join(searches, " or "), provider_is(owner, *type)));
  }
}

// A list holds at most one escalation item, whose second would be silently ignored
// (find_escalation takes the first), and at most one cache, since a second would cache
// what the first already does and the report, which counts a pipeline's cache events
// under its tool, would count each of them twice. `first` maps a strategy's name to the
// path of the first one seen.
void check_single(const StrategyConfig& config, const std::string& item_path,
                  std::map<std::string_view, std::string>& first, Diagnostics& diag) {
  if (!std::holds_alternative<EscalationConfig>(config) && !std::holds_alternative<CacheConfig>(config)) return;
  const std::string_view name = strategy_name(config);
  const auto [seen, inserted] = first.emplace(name, item_path);
  if (!inserted) {
    diag.error(item_path, fmt::format("duplicate \"{}\" (also {}); a list holds at most one", name, seen->second));
  }
}

// The retry strategy asks the strategies inside it whether a retry is admitted
// (Next::admit_retry), so a retry_budget outside a retry of the same list would never be
// asked: it must come after it.
void check_retry_budget_order(const std::vector<StrategyConfig>& strategies, const std::string& list_path,
                              Diagnostics& diag) {
  std::optional<std::size_t> budget;
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    if (std::holds_alternative<RetryBudgetConfig>(strategies[i]) && !budget) budget = i;
    if (std::holds_alternative<RetryConfig>(strategies[i]) && budget) {
      diag.error(pointer_append(pointer_append(list_path, *budget), RetryBudgetConfig::kName),
                 fmt::format("must come after the retry it limits ({}): the retry asks the strategies inside it",
                             pointer_append(list_path, i)));
      return;
    }
  }
}

bool asks_retry_budget(const StrategyConfig& s) {
  return std::holds_alternative<RetryConfig>(s) || std::holds_alternative<HedgingConfig>(s);
}

// A retry_budget is asked only by a retry or a hedging outside it (Next::admit_retry): one
// before it in the same list, or, in a provider's stack, one in the list of a tool whose
// calls reach that provider (the tool's provider, or a provider named by its hedging or
// fallback). A retry_budget nothing asks would load and limit nothing, so it is an error,
// as the loader's other rules for keys without effect are (stale_on without
// stale_if_error, a retry_budget after its retry...). A retry after it in the same list is
// check_retry_budget_order's error.
void check_retry_budget_asked(const PolicyConfig& policy, const ScenarioNames& names, const std::string& path,
                              Diagnostics& diag) {
  const auto reaches = [&](const std::string& tool, std::string_view provider) {
    if (const auto it = names.tool_provider.find(tool); it != names.tool_provider.end() && it->second == provider) {
      return true;
    }
    const auto names_it = [&](const std::vector<std::string>& list) {
      return std::find(list.begin(), list.end(), provider) != list.end();
    };
    return std::any_of(policy.at(tool).begin(), policy.at(tool).end(), [&](const StrategyConfig& s) {
      if (const auto* h = std::get_if<HedgingConfig>(&s)) return names_it(h->providers);
      if (const auto* f = std::get_if<FallbackConfig>(&s)) return names_it(f->providers);
      return false;
    });
  };
  for (const auto& [owner, strategies] : policy) {
    const auto budget = std::find_if(strategies.begin(), strategies.end(), [](const StrategyConfig& s) {
      return std::holds_alternative<RetryBudgetConfig>(s);
    });
    if (budget == strategies.end() || std::any_of(strategies.begin(), strategies.end(), asks_retry_budget)) continue;
    const bool stack = names.explicit_tools && names.providers.contains(owner) && !names.tools.contains(owner);
    if (stack && std::any_of(policy.begin(), policy.end(), [&](const auto& entry) {
          return names.tools.contains(entry.first) && reaches(entry.first, owner) &&
                 std::any_of(entry.second.begin(), entry.second.end(), asks_retry_budget);
        })) {
      continue;
    }
    const auto index = static_cast<std::size_t>(budget - strategies.begin());
    diag.error(pointer_append(pointer_append(pointer_append(path, owner), index), RetryBudgetConfig::kName),
               stack ? fmt::format("limits nothing: no retry or hedging comes before it in this stack, nor in the list "
                                   "of a tool whose calls reach \"{}\"",
                                   owner)
                     : std::string("limits nothing: no retry or hedging comes before it in this list"));
  }
}

std::optional<StrategyConfig> read_item(const Json& item, const std::string& path, Diagnostics& diag) {
  const auto& names = strategy_names();
  const ObjectReader obj(item, path, diag, names);
  if (!obj.valid()) return std::nullopt;
  std::vector<std::size_t> present;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (obj.find(names[i]) != nullptr) present.push_back(i);
  }
  if (present.size() > 1) {
    std::vector<std::string_view> given;
    for (const std::size_t i : present) given.push_back(names[i]);
    diag.error(path, fmt::format("expected one strategy per item, got {}: {}", given.size(), join(given)));
    return std::nullopt;
  }
  if (present.empty()) {
    if (item.empty()) {
      diag.error(path, fmt::format("expected an object with one key naming a strategy ({}), got {{}}", join(names)));
    }
    return std::nullopt;  // an unknown key was reported by the ObjectReader
  }
  return read_strategy(present.front(), *obj.find(names[present.front()]), obj.path_of(names[present.front()]), diag);
}

}  // namespace

std::optional<StrategyConfig> read_strategy_config(std::string_view name, const Json& value, const std::string& path,
                                                   Diagnostics& diag) {
  const auto& names = strategy_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return std::nullopt;
  return read_strategy(static_cast<std::size_t>(it - names.begin()), value, path, diag);
}

PolicyConfig read_policy(const Json& value, const std::string& path, const ScenarioNames* names, Diagnostics& diag) {
  PolicyConfig policy;
  if (!value.is_object()) {
    diag.error(path, fmt::format("expected an object, got {}", describe(value)));
    return policy;
  }
  bool complete = true;
  for (const auto& [tool, list] : value.items()) {
    const std::string tool_path = pointer_append(path, tool);
    if (names != nullptr) check_owner(tool, *names, tool_path, diag);
    std::vector<StrategyConfig> strategies;
    std::map<std::string_view, std::string> first_single;
    const auto items = read_array(list, tool_path, diag, /*nonempty=*/false);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string item_path = pointer_append(tool_path, i);
      auto strategy = read_item(items[i], item_path, diag);
      if (!strategy) continue;
      check_single(*strategy, item_path, first_single, diag);
      if (names != nullptr) {
        check_strategy(*strategy, tool, *names, pointer_append(item_path, strategy_name(*strategy)), diag);
      }
      strategies.push_back(std::move(*strategy));
    }
    complete = complete && items.size() == strategies.size();
    if (items.size() == strategies.size()) check_retry_budget_order(strategies, tool_path, diag);
    policy.emplace(tool, std::move(strategies));
  }
  // Judged on the whole policy only: a list with an unreadable item may lack its retry.
  if (names != nullptr && complete) check_retry_budget_asked(policy, *names, path, diag);
  return policy;
}

void check_policy(const PolicyConfig& policy, const ScenarioNames& names, const std::string& path, Diagnostics& diag) {
  for (const auto& [tool, strategies] : policy) {
    const std::string tool_path = pointer_append(path, tool);
    check_owner(tool, names, tool_path, diag);
    for (std::size_t i = 0; i < strategies.size(); ++i) {
      check_strategy(strategies[i], tool, names,
                     pointer_append(pointer_append(tool_path, i), strategy_name(strategies[i])), diag);
    }
  }
  check_retry_budget_asked(policy, names, path, diag);
}

}  // namespace squall
