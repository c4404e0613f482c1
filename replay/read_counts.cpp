#include <algorithm>

#include "replay/attempt_record.hpp"

namespace squall::replay {

void ReadCounts::saw_unknown(const std::string& name) {
  ++unknown_attributes;
  const auto at = std::lower_bound(unknown_names.begin(), unknown_names.end(), name);
  if (at != unknown_names.end() && *at == name) return;
  // Bounded: a trace with thousands of distinct keys keeps the first few, in order.
  if (unknown_names.size() >= kMaxUnknownNames) return;
  unknown_names.insert(at, name);
}

}  // namespace squall::replay
