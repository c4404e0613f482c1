#include "engine/runtime/duration.hpp"

#include <array>
#include <cassert>
#include <cstdint>
#include <numeric>
#include <optional>

#include <fmt/format.h>

namespace squall {
namespace {

struct Unit {
  std::string_view suffix;
  Nanos nanos;
};

// Largest first: a compound duration's parts must follow this order.
constexpr std::array<Unit, 6> kUnits{{
    {"h", kHour},
    {"m", kMinute},
    {"s", kSecond},
    {"ms", kMillisecond},
    {"us", kMicrosecond},
    {"ns", kNanosecond},
}};

// Units that format_duration writes with a decimal fraction; each is 10^digits ns.
struct DecimalUnit {
  std::string_view suffix;
  Nanos nanos;
  int digits;
};
constexpr DecimalUnit kSecondUnit{"s", kSecond, 9};
constexpr std::array<DecimalUnit, 3> kSubSecondUnits{{
    {"ms", kMillisecond, 6},
    {"us", kMicrosecond, 3},
    {"ns", kNanosecond, 0},
}};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

// One part of a duration as written: "1.5" and the index of its unit in kUnits.
struct Part {
  std::string_view integral;
  std::string_view fraction;  // empty when there is no decimal point
  std::size_t unit = 0;
};

std::optional<std::size_t> unit_index(std::string_view suffix) {
  for (std::size_t i = 0; i < kUnits.size(); ++i) {
    if (kUnits[i].suffix == suffix) return i;
  }
  return std::nullopt;
}

// Digits of `text` as an integer; false when it would not fit an int64.
bool parse_digits(std::string_view digits, std::int64_t& out) {
  out = 0;
  for (const char c : digits) {
    if (__builtin_mul_overflow(out, std::int64_t{10}, &out) ||
        __builtin_add_overflow(out, std::int64_t{c - '0'}, &out)) {
      return false;
    }
  }
  return true;
}

// The exact nanoseconds of one part.
std::variant<Nanos, DurationError> part_nanos(const Part& part) {
  const Nanos unit = kUnits[part.unit].nanos;
  std::int64_t whole = 0;
  Nanos total = 0;
  if (!parse_digits(part.integral, whole) || __builtin_mul_overflow(whole, unit, &total)) {
    return DurationError::too_large;
  }

  // The fraction f / 10^k of a unit is f * unit / 10^k nanoseconds. Trailing zeros do not
  // change it; after dropping them, 10^k must divide f * unit exactly. Reducing by
  // g = gcd(unit, 10^k) keeps every product below `unit`, so nothing overflows.
  std::string_view fraction = part.fraction;
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  if (!fraction.empty()) {
    // unit <= 3.6e12 = 2^13 * 3^2 * 5^11, so more than 13 significant fraction digits
    // can never come out whole; 18 digits still fit an int64.
    if (fraction.size() > 18) return DurationError::finer_than_nanosecond;
    std::int64_t numerator = 0;
    parse_digits(fraction, numerator);
    std::int64_t denominator = 1;
    for (std::size_t i = 0; i < fraction.size(); ++i) denominator *= 10;
    const std::int64_t g = std::gcd(unit, denominator);
    const std::int64_t reduced_denominator = denominator / g;
    if (numerator % reduced_denominator != 0) return DurationError::finer_than_nanosecond;
    const Nanos sub_unit = numerator / reduced_denominator * (unit / g);
    if (__builtin_add_overflow(total, sub_unit, &total)) return DurationError::too_large;
  }
  return total;
}

// `d` in `unit` as a decimal without trailing zeros: (1500 ms, seconds) -> "1.5".
std::string decimal(Nanos d, const DecimalUnit& unit) {
  const Nanos whole = d / unit.nanos;
  const Nanos fraction = d % unit.nanos;
  if (fraction == 0) return fmt::format("{}", whole);
  std::string digits = fmt::format("{:0{}}", fraction, unit.digits);
  while (digits.back() == '0') digits.pop_back();
  return fmt::format("{}.{}", whole, digits);
}

}  // namespace

std::variant<Nanos, DurationError> parse_duration(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }

  // Syntax first. Units strictly decrease, so there are at most kUnits.size() parts; the
  // loop is bounded by that, and text left over after it is malformed.
  std::array<Part, kUnits.size()> parts{};
  std::size_t part_count = 0;
  std::size_t next_unit = 0;  // the largest unit the next part may use
  std::size_t pos = 0;
  const auto take = [&](auto pred) {
    const std::size_t start = pos;
    while (pos < text.size() && pred(text[pos])) ++pos;
    return text.substr(start, pos - start);
  };
  while (pos < text.size() && part_count < parts.size()) {
    Part& part = parts[part_count++];
    part.integral = take(is_digit);
    if (part.integral.empty()) return DurationError::malformed;
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      part.fraction = take(is_digit);
      if (part.fraction.empty()) return DurationError::malformed;
    }
    const std::optional<std::size_t> unit = unit_index(take(is_lower));
    if (!unit || *unit < next_unit) return DurationError::malformed;
    part.unit = *unit;
    next_unit = *unit + 1;
  }
  if (part_count == 0 || pos < text.size()) return DurationError::malformed;
  if (negative) return DurationError::negative;

  Nanos total = 0;
  for (std::size_t i = 0; i < part_count; ++i) {
    const auto nanos = part_nanos(parts[i]);
    if (const auto* error = std::get_if<DurationError>(&nanos)) return *error;
    if (__builtin_add_overflow(total, std::get<Nanos>(nanos), &total)) return DurationError::too_large;
  }
  if (total >= kNever) return DurationError::too_large;
  return total;
}

bool is_duration_unit(std::string_view suffix) { return unit_index(suffix).has_value(); }

std::string_view duration_expectation(DurationError error) {
  switch (error) {
    case DurationError::malformed: return R"(a duration string such as "250ms")";
    case DurationError::negative: return "a non-negative duration";
    case DurationError::finer_than_nanosecond: return "a whole number of nanoseconds";
    case DurationError::too_large: return "a duration shorter than 2562047h47m16.854775807s (int64 nanoseconds)";
  }
  return R"(a duration string such as "250ms")";
}

std::string longest_duration_expectation() {
  return "a duration of at most " + format_duration(kLongestScenarioDuration) + " (100 years)";
}

std::string format_duration(Nanos d) {
  assert(d >= 0);
  if (d == 0) return "0s";
  if (d < kSecond) {
    for (const DecimalUnit& unit : kSubSecondUnits) {
      if (d >= unit.nanos) return decimal(d, unit) + std::string(unit.suffix);
    }
  }
  std::string out;
  if (d >= kHour) {
    out += fmt::format("{}h", d / kHour);
    d %= kHour;
  }
  if (d >= kMinute) {
    out += fmt::format("{}m", d / kMinute);
    d %= kMinute;
  }
  if (d > 0) out += decimal(d, kSecondUnit) + std::string(kSecondUnit.suffix);
  return out;
}

std::string format_delta_seconds(Nanos d) { return decimal(d, kSecondUnit); }

}  // namespace squall
