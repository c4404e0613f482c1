#include "engine/retry_after.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <system_error>

#include <fmt/format.h>
#include <boost/date_time/gregorian/gregorian_types.hpp>

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

// Digits with an optional fraction, as `unit` nanoseconds each; the caller has trimmed.
// Digits only, so signs, units, exponents, blanks and a second dot are all rejected; a
// well-formed value too large to represent saturates to kNever. Decimals below a
// nanosecond are truncated.
std::optional<Nanos> parse_decimal(std::string_view value, Nanos unit) {
  const auto dot = value.find('.');
  const std::string_view whole = value.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : value.substr(dot + 1);
  if (!all_digits(whole)) return std::nullopt;
  if (dot != std::string_view::npos && !all_digits(fraction)) return std::nullopt;
  const auto units = parse_digits(whole);
  if (!units || *units > kNever / unit) return kNever;
  const Nanos nanos = *units * unit;
  Nanos sub = 0;
  Nanos place = unit / 10;
  for (std::size_t i = 0; i < fraction.size() && place > 0; ++i, place /= 10) sub += (fraction[i] - '0') * place;
  if (nanos > kNever - sub) return kNever;
  return nanos + sub;
}

constexpr std::array<std::string_view, 7> kDayNames{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 12> kMonthNames{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// The number in value[at, at + n), all digits, or -1.
int fixed_number(std::string_view value, std::size_t at, std::size_t n) {
  const std::string_view digits = value.substr(at, n);
  if (digits.size() != n || !all_digits(digits)) return -1;
  return static_cast<int>(*parse_digits(digits));
}

const boost::gregorian::date kUnixEpoch(1970, 1, 1);

}  // namespace

std::optional<std::int64_t> parse_http_date(std::string_view value) {
  // "Sun, 06 Nov 1994 08:49:37 GMT": 29 characters at fixed places.
  if (value.size() != 29 || value.substr(3, 2) != ", " || value[7] != ' ' || value[11] != ' ' || value[16] != ' ' ||
      value[19] != ':' || value[22] != ':' || value.substr(25) != " GMT") {
    return std::nullopt;
  }
  const auto day_name = std::find(kDayNames.begin(), kDayNames.end(), value.substr(0, 3));
  const auto month = std::find(kMonthNames.begin(), kMonthNames.end(), value.substr(8, 3));
  const int day = fixed_number(value, 5, 2);
  const int year = fixed_number(value, 12, 4);
  const int hour = fixed_number(value, 17, 2);
  const int minute = fixed_number(value, 20, 2);
  const int second = fixed_number(value, 23, 2);
  if (day_name == kDayNames.end() || month == kMonthNames.end() || day < 1 || year < 1970 || hour < 0 || hour > 23 ||
      minute < 0 || minute > 59 || second < 0 || second > 60) {  // 60: a leap second
    return std::nullopt;
  }
  const auto month_number = static_cast<unsigned short>(month - kMonthNames.begin() + 1);
  if (day > boost::gregorian::gregorian_calendar::end_of_month_day(static_cast<unsigned short>(year), month_number)) {
    return std::nullopt;
  }
  const boost::gregorian::date date(static_cast<unsigned short>(year), month_number, static_cast<unsigned short>(day));
  if (date.day_of_week().as_number() != day_name - kDayNames.begin()) return std::nullopt;
  const std::int64_t days = (date - kUnixEpoch).days();
  return days * 86'400 + hour * 3'600 + minute * 60 + second;
}

std::string format_http_date(std::int64_t unix_seconds) {
  const boost::gregorian::date date = kUnixEpoch + boost::gregorian::days(unix_seconds / 86'400);
  const std::int64_t in_day = unix_seconds % 86'400;
  return fmt::format("{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT", kDayNames[date.day_of_week().as_number()],
                     static_cast<int>(date.day()), kMonthNames[date.month().as_number() - 1],
                     static_cast<int>(date.year()), in_day / 3'600, in_day % 3'600 / 60, in_day % 60);
}

std::optional<Nanos> parse_retry_after_ms(std::string_view value) {
  return parse_decimal(trim_ows(value), kMillisecond);
}

std::optional<Nanos> parse_retry_delay(std::string_view value) {
  if (value.size() < 2 || value.back() != 's') return std::nullopt;
  value.remove_suffix(1);
  const auto dot = value.find('.');
  if (dot != std::string_view::npos && value.size() - dot - 1 > 9) return std::nullopt;
  return parse_decimal(value, kSecond);
}

std::optional<Nanos> server_retry_delay(const Response& response, std::int64_t wall_now_unix_ns) {
  const ErrorDetails& details = response.details();
  if (!details.retry_after_ms.empty()) {
    if (const auto ms = parse_retry_after_ms(details.retry_after_ms)) return ms;
  }
  if (!details.retry_after.empty()) {
    if (const auto seconds = parse_retry_after(details.retry_after)) return seconds;
    if (const auto date = parse_http_date(trim_ows(details.retry_after))) {
      // Dates beyond int64 nanoseconds (after 2262) saturate like a huge delay-seconds.
      if (*date > kNever / kSecond) return kNever;
      return std::max<Nanos>(0, *date * kSecond - wall_now_unix_ns);
    }
  }
  if (!details.retry_delay.empty()) return parse_retry_delay(details.retry_delay);
  return std::nullopt;
}

std::optional<Nanos> parse_retry_after(std::string_view value) { return parse_decimal(trim_ows(value), kSecond); }

}  // namespace squall
