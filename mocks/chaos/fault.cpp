#include "mocks/chaos/fault.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, kFaultKindCount> kNames{"timeout", "rate_limited", "overloaded",
                                                               "server_error", "empty"};

}  // namespace

std::string_view to_string(FaultKind kind) { return kNames[index_of(kind)]; }

std::optional<FaultKind> parse_fault_kind(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<FaultKind>(i);
  }
  return std::nullopt;
}

}  // namespace squall
