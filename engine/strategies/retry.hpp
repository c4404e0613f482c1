// retry: repeat a failed attempt after a backoff delay, honouring Retry-After.
//
// max_attempts counts every attempt, the first included (resilience4j's maxAttempts; it
// equals Polly's MaxRetryAttempts + 1). Before retry n (n = 1 for the second attempt) the
// strategy waits:
//   constant:     base_delay
//   linear:       base_delay * n
//   exponential:  base_delay * multiplier^(n-1)
// capped at max_delay, then jittered ("Exponential Backoff And Jitter", AWS Architecture
// Blog, 2015): none keeps d; full draws uniformly from [0, d]; equal draws from
// [d/2, d].
// A rate_limited outcome with a parseable Retry-After (engine/retry_after.hpp) waits for
// that value instead, without jitter, when honour_retry_after is set; a value above
// max_retry_after makes the strategy give up on this provider at once instead of sleeping
// (openai-python likewise ignores Retry-After values above 60 s). A missing or malformed
// Retry-After falls back to the backoff, never to zero.
// No attempt starts at or after the call's deadline: when the wait would reach it, the
// strategy gives up and returns the last failure.
#pragma once

#include <vector>

#include "engine/pipeline.hpp"
#include "engine/runtime/rng.hpp"

namespace squall {

enum class Backoff : std::uint8_t { constant, linear, exponential };
enum class Jitter : std::uint8_t { none, full, equal };

struct RetryConfig {
  // Attempts in all, the first included. Default 3 (resilience4j RetryConfig).
  std::int32_t max_attempts = 3;
  // Outcome kinds that are retried. Default: the kinds whose retry class is transient:
  // timeout, rate_limited, overloaded, server_error, invalid_output.
  std::vector<OutcomeKind> retry_on = default_retry_on();
  Backoff backoff = Backoff::exponential;
  // Default 500 ms, resilience4j's waitDuration.
  Nanos base_delay = 500 * kMillisecond;
  // Growth factor of exponential backoff. Default 2 (doubling, as in the AWS SDKs and gRPC).
  double multiplier = 2.0;
  // Cap on the backoff before jitter. Default 20 s, the AWS SDKs' MAX_BACKOFF.
  Nanos max_delay = 20 * kSecond;
  // Default full jitter, the AWS Architecture Blog's recommendation.
  Jitter jitter = Jitter::full;
  bool honour_retry_after = true;
  // Longest Retry-After that is waited for. Default 60 s (openai-python's limit).
  Nanos max_retry_after = 60 * kSecond;

  static std::vector<OutcomeKind> default_retry_on();
};

class RetryStrategy final : public Strategy {
 public:
  RetryStrategy(RetryConfig config, EngineEnv env, Rng& rng);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  // The backoff before retry n (n >= 1), after cap and jitter. Exposed for tests.
  Nanos backoff_delay(std::int32_t n);

 private:
  RetryConfig config_;
  EngineEnv env_;
  Rng& rng_;
  std::uint32_t retry_on_mask_ = 0;
};

std::string_view to_string(Backoff b);
std::string_view to_string(Jitter j);

}  // namespace squall
