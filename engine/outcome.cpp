#include "engine/outcome.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, kOutcomeKindCount> kNames{SQUALL_OUTCOME_KINDS(SQUALL_NAME)};
#define SQUALL_RETRY_CLASS(name, retry, ...) RetryClass::retry,
constexpr std::array<RetryClass, kOutcomeKindCount> kRetryClasses{SQUALL_OUTCOME_KINDS(SQUALL_RETRY_CLASS)};
#undef SQUALL_RETRY_CLASS
constexpr auto kAll = all_values<OutcomeKind, kOutcomeKindCount>();

}  // namespace

std::string_view to_string(OutcomeKind kind) { return kNames[index_of(kind)]; }

std::optional<OutcomeKind> parse_outcome_kind(std::string_view name) { return parse_name<OutcomeKind>(kNames, name); }

RetryClass retry_class(OutcomeKind kind) { return kRetryClasses[index_of(kind)]; }

const std::array<OutcomeKind, kOutcomeKindCount>& all_outcome_kinds() { return kAll; }

}  // namespace squall
