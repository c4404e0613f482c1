#include "sim/scenario/duration.hpp"

#include <array>
#include <cstdint>
#include <numeric>
#include <utility>

#include <fmt/format.h>

namespace squall {
namespace {

struct Unit {
  std::string_view suffix;
  Nanos nanos;
};

// Largest first, so that format_duration picks the coarsest exact unit. The parser
// matches suffixes exactly, so the order does not matter there.
constexpr std::array<Unit, 6> kUnits{{
    {"h", kHour},
    {"m", kMinute},
    {"s", kSecond},
    {"ms", kMillisecond},
    {"us", kMicrosecond},
    {"ns", kNanosecond},
}};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

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

}  // namespace

std::variant<Nanos, DurationError> parse_duration(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  std::size_t pos = 0;
  while (pos < text.size() && is_digit(text[pos])) ++pos;
  const std::string_view integral = text.substr(0, pos);
  std::string_view fraction;
  if (pos < text.size() && text[pos] == '.') {
    const std::size_t start = ++pos;
    while (pos < text.size() && is_digit(text[pos])) ++pos;
    fraction = text.substr(start, pos - start);
    if (fraction.empty()) return DurationError::malformed;
  }
  if (integral.empty()) return DurationError::malformed;
  const std::string_view suffix = text.substr(pos);
  const Unit* unit = nullptr;
  for (const Unit& u : kUnits) {
    if (u.suffix == suffix) unit = &u;
  }
  if (unit == nullptr) return DurationError::malformed;
  if (negative) return DurationError::negative;

  std::int64_t whole = 0;
  Nanos total = 0;
  if (!parse_digits(integral, whole) || __builtin_mul_overflow(whole, unit->nanos, &total)) {
    return DurationError::too_large;
  }

  // The fraction f / 10^k of a unit is f * unit / 10^k nanoseconds. Trailing zeros do not
  // change it; after dropping them, 10^k must divide f * unit exactly. Reducing by
  // g = gcd(unit, 10^k) keeps every product below `unit`, so nothing overflows.
  while (!fraction.empty() && fraction.back() == '0') fraction.remove_suffix(1);
  if (!fraction.empty()) {
    // unit <= 3.6e12 = 2^13 * 3^2 * 5^11, so more than 13 significant fraction digits
    // can never come out whole; 18 digits still fit an int64.
    if (fraction.size() > 18) return DurationError::finer_than_nanosecond;
    std::int64_t numerator = 0;
    parse_digits(fraction, numerator);
    std::int64_t denominator = 1;
    for (std::size_t i = 0; i < fraction.size(); ++i) denominator *= 10;
    const std::int64_t g = std::gcd(unit->nanos, denominator);
    const std::int64_t reduced_denominator = denominator / g;
    if (numerator % reduced_denominator != 0) return DurationError::finer_than_nanosecond;
    const Nanos part = numerator / reduced_denominator * (unit->nanos / g);
    if (__builtin_add_overflow(total, part, &total)) return DurationError::too_large;
  }
  if (total >= kNever) return DurationError::too_large;
  return total;
}

std::string format_duration(Nanos d) {
  for (const Unit& u : kUnits) {
    if (d != 0 && d % u.nanos == 0) return fmt::format("{}{}", d / u.nanos, u.suffix);
  }
  return "0s";
}

std::string format_delta_seconds(Nanos d) {
  const Nanos whole = d / kSecond;
  const Nanos fraction = d % kSecond;
  if (fraction == 0) return fmt::format("{}", whole);
  std::string digits = fmt::format("{:09}", fraction);
  while (digits.back() == '0') digits.pop_back();
  return fmt::format("{}.{}", whole, digits);
}

}  // namespace squall
