#include "reports/pass_rate.hpp"

#include <fmt/core.h>

#include <charconv>
#include <cmath>
#include <optional>

namespace squall {
namespace {

std::string_view trimmed(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\r";
  const std::size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

// The whole of `text` as a number, or nullopt ("0.9", "1", ".5"; no sign, no unit).
std::optional<double> whole_number(std::string_view text) {
  if (text.empty() || text.front() == '-' || text.front() == '+') return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

std::variant<PassRateRequirement, std::string> parse_pass_rate(std::string_view text) {
  const std::string malformed = fmt::format(
      "expected a pass rate such as \">=0.9\" (>= or > and a fraction of seeds in [0, 1]), got \"{}\"", text);
  std::string_view rest = trimmed(text);
  PassRateRequirement requirement;
  if (rest.starts_with(">=")) {
    requirement.op = Comparison::ge;
    rest.remove_prefix(2);
  } else if (rest.starts_with(">")) {
    requirement.op = Comparison::gt;
    rest.remove_prefix(1);
  } else {
    return malformed;
  }
  const std::optional<double> rate = whole_number(trimmed(rest));
  if (!rate) return malformed;
  if (*rate > 1) return fmt::format("a pass rate is a fraction of seeds in [0, 1], got {}", trimmed(rest));
  if (requirement.op == Comparison::gt && *rate == 1) {
    return fmt::format("\"{}\" can never be met: a pass rate is at most 1", trimmed(text));
  }
  requirement.rate = *rate;
  return requirement;
}

bool meets(const PassRateRequirement& requirement, std::size_t passed, std::size_t seeds) {
  const double rate = static_cast<double>(passed) / static_cast<double>(seeds);
  return requirement.op == Comparison::gt ? rate > requirement.rate : rate >= requirement.rate;
}

std::string to_string(const PassRateRequirement& requirement) {
  return fmt::format("{}{}", to_string(requirement.op), requirement.rate);
}

}  // namespace squall
