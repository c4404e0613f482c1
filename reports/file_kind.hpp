// Which of squall's files a parsed document is, by the keys only that kind has at its top,
// so that a file given where another kind belongs (`run` on a sweep, `validate` on a
// policy file, `compare` on a scenario) gets one error that says what it is and how to
// use it, instead of a wall of unknown keys:
//   this is a policy file, not a scenario: use --policy (squall run SCENARIO --policy FILE)
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace squall {

enum class FileKind : std::uint8_t {
  scenario,       // has "workload" or "providers"
  policy,         // a non-empty object whose every value is an array (tools' pipelines)
  sweep,          // has "variants", and neither "workload" nor "providers"
  report,         // has "squall_report_version" (squall run --out)
  sweep_report,   // has "squall_sweep_version" (squall sweep --out)
  sweep_partial,  // has "squall_sweep_partial_version" (squall sweep --shard i/n --out)
  unknown,        // none of these: read as the kind expected, with that kind's errors
};

FileKind file_kind_of(const nlohmann::ordered_json& root);

// The error for `root`, read as an `expected` file, when it is recognisably another kind;
// nullopt when it is of that kind or of no kind recognised.
std::optional<std::string> wrong_kind_problem(const nlohmann::ordered_json& root, FileKind expected);

}  // namespace squall
