// RetryAfterTexts: the Retry-After header values a mock sends when a bucket of its runs
// dry (the vector index's read units, a capacity layer's rate limits): the wait in whole
// seconds (RFC 9110, section 10.2.3: delay-seconds), rounded up so that a client that
// honours it finds the bucket refilled, and at least 1. A Response holds the header as a
// view, so each distinct value is kept for the owner's lifetime.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "engine/runtime/time.hpp"

namespace squall {

class RetryAfterTexts {
 public:
  // The header value for a wait of `wait`; empty (no header) for kNever, a bucket that
  // will never hold enough.
  std::string_view for_wait(Nanos wait);

 private:
  std::map<std::int64_t, std::string> texts_;  // whole seconds -> their text
};

}  // namespace squall
