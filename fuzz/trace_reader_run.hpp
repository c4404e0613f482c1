// The body of the replay harnesses: a trace read as `squall replay` reads one, then its
// attempts grouped into tasks (replay/grouping.hpp). TraceInputError is the readers'
// documented refusal.
#pragma once

#include <string>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "replay/attempt_record.hpp"
#include "replay/grouping.hpp"

namespace squall::fuzz {

using TraceReader = void (*)(std::string_view text, const std::string& file, replay::TraceData& out);

inline void read_and_group(TraceReader reader, std::string_view text, const std::string& file) {
  replay::TraceData trace;
  try {
    reader(text, file, trace);
  } catch (const replay::TraceInputError&) {
    return;
  }
  (void)replay::group_attempts(trace);
}

}  // namespace squall::fuzz
