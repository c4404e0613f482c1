// CapacityConfig: a provider entry's `capacity` block, the server-side limits of the
// capacity model (capacity_provider.hpp, docs/mocks/capacity.md).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/runtime/time.hpp"

namespace squall {

// The limits in force at one time. Absent: that dimension is not limited.
struct CapacityLimits {
  // Requests served at once (slots); beyond it requests queue. At least 1.
  std::optional<std::int64_t> max_concurrency;
  // Requests admitted per minute: a token bucket of this size refilled continuously at
  // this rate (Anthropic's documented algorithm, see capacity_provider.hpp). At least 1.
  std::optional<std::int64_t> requests_per_minute;
  // Tokens admitted per minute (LLM requests only: prompt_tokens + max_output_tokens), a
  // bucket like requests_per_minute's. At least 1.
  std::optional<std::int64_t> tokens_per_minute;
};

// A window [from, to) in which the limits it sets replace the base limits (the limits it
// leaves out stay as they are): a scheduled capacity drop, such as a lost availability zone
// halving the slots. Windows do not overlap (the loader's rule).
struct CapacityDrop {
  TimePoint from = 0;
  TimePoint to = kNever;
  CapacityLimits limits;  // at least one set
};

// Loader bounds, far beyond any real service, that keep the buckets' exact integer state in
// int64 (minute_bucket.hpp: a level of limit * 60e9 units).
inline constexpr std::int64_t kMaxConcurrency = 1'000'000;
inline constexpr std::int64_t kMaxRequestsPerMinute = 100'000'000;
inline constexpr std::int64_t kMaxTokensPerMinute = 100'000'000;
inline constexpr std::int64_t kMaxQueueSize = 1'000'000;

struct CapacityConfig {
  CapacityLimits limits;
  // Requests that may wait for a slot; one more is rejected at once. 0: no queue (a
  // request that finds every slot busy is rejected). Default 1024: Envoy's default
  // max_pending_requests (cluster circuit breakers), the queue of pending requests a
  // proxy keeps in front of an upstream.
  std::int64_t queue_size = 1024;
  // How long a request may wait for a slot before the server gives up on it and answers
  // `reject_status`. Default 15 s: Envoy's default route timeout, which covers the time a
  // request spends pending for a connection to the upstream.
  Nanos queue_timeout = 15 * kSecond;
  // The status of a request the queue rejects (full) or times out: 503 (default), what
  // Envoy answers on a pending-request overflow (x-envoy-overloaded) and NGINX's limit_req
  // by default; 529, Anthropic's overloaded_error; or 429, how OpenAI answers an engine
  // that is overloaded. Rate-limit rejections are always 429.
  int reject_status = 503;
  std::vector<CapacityDrop> drops;  // sorted by `from`, never overlapping (the loader rejects overlaps)
};

}  // namespace squall
