#include "mocks/chaos/fault.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, kFaultKindCount> kNames{SQUALL_FAULT_KINDS(SQUALL_NAME)};
constexpr std::array<std::string_view, kFaultPhaseCount> kPhaseNames{SQUALL_FAULT_PHASES(SQUALL_NAME)};
constexpr std::array<std::string_view, kRetryAfterFormCount> kFormNames{SQUALL_RETRY_AFTER_FORMS(SQUALL_NAME)};

}  // namespace

std::string_view to_string(FaultKind kind) { return kNames[index_of(kind)]; }

std::string_view to_string(FaultPhase phase) { return kPhaseNames[static_cast<std::size_t>(phase)]; }

std::string_view to_string(RetryAfterForm form) { return kFormNames[static_cast<std::size_t>(form)]; }

std::optional<FaultKind> parse_fault_kind(std::string_view name) { return parse_name<FaultKind>(kNames, name); }

}  // namespace squall
