#include "mocks/retry_after_text.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace squall {

std::string_view RetryAfterTexts::for_wait(Nanos wait) {
  if (wait == kNever) return {};
  const std::int64_t seconds = std::max<std::int64_t>(1, (wait + kSecond - 1) / kSecond);
  auto it = texts_.find(seconds);
  if (it == texts_.end()) it = texts_.emplace(seconds, fmt::format("{}", seconds)).first;
  return it->second;
}

}  // namespace squall
