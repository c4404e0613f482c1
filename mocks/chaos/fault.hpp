// Fault rules of the chaos decorator (mocks/chaos/chaos_provider.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/provider_descriptor.hpp"
#include "engine/runtime/time.hpp"
#include "engine/vocabulary.hpp"
#include "mocks/latency.hpp"

namespace squall {

// The phases of a fault (Envoy's HTTP fault filter, envoy.extensions.filters.http.fault.v3:
// a delay, then an abort), plus transform. X(name, what it does)
#define SQUALL_FAULT_PHASES(X)                                                 \
  X(delay, "add latency, then go on to the inner provider (or to an abort)")   \
  X(abort, "answer with a status at once, without calling the inner provider") \
  X(transform, "call the inner provider, then rewrite its answer")

enum class FaultPhase : std::uint8_t { SQUALL_FAULT_PHASES(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kFaultPhaseCount = 0 SQUALL_FAULT_PHASES(SQUALL_COUNT);
std::string_view to_string(FaultPhase phase);

// X(name, phase, what the decorator answers). New kinds go at the end: reports and the
// schema list them in this order.
#define SQUALL_FAULT_KINDS(X)                                                                       \
  X(timeout, abort, "no answer before the caller gives up")                                         \
  X(rate_limited, abort, "429, with a Retry-After header when retry_after is set")                  \
  X(overloaded, abort, "529 by default, or 503; Retry-After when retry_after is set")               \
  X(server_error, abort, "a 5xx status, 500 by default")                                            \
  X(empty, abort, "200 with no results")                                                            \
  X(index_not_ready, abort, "503 index_not_ready: the index is still being built or loaded")        \
  X(client_error, abort, "a 4xx status: 400 by default, or 401, 403, 404, 422")                     \
  X(throttled_empty, abort, "a search answering 200 with no hits while it throttles (masked 429)")  \
  X(latency_spike, delay, "the fault's latency is added before the call goes on")                   \
  X(brownout, delay, "the answer takes `multiplier` times as long as it would have")                \
  X(masked_error, transform, "the inner answer, its body carrying an error: a 200 that is not one") \
  X(stream_cut, transform, "an LLM stream that errors after `after_tokens` output tokens")

#define SQUALL_FAULT_KIND_ENUMERATOR(name, phase, doc) name,
#define SQUALL_FAULT_KIND_PHASE(name, phase, doc) FaultPhase::phase,
enum class FaultKind : std::uint8_t { SQUALL_FAULT_KINDS(SQUALL_FAULT_KIND_ENUMERATOR) };

inline constexpr std::size_t kFaultKindCount = 0 SQUALL_FAULT_KINDS(SQUALL_COUNT);
constexpr std::size_t index_of(FaultKind kind) { return static_cast<std::size_t>(kind); }
inline constexpr std::array<FaultPhase, kFaultKindCount> kFaultKindPhases{SQUALL_FAULT_KINDS(SQUALL_FAULT_KIND_PHASE)};
constexpr FaultPhase phase_of(FaultKind kind) { return kFaultKindPhases[index_of(kind)]; }

// The scenario files' names (the enumerators' names); parse_fault_kind is the exact
// inverse of to_string.
std::string_view to_string(FaultKind kind);
std::optional<FaultKind> parse_fault_kind(std::string_view name);

// Whether a provider of type `provider` can suffer faults of `kind`: only an index can be
// not ready; only a search answers an empty hit list while throttling; only an LLM streams.
// The loader rejects the others, and reports list only these.
constexpr bool fault_applies(FaultKind kind, ProviderKind provider) {
  switch (kind) {
    case FaultKind::index_not_ready: return provider == ProviderKind::vector_search;
    case FaultKind::throttled_empty:
      return provider == ProviderKind::vector_search || provider == ProviderKind::web_search;
    case FaultKind::stream_cut: return provider == ProviderKind::llm;
    default: return true;
  }
}

// The provider types fault_applies() allows `kind` for, as the loader's messages say
// them: "vector_search", "web_search and vector_search", "llm", or "every".
constexpr std::string_view fault_providers(FaultKind kind) {
  switch (kind) {
    case FaultKind::index_not_ready: return "vector_search";
    case FaultKind::throttled_empty: return "web_search and vector_search";
    case FaultKind::stream_cut: return "llm";
    default: return "every";
  }
}

// The kinds whose answer is an error status, which can carry x-should-retry and an error
// code and message (FaultConfig::should_retry, error_code, error_message).
inline constexpr std::array<FaultKind, 5> kAnswersWithError{FaultKind::rate_limited, FaultKind::overloaded,
                                                            FaultKind::server_error, FaultKind::client_error,
                                                            FaultKind::index_not_ready};

// How a server states the delay it asks for (engine/retry_after.hpp reads each).
// X(name, what is sent)
#define SQUALL_RETRY_AFTER_FORMS(X)                                                               \
  X(delay_seconds, "Retry-After: delay-seconds (RFC 9110 section 10.2.3), e.g. \"2\" or \"0.5\"") \
  X(http_date, "Retry-After: an IMF-fixdate, the scenario's start_time plus now plus the delay")  \
  X(milliseconds, "retry-after-ms: milliseconds (OpenAI, Azure OpenAI)")                          \
  X(retry_info, "no header; google.rpc.RetryInfo retry_delay in the body, e.g. \"2.5s\"")

enum class RetryAfterForm : std::uint8_t { SQUALL_RETRY_AFTER_FORMS(SQUALL_ENUMERATOR) };
inline constexpr std::size_t kRetryAfterFormCount = 0 SQUALL_RETRY_AFTER_FORMS(SQUALL_COUNT);
std::string_view to_string(RetryAfterForm form);

// Injected faults of one provider, indexed by index_of(FaultKind).
using FaultCounts = std::array<std::uint64_t, kFaultKindCount>;
// Injected faults of one provider by phase, indexed by FaultPhase.
using FaultPhaseCounts = std::array<std::uint64_t, kFaultPhaseCount>;

struct FaultConfig {
  FaultKind kind = FaultKind::server_error;
  // Chance that a call inside the window gets this fault, in [0, 1]. Exact because the
  // faults active together sum to at most 1, which the scenario loader checks
  // (chaos_provider.hpp).
  double probability = 0;
  // The window [from, to) in simulated time. Default: the whole run.
  TimePoint from = 0;
  TimePoint to = kNever;
  // Scripted call indices ("calls 3-7 return 429", DESIGN section 5): the fault is active
  // only for the provider's calls first_call..last_call, both inclusive, calls numbered
  // from 1 in the order they reach the decorator. Default: every call. Combined with the
  // time window (both must hold) and probability 1 this scripts an exact schedule.
  std::uint64_t first_call = 1;
  std::uint64_t last_call = UINT64_MAX;
  // Flapping: with flap_period > 0 the rule is active only during the first flap_on of
  // every flap_period counted from `from` (a duty cycle of flap_on / flap_period), so a
  // provider goes up and down on a fixed rhythm. Default: no flapping.
  Nanos flap_period = 0;
  Nanos flap_on = 0;
  // rate_limited and overloaded: the Retry-After header value sent, verbatim (the loader
  // writes a duration as delta-seconds, e.g. "2" or "0.5"). Default: no header.
  std::optional<std::string> retry_after;
  // rate_limited and overloaded, with retry_after_delay: the form the delay is sent in
  // (RetryAfterForm); delay_seconds writes `retry_after` above at load time, the others
  // are written per answer by the decorator.
  RetryAfterForm retry_after_form = RetryAfterForm::delay_seconds;
  std::optional<Nanos> retry_after_delay;
  // overloaded, server_error, client_error and stream_cut: the status code. Default 529,
  // 500, 400 and 500.
  std::optional<int> status;
  // The kinds that answer with an error status (kAnswersWithError below): the answer's
  // `x-should-retry` header ("true" or "false": OpenAI's and Anthropic's servers tell their
  // SDKs with it whether to retry), and its body's error code and message (OpenAI's
  // "insufficient_quota", a gateway's own code). Default: no header; index_not_ready's own
  // code and message, none for the others.
  std::optional<bool> should_retry;
  std::optional<std::string> error_code;
  std::optional<std::string> error_message;
  // How long the faulty answer takes (abort kinds), or the latency added (latency_spike,
  // required there). Default: the provider's own latency.
  std::optional<LatencyConfig> latency;
  // brownout: the factor by which the answer's time is stretched, > 1.
  double multiplier = 1;
  // stream_cut: the output tokens generated (and billed) before the stream errors, >= 1.
  std::int64_t after_tokens = 1;
  // A region outage shared by several providers (the scenario's `outages`): its name, and
  // the key its decisions are drawn with, the same for every provider in it, so they fail
  // together on the same attempts. Empty name: the provider's own rule.
  std::string outage;
  std::uint64_t outage_key = 0;
};

// Whether `fault` is active at `now` for call number `call` (window, scripted calls and
// flapping).
constexpr bool fault_active(const FaultConfig& fault, TimePoint now, std::uint64_t call) {
  if (!(fault.from <= now && now < fault.to && fault.first_call <= call && call <= fault.last_call)) return false;
  return fault.flap_period == 0 || (now - fault.from) % fault.flap_period < fault.flap_on;
}

}  // namespace squall
