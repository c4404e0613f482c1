#include "engine/retry_after.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <system_error>

namespace squall {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool all_digits(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), is_digit); }

// OWS is spaces and horizontal tabs (RFC 9110 section 5.6.3).
std::string_view trim_ows(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

// Parses an all-digit string; nullopt when it does not fit int64 (the only way it can fail,
// since the caller has checked that every character is a digit).
std::optional<std::int64_t> parse_digits(std::string_view digits) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<Nanos> parse_retry_after(std::string_view value) {
  value = trim_ows(value);
  const auto dot = value.find('.');
  const std::string_view whole = value.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : value.substr(dot + 1);
  // Digits only, so signs, units, exponents, blanks and a second dot are all rejected here.
  if (!all_digits(whole)) return std::nullopt;
  if (dot != std::string_view::npos && !all_digits(fraction)) return std::nullopt;

  // From here on the value is well-formed; one too large to represent saturates to kNever
  // rather than counting as malformed, since a server asking for centuries means "not soon".
  const auto seconds = parse_digits(whole);
  if (!seconds || *seconds > kNever / kSecond) return kNever;
  const Nanos nanos = *seconds * kSecond;

  // The first nine decimals are the nanoseconds; "5" after the dot is 500'000'000 ns.
  Nanos sub_second = 0;
  Nanos place = kSecond / 10;
  for (std::size_t i = 0; i < fraction.size() && place > 0; ++i, place /= 10) {
    sub_second += (fraction[i] - '0') * place;
  }
  if (nanos > kNever - sub_second) return kNever;
  return nanos + sub_second;
}

}  // namespace squall
