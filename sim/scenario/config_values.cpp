#include "sim/scenario/config_values.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"

namespace squall {
namespace {

// A number kept as integer 1/per units: a finer value is an error rather than silently
// rounded (a rate of 0.00001 percent would round to 0 ppm and open a breaker on nothing).
std::optional<double> read_scaled(const Json& v, const std::string& path, Diagnostics& diag, const Scalar& bounds) {
  const auto value = read_number(v, path, diag, bounds.numbers);
  if (!value) return std::nullopt;
  const double units = *value * bounds.per;
  const double rounded = std::round(units);
  if ((rounded < 1 && bounds.numbers.min > 0) || std::abs(units - rounded) > 1e-6) {
    const int digits = static_cast<int>(std::lround(std::log10(bounds.per)));
    diag.error(path, fmt::format("expected a multiple of {:.{}f} ({}), got {}", 1 / bounds.per, digits, bounds.note,
                                 describe(v)));
    return std::nullopt;
  }
  return *value;
}

// A duration of whole seconds from 1s to `longest`: kept in one-second buckets.
std::optional<Nanos> read_whole_seconds(const Json& v, const std::string& path, Diagnostics& diag, Nanos longest) {
  const auto value = read_duration(v, path, diag, DurationMin::positive);
  if (!value) return std::nullopt;
  if (*value % kSecond != 0 || *value > longest) {
    diag.error(path, fmt::format("expected a whole number of seconds from 1s to {}, got {}", format_duration(longest),
                                 describe(v)));
    return std::nullopt;
  }
  return value;
}

template <class Int>
bool read_int(const Json& v, const std::string& path, Diagnostics& diag, FieldKind kind, const Scalar& bounds,
              Int& out) {
  std::optional<std::int64_t> value;
  if (kind == FieldKind::duration) {
    value = read_duration(v, path, diag, bounds.durations);
  } else if (kind == FieldKind::whole_seconds) {
    value = read_whole_seconds(v, path, diag, bounds.longest);
  } else if (kind == FieldKind::scaled) {
    if (const auto scaled = read_scaled(v, path, diag, bounds)) {
      value = static_cast<std::int64_t>(std::round(*scaled * bounds.per));
    }
  } else {
    value = read_integer(v, path, diag, bounds.ints);
  }
  if (value) out = static_cast<Int>(*value);
  return value.has_value();
}

}  // namespace

bool read_scalar(const Json& v, const std::string& path, Diagnostics& diag, FieldKind kind, const Scalar& bounds,
                 std::int32_t& out) {
  return read_int(v, path, diag, kind, bounds, out);
}

bool read_scalar(const Json& v, const std::string& path, Diagnostics& diag, FieldKind kind, const Scalar& bounds,
                 std::int64_t& out) {
  return read_int(v, path, diag, kind, bounds, out);
}

bool read_scalar(const Json& v, const std::string& path, Diagnostics& diag, FieldKind kind, const Scalar& bounds,
                 double& out) {
  return assign(
      kind == FieldKind::scaled ? read_scaled(v, path, diag, bounds) : read_number(v, path, diag, bounds.numbers), out);
}

bool read_kinds(const Json& v, const std::string& path, Diagnostics& diag, std::vector<OutcomeKind>& out) {
  // Outcome kinds a list may name: every kind but success.
  static const auto kKinds = [] {
    std::vector<OutcomeKind> kinds;
    for (const OutcomeKind kind : all_outcome_kinds()) {
      if (kind != OutcomeKind::success) kinds.push_back(kind);
    }
    return kinds;
  }();
  static const auto kNames = choice_names(std::span<const OutcomeKind>(kKinds));
  return assign(read_choice_list<OutcomeKind>(v, path, diag, kNames, kKinds), out);
}

bool read_provider_kinds(const Json& v, const std::string& path, Diagnostics& diag, std::string_view counter,
                         std::vector<OutcomeKind>& out) {
  std::vector<OutcomeKind> kinds;
  if (!read_kinds(v, path, diag, kinds)) return false;
  bool ok = true;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (retry_class(kinds[i]) != RetryClass::local) continue;
    ok = false;
    diag.error(pointer_append(path, i),
               fmt::format("\"{}\" is a local refusal, made without calling the provider; {} counts only calls "
                           "that reached the provider, so it never sees one",
                           to_string(kinds[i]), counter));
  }
  if (ok) out = std::move(kinds);
  return ok;
}

