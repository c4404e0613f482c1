#include "reports/file_kind.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include <fmt/format.h>

namespace squall {
namespace {

struct KindText {
  std::string_view is;    // "this is ..."
  std::string_view noun;  // "..., not <noun>"
  std::string_view use;   // how such a file is used
};

// Indexed by FileKind.
constexpr std::array<KindText, 6> kKinds{{
    {"a scenario file", "a scenario", "give it as the scenario (squall run FILE, squall compare FILE --policy P)"},
    {"a policy file", "a policy file",
     "use --policy (squall run SCENARIO --policy FILE, squall validate --policy FILE)"},
    {"a sweep file", "a sweep file", "run it with squall sweep FILE"},
    {"a report written by squall run", "a squall report", "compare two reports with squall compare A.json B.json"},
    {"a report written by squall sweep", "a squall report",
     "it is an output; squall merge combines the partial results written by squall sweep --shard"},
    {"a partial sweep result", "a partial sweep result", "combine every shard's partial with squall merge FILE..."},
}};

bool is_policy_shape(const nlohmann::ordered_json& root) {
  return !root.empty() &&
         std::all_of(root.begin(), root.end(), [](const nlohmann::ordered_json& v) { return v.is_array(); });
}

}  // namespace

FileKind file_kind_of(const nlohmann::ordered_json& root) {
  if (!root.is_object()) return FileKind::unknown;
  if (root.contains("squall_sweep_partial_version")) return FileKind::sweep_partial;
  if (root.contains("squall_sweep_version")) return FileKind::sweep_report;
  if (root.contains("squall_report_version")) return FileKind::report;
  if (root.contains("workload") || root.contains("providers")) return FileKind::scenario;
  if (root.contains("variants")) return FileKind::sweep;
  if (is_policy_shape(root)) return FileKind::policy;
  return FileKind::unknown;
}

std::optional<std::string> wrong_kind_problem(const nlohmann::ordered_json& root, FileKind expected) {
  const FileKind found = file_kind_of(root);
  if (found == FileKind::unknown || found == expected) return std::nullopt;
  const KindText& is = kKinds[static_cast<std::size_t>(found)];
  return fmt::format("this is {}, not {}: {}", is.is, kKinds[static_cast<std::size_t>(expected)].noun, is.use);
}

}  // namespace squall
