// `squall run --check-determinism`: the same scenario, policy and seed run twice in fresh
// worlds must give byte-identical reports with the same fingerprint (DESIGN section 3).
// This names where two report texts part, for the exit-3 message.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace squall::cli {

struct TextDifference {
  std::size_t offset = 0;  // 0-based byte offset of the first differing byte
  std::size_t line = 1;    // 1-based line of that byte
  std::size_t column = 1;  // 1-based byte column within the line
  std::string first;       // the first text's line there (without its newline)
  std::string second;      // the second text's line there
};

// Where `a` and `b` first differ (a text that is a prefix of the other differs at the
// shorter one's end), or nullopt when they are equal.
std::optional<TextDifference> first_difference(std::string_view a, std::string_view b);

}  // namespace squall::cli
