#include "mocks/chaos/fault.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, kFaultKindCount> kNames{SQUALL_FAULT_KINDS(SQUALL_NAME)};

}  // namespace

std::string_view to_string(FaultKind kind) { return kNames[index_of(kind)]; }

std::optional<FaultKind> parse_fault_kind(std::string_view name) { return parse_name<FaultKind>(kNames, name); }

}  // namespace squall