bool read_names(const Json& v, const std::string& path, Diagnostics& diag, std::vector<std::string>& out) {
  const std::size_t errors_before = diag.count();
  std::vector<std::string> names;
  const auto elements = read_array(v, path, diag, /*nonempty=*/true);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::string item = pointer_append(path, i);
    auto name = read_nonempty_string(elements[i], item, diag);
    if (!name) continue;
    const auto seen = std::find(names.begin(), names.end(), *name);
    if (seen != names.end()) {
      diag.error(item, fmt::format("duplicate \"{}\" (also {})", *name,
                                   pointer_append(path, static_cast<std::size_t>(seen - names.begin()))));
      continue;
    }
    names.push_back(std::move(*name));
  }
  if (diag.count() != errors_before) return false;
  out = std::move(names);
  return true;
}

bool read_words(const Json& v, const std::string& path, Diagnostics& diag, std::vector<std::string>& out) {
  const std::size_t errors_before = diag.count();
  std::vector<std::string> words;
  const auto elements = read_array(v, path, diag, /*nonempty=*/false);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (auto word = read_nonempty_string(elements[i], pointer_append(path, i), diag)) words.push_back(std::move(*word));
  }
  if (diag.count() != errors_before) return false;
  out = std::move(words);
  return true;
}

bool read_shaped(const Json& v, const std::string& path, Diagnostics& diag, JitterRange& out) {
  if (!v.is_array() || v.size() != 2) {
    diag.error(path, fmt::format("expected an array of two numbers [min, max], got {}", describe(v)));
    return false;
  }
  const auto min = read_number(v[0], pointer_append(path, 0), diag, kJitterFactor);
  const auto max = read_number(v[1], pointer_append(path, 1), diag, kJitterFactor);
  if (!min || !max) return false;
  if (*min > *max) {
    diag.error(path, fmt::format("expected [min, max] with min <= max, got {}", describe(v)));
    return false;
  }
  out = JitterRange{*min, *max};
  return true;
}

bool read_shaped(const Json& v, const std::string& path, Diagnostics& diag, std::vector<KindRetries>& out) {
  static const auto kKinds = [] {
    std::vector<std::pair<std::string_view, OutcomeKind>> kinds;
    for (const OutcomeKind kind : all_outcome_kinds()) {
      if (kind != OutcomeKind::success) kinds.emplace_back(to_string(kind), kind);
    }
    return kinds;
  }();
  static const auto kNames = [] {
    std::vector<std::string_view> names;
    for (const auto& [name, kind] : kKinds) names.push_back(name);
    return names;
  }();
  const ObjectReader obj(v, path, diag, kNames);
  if (!obj.valid()) return false;
  const std::size_t errors_before = diag.count();
  std::vector<KindRetries> counts;
  for (const auto& [name, kind] : kKinds) {
    std::int32_t retries = 0;
    if (obj.get(name, retries, IntRange{0, kRetryAttempts.max - 1})) counts.push_back(KindRetries{kind, retries});
  }
  if (diag.count() != errors_before) return false;
  out = std::move(counts);
  return true;
}

bool read_shaped(const Json& v, const std::string& path, Diagnostics& diag, SlidingWindowConfig& out) {
  static constexpr auto& kTypes = kAllValues<SlidingWindowType, kSlidingWindowTypeCount>;
  static const auto kTypeNames = choice_names(std::span<const SlidingWindowType>(kTypes));
  const std::size_t errors_before = diag.count();
  const ObjectReader obj(v, path, diag, {"type", "size"});
  if (!obj.valid()) return false;
  SlidingWindowConfig window;
  if (obj.require("type") == nullptr ||
      !obj.get_choice<SlidingWindowType>("type", window.type, kTypeNames, std::span(kTypes))) {
    return false;
  }
  if (const Json* size = obj.find("size"); size != nullptr && window.type == SlidingWindowType::count_based) {
    obj.get("size", window.size, kBreakerWindowCalls);
  } else if (size != nullptr) {
    if (const auto seconds = read_whole_seconds(*size, obj.path_of("size"), diag, kLongestBreakerWindow)) {
      window.size = *seconds / kSecond;
    }
  }
  if (diag.count() != errors_before) return false;
  out = window;
  return true;
}

