#include "engine/events.hpp"

namespace squall {

std::string_view to_string(BreakerState state) {
  switch (state) {
    case BreakerState::closed: return "closed";
    case BreakerState::open: return "open";
    case BreakerState::half_open: return "half_open";
  }
  return "closed";
}

}  // namespace squall

namespace squall {

std::string_view to_string(FallbackAction action) {
  switch (action) {
    case FallbackAction::switched: return "switched";
    case FallbackAction::skipped_context: return "skipped_context";
    case FallbackAction::skipped_capability: return "skipped_capability";
    case FallbackAction::skipped_budget: return "skipped_budget";
    case FallbackAction::exhausted: return "exhausted";
  }
  return "switched";
}

}  // namespace squall
