// ClientReport: how the clients of a live run (`squall serve`) retried, per client, as
// live/client_tracker.hpp counts it (docs/live.md, "Client conformance"). Only a live run
// measures it: the simulator's own engine is no client, so a `run`, `sweep` or `ci` report
// has none, and a threshold on one of its metrics is "not evaluated" there.
//
// Layers of a retry (RetryLayer): `gateway` (x-envoy-attempt-count >= 2), `sdk`
// (x-stainless-retry-count >= 1), `application` (an identical re-send, same endpoint and
// body, of the client's earlier request that got an error). Counts are of HTTP requests;
// tokens are the input tokens of the re-sent requests.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace squall {

enum class RetryLayer : std::uint8_t { gateway, sdk, application };
inline constexpr std::size_t kRetryLayerCount = 3;
inline constexpr std::array<RetryLayer, kRetryLayerCount> kRetryLayers{RetryLayer::gateway, RetryLayer::sdk,
                                                                       RetryLayer::application};
std::string_view to_string(RetryLayer layer);

// Why an answer said not to retry it, in the order they are looked for: the header first,
// then the error code, then the status.
enum class AdviceReason : std::uint8_t {
  should_retry_false,       // x-should-retry: false
  insufficient_quota,       // error code insufficient_quota (a 429 no wait cures)
  context_length_exceeded,  // error code context_length_exceeded
  status_400,
  status_401,
  status_403,
  status_404,
};
inline constexpr std::size_t kAdviceReasonCount = 7;
inline constexpr std::array<AdviceReason, kAdviceReasonCount> kAdviceReasons{
    AdviceReason::should_retry_false, AdviceReason::insufficient_quota, AdviceReason::context_length_exceeded,
    AdviceReason::status_400,         AdviceReason::status_401,         AdviceReason::status_403,
    AdviceReason::status_404};
std::string_view to_string(AdviceReason reason);

template <class T>
using ByLayer = std::array<T, kRetryLayerCount>;

struct ClientRow {
  std::string client;          // x-squall-client, else the peer's IP address
  std::uint64_t attempts = 0;  // HTTP requests
  std::uint64_t logical = 0;   // requests that were no retry
  ByLayer<std::uint64_t> retries{};
  ByLayer<std::uint64_t> early{};  // sent before the Retry-After given had elapsed (20 ms slack)
  // Retries of answers that said not to, by layer and reason.
  ByLayer<std::array<std::uint64_t, kAdviceReasonCount>> against_advice{};
  std::uint64_t loops = 0;  // payloads sent again loop_resends times or more
  std::uint64_t peak_concurrency = 0;
  ByLayer<std::int64_t> resent_tokens{};
  // Logical requests by their attempts (index: attempts): [layer] counts the first attempt
  // and that layer's retries, [kRetryLayerCount] every attempt.
  std::array<std::vector<std::uint64_t>, kRetryLayerCount + 1> by_attempts;

  std::uint64_t total_retries() const;
};

struct ClientReport {
  std::uint32_t loop_resends = 5;  // --loop-resends
  std::vector<ClientRow> clients;  // sorted by client
};

// attempts / logical requests over `rows` for `layer` (none: every layer), none without
// logical requests.
std::optional<double> amplification(const std::vector<ClientRow>& rows, std::optional<RetryLayer> layer);

}  // namespace squall