namespace {

// A rule: {"when": condition, "at_least": threshold (count and amount conditions only),
// "level": level}.
std::optional<EscalationRule> read_escalation_rule(const Json& value, const std::string& path, Diagnostics& diag) {
  static const auto kConditionNames = choice_names(std::span<const EscalationCondition>(all_escalation_conditions()));
  static const auto kLevelNames = choice_names(std::span<const EscalationLevel>(all_escalation_levels()));
  const std::size_t errors_before = diag.count();
  const ObjectReader obj(value, path, diag, {"when", "at_least", "level"});
  if (!obj.valid()) return std::nullopt;
  EscalationRule rule;
  const bool when_ok =
      obj.require("when") != nullptr &&
      obj.get_choice<EscalationCondition>("when", rule.when, kConditionNames, std::span(all_escalation_conditions()));
  if (obj.require("level") != nullptr) {
    obj.get_choice<EscalationLevel>("level", rule.level, kLevelNames, std::span(all_escalation_levels()));
  }
  if (when_ok) {
    const ConditionArgument argument = argument_of(rule.when);
    if (argument == ConditionArgument::flag) {
      if (obj.find("at_least") != nullptr) {
        std::vector<std::string_view> thresholds;
        for (EscalationCondition c : all_escalation_conditions()) {
          if (argument_of(c) != ConditionArgument::flag) thresholds.push_back(to_string(c));
        }
        diag.error(obj.path_of("at_least"), fmt::format("applies only to conditions with a threshold ({}), not \"{}\"",
                                                        join(thresholds), to_string(rule.when)));
      }
    } else if (obj.find("at_least") == nullptr) {
      diag.error(path, fmt::format("missing required key \"at_least\", which \"{}\" needs", to_string(rule.when)));
    } else if (argument == ConditionArgument::count) {
      std::int64_t at_least = 0;
      if (obj.get("at_least", at_least, kEscalationCount)) rule.at_least = static_cast<double>(at_least);
    } else {
      obj.get("at_least", rule.at_least, kEscalationAmount);
    }
  }
  if (diag.count() != errors_before) return std::nullopt;
  return rule;
}

}  // namespace

bool read_shaped(const Json& v, const std::string& path, Diagnostics& diag, std::vector<EscalationRule>& out) {
  const std::size_t errors_before = diag.count();
  std::vector<EscalationRule> rules;
  std::vector<std::size_t> positions;  // each accepted rule's index in the array
  const auto elements = read_array(v, path, diag, /*nonempty=*/true);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::string item = pointer_append(path, i);
    auto rule = read_escalation_rule(elements[i], item, diag);
    if (!rule) continue;
    const bool flag = argument_of(rule->when) == ConditionArgument::flag;
    bool repeated = false;
    for (std::size_t j = 0; j < rules.size() && !repeated; ++j) {
      const EscalationRule& seen = rules[j];
      if (seen.when != rule->when || (!flag && seen.at_least != rule->at_least)) continue;
      const std::string what = flag ? fmt::format("\"{}\"", to_string(rule->when))
                                    : fmt::format("\"{}\" at_least {}", to_string(rule->when), rule->at_least);
      diag.error(item, fmt::format("duplicate rule {} (also {})", what, pointer_append(path, positions[j])));
      repeated = true;
    }
    if (repeated) continue;
    rules.push_back(*rule);
    positions.push_back(i);
  }
  if (diag.count() != errors_before) return false;
  out = std::move(rules);
  return true;
}

}  // namespace squall
