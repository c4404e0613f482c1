#include "engine/events.hpp"

namespace squall {

std::string_view to_string(BreakerState state) {
  static constexpr std::array<std::string_view, 3> kNames{SQUALL_BREAKER_STATES(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(state)];
}

std::string_view to_string(BreakerCause cause) {
  static constexpr std::array<std::string_view, kBreakerCauseCount> kNames{SQUALL_BREAKER_CAUSES(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(cause)];
}

std::string_view to_string(FallbackAction action) {
  static constexpr std::array<std::string_view, kFallbackActionCount> kNames{SQUALL_FALLBACK_ACTIONS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(action)];
}

std::string_view to_string(CacheAction action) {
  static constexpr std::array<std::string_view, kCacheActionCount> kNames{SQUALL_CACHE_ACTIONS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(action)];
}

std::string_view to_string(RewriteResult result) {
  static constexpr std::array<std::string_view, kRewriteResultCount> kNames{SQUALL_REWRITE_RESULTS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(result)];
}

std::string_view to_string(HedgeAction action) {
  static constexpr std::array<std::string_view, kHedgeActionCount> kNames{SQUALL_HEDGE_ACTIONS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(action)];
}

std::string_view to_string(LimitAction action) {
  static constexpr std::array<std::string_view, kLimitActionCount> kNames{SQUALL_LIMIT_ACTIONS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(action)];
}

}  // namespace squall
