// The value readers of the generic config reader (sim/scenario/config_reader.hpp): one per
// way a field table's value is written (engine/config_fields.hpp FieldKind), and one per
// shape a config keeps in its own struct (a jitter range, a breaker's window, escalation
// rules). Each returns false after recording why the value is not acceptable, and leaves
// `out` alone then.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/outcome.hpp"
#include "engine/strategies/circuit_breaker.hpp"
#include "engine/strategies/escalation.hpp"
#include "engine/strategies/retry.hpp"
#include "sim/scenario/json_reader.hpp"

namespace squall {

template <class T>
bool assign(std::optional<T>&& value, T& out) {
  if (value) out = std::move(*value);
  return value.has_value();
}

// The scenario-file names of `values` (each value's to_string, found by ADL).
template <class E>
std::vector<std::string_view> choice_names(std::span<const E> values) {
  std::vector<std::string_view> names;
  names.reserve(values.size());
  for (const E value : values) names.push_back(to_string(value));
  return names;
}

// The bounds of a scalar field, as its table gives them.
struct Scalar {
  IntRange ints;
  NumberRange numbers;
  DurationMin durations = DurationMin::zero;
  double per = 0;         // scaled: units per 1
  std::string_view note;  // scaled: who keeps the units
  std::int64_t longest = 0;
};
bool read_scalar(const Json& v, const std::string& path, Diagnostics& diag, FieldKind kind, const Scalar& bounds,
                 std::int32_t& out);
bool read_scalar(const Json& v, const std::string& path, Diagnostics& diag, FieldKind kind, const Scalar& bounds,
                 std::int64_t& out);
bool read_scalar(const Json& v, const std::string& path, Diagnostics& diag, FieldKind kind, const Scalar& bounds,
                 double& out);

// A non-empty list of distinct outcome kinds other than success.
bool read_kinds(const Json& v, const std::string& path, Diagnostics& diag, std::vector<OutcomeKind>& out);
// The same, none of them a local refusal (retry class local: circuit_open, ...): `counter`
// ("the breaker") counts only calls that reached the provider, so it would never see one.
bool read_provider_kinds(const Json& v, const std::string& path, Diagnostics& diag, std::string_view counter,
                         std::vector<OutcomeKind>& out);
// A non-empty list of distinct non-empty names.
bool read_names(const Json& v, const std::string& path, Diagnostics& diag, std::vector<std::string>& out);
// A list of non-empty strings.
bool read_words(const Json& v, const std::string& path, Diagnostics& diag, std::vector<std::string>& out);

// [min, max]: two factors in kJitterFactor with min <= max.
bool read_shaped(const Json& v, const std::string& path, Diagnostics& diag, JitterRange& out);
// {kind: retries}: outcome kinds but success, each an integer in [0, 999]; unknown keys
// are errors.
bool read_shaped(const Json& v, const std::string& path, Diagnostics& diag, std::vector<KindRetries>& out);
// {"type": count_based | time_based (required), "size": calls (an integer) or a whole-
// second duration}.
bool read_shaped(const Json& v, const std::string& path, Diagnostics& diag, SlidingWindowConfig& out);
// A non-empty list of {"when", "at_least" (count and amount conditions only), "level"},
// no two with the same when and at_least.
bool read_shaped(const Json& v, const std::string& path, Diagnostics& diag, std::vector<EscalationRule>& out);

}  // namespace squall
