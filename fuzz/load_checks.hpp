// What the harnesses of the loaders (scenario, policy and sweep files) check of every
// result (fuzz/fuzz_support.hpp says what a harness is).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "sim/scenario/json_reader.hpp"
#include "sim/scenario/validation_error.hpp"

namespace squall::fuzz {

// The longest error line the harnesses accept: values are cut to 60 bytes in messages
// (mocks/strict_json.hpp describe()); 16 KiB leaves room for paths made of long keys.
inline constexpr std::size_t kMaxErrorLineBytes = 16 * 1024;

// Where a scenario or sweep text is said to be (a file in scenarios/, so the shipped
// files' relative corpus and policy paths resolve), with `extension` (".json", ".yaml").
inline std::string scenario_file_name(std::string_view extension) {
  return std::string(SQUALL_FUZZ_SCENARIOS_DIR) + "/fuzz" + std::string(extension);
}

// The loader's promise about what it says (sim/scenario/json_reader.hpp, validation_error.hpp):
// a result or errors, never both; at most kMaxReportedErrors of them plus the line that
// counts the rest; each one line of bounded length, whatever the input held.
template <typename Result>
void check_load_result(const Result& result, bool has_value) {
  require(has_value == result.errors.empty(), "a result exactly when there are no errors");
  require(result.errors.size() <= kMaxReportedErrors + 1, "at most kMaxReportedErrors errors and a count");
  for (const ValidationError& error : result.errors) {
    const std::string line = to_string(error);
    require(!error.message.empty(), "an error says something");
    require(line.find('\n') == std::string::npos, "an error is one line");
    require(line.size() <= kMaxErrorLineBytes, "an error line is bounded");
  }
}

}  // namespace squall::fuzz
