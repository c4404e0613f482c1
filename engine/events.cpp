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
