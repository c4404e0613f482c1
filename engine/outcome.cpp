#include "engine/outcome.hpp"

namespace squall {
namespace {

struct KindInfo {
  std::string_view name;
  RetryClass retry;
};

constexpr std::array<KindInfo, kOutcomeKindCount> kInfo{{
    {"success", RetryClass::done},
    {"empty", RetryClass::degrade},
    {"timeout", RetryClass::transient},
    {"rate_limited", RetryClass::transient},
    {"overloaded", RetryClass::transient},
    {"server_error", RetryClass::transient},
    {"auth_error", RetryClass::permanent},
    {"bad_request", RetryClass::permanent},
    {"context_length", RetryClass::permanent},
    {"content_filter", RetryClass::permanent},
    {"invalid_output", RetryClass::transient},
    {"circuit_open", RetryClass::local},
    {"budget_exhausted", RetryClass::local},
    {"cancelled", RetryClass::local},
}};

constexpr std::array<OutcomeKind, kOutcomeKindCount> make_all() {
  std::array<OutcomeKind, kOutcomeKindCount> all{};
  for (std::size_t i = 0; i < kOutcomeKindCount; ++i) all[i] = static_cast<OutcomeKind>(i);
  return all;
}

constexpr auto kAll = make_all();

}  // namespace

std::string_view to_string(OutcomeKind kind) { return kInfo[index_of(kind)].name; }

std::optional<OutcomeKind> parse_outcome_kind(std::string_view name) {
  for (std::size_t i = 0; i < kOutcomeKindCount; ++i) {
    if (kInfo[i].name == name) return static_cast<OutcomeKind>(i);
  }
  return std::nullopt;
}

RetryClass retry_class(OutcomeKind kind) { return kInfo[index_of(kind)].retry; }

const std::array<OutcomeKind, kOutcomeKindCount>& all_outcome_kinds() { return kAll; }

}  // namespace squall
