#include "cli/determinism.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "reports/fingerprint.hpp"
#include "reports/json_writer.hpp"

namespace squall::cli {
namespace {

std::string line_at(std::string_view text, std::size_t line_start) {
  if (line_start >= text.size()) return {};
  const std::size_t end = text.find('\n', line_start);
  return std::string(
      text.substr(line_start, end == std::string_view::npos ? std::string_view::npos : end - line_start));
}

}  // namespace

std::optional<TextDifference> first_difference(std::string_view a, std::string_view b) {
  if (a == b) return std::nullopt;
  const std::size_t common = std::min(a.size(), b.size());
  std::size_t offset = 0;
  while (offset < common && a[offset] == b[offset]) ++offset;
  TextDifference d;
  d.offset = offset;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (a[i] == '\n') {
      ++d.line;
      line_start = i + 1;
    }
  }
  d.column = offset - line_start + 1;
  d.first = line_at(a, line_start);
  d.second = line_at(b, line_start);
  return d;
}

std::optional<std::string> determinism_mismatch(const Report& first, const Report& second) {
  const std::string a = to_json_text(first);
  const std::string b = to_json_text(second);
  const auto diff = first_difference(a, b);
  if (!diff && first.fingerprint == second.fingerprint) return std::nullopt;
  std::string message = "determinism check failed: two runs of the same scenario, policy and seed differ\n";
  message += fmt::format("  fingerprints: {} then {}\n", fingerprint_hex(first.fingerprint),
                         fingerprint_hex(second.fingerprint));
  if (diff) {
    message +=
        fmt::format("  JSON reports first differ at byte {} (line {}, column {}):\n    first:  {}\n    second: {}\n",
                    diff->offset, diff->line, diff->column, diff->first, diff->second);
  }
  return message;
}

}  // namespace squall::cli
