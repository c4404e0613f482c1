// `squall run --check-determinism`: the same scenario, policy and seed run twice in fresh
// worlds must give byte-identical reports with the same fingerprint (DESIGN section 3).
// This names where two report texts part, for the exit-3 message.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "reports/report.hpp"

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

// Compares two runs' reports: their JSON texts byte for byte and their fingerprints.
// nullopt when they agree; otherwise the lines that say how they differ, e.g.
//   determinism check failed: two runs of the same scenario, policy and seed differ
//     fingerprints: 4e5d14bb4a12d0b9 then 9a0c4c2e11d3f7b2
//     JSON reports first differ at byte 412 (line 19, column 16):
//       first:  "succeeded": 1113,
//       second: "succeeded": 1112,
std::optional<std::string> determinism_mismatch(const Report& first, const Report& second);

}  // namespace squall::cli
