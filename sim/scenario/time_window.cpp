#include "sim/scenario/time_window.hpp"

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"

namespace squall {

bool read_window(const ObjectReader& obj, bool required, std::optional<Nanos> run_end, TimePoint& from, TimePoint& to) {
  const bool from_present = obj.find("from") != nullptr;
  const bool to_present = obj.find("to") != nullptr;
  if (required) {
    obj.require("from");
    obj.require("to");
  }
  const bool from_ok = from_present ? obj.get_duration("from", from, DurationMin::zero) : !required;
  const bool to_ok = to_present ? obj.get_duration("to", to, DurationMin::zero) : !required;
  bool ok = from_ok && to_ok;
  if (from_ok && from_present && run_end && from >= *run_end) {
    obj.diag().error(obj.path_of("from"), fmt::format("expected a time before the end of the run (duration {}), got {}",
                                                      format_duration(*run_end), describe(*obj.find("from"))));
    ok = false;
  }
  if (from_ok && to_ok && to_present && to <= from) {
    obj.diag().error(obj.path_of("to"), fmt::format("expected a time after from ({}), got {}", format_duration(from),
                                                    describe(*obj.find("to"))));
    ok = false;
  }
  return ok;
}

}  // namespace squall
