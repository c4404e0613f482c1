#include "reports/client_report.hpp"

#include <numeric>

namespace squall {

std::string_view to_string(RetryLayer layer) {
  switch (layer) {
    case RetryLayer::gateway: return "gateway";
    case RetryLayer::sdk: return "sdk";
    case RetryLayer::application: return "application";
  }
  return "application";
}

std::string_view to_string(AdviceReason reason) {
  switch (reason) {
    case AdviceReason::should_retry_false: return "should_retry_false";
    case AdviceReason::insufficient_quota: return "insufficient_quota";
    case AdviceReason::context_length_exceeded: return "context_length_exceeded";
    case AdviceReason::status_400: return "status_400";
    case AdviceReason::status_401: return "status_401";
    case AdviceReason::status_403: return "status_403";
    case AdviceReason::status_404: return "status_404";
  }
  return "status_400";
}

std::uint64_t ClientRow::total_retries() const { return std::accumulate(retries.begin(), retries.end(), 0ULL); }

std::optional<double> amplification(const std::vector<ClientRow>& rows, std::optional<RetryLayer> layer) {
  std::uint64_t logical = 0;
  std::uint64_t attempts = 0;
  for (const ClientRow& row : rows) {
    logical += row.logical;
    attempts += row.logical + (layer ? row.retries[static_cast<std::size_t>(*layer)] : row.total_retries());
  }
  if (logical == 0) return std::nullopt;
  return static_cast<double>(attempts) / static_cast<double>(logical);
}

}  // namespace squall
