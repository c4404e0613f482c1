// The string tables of the engine's closed vocabularies declared by X-macro in their headers
// (Degradation and SearchMode in call.hpp, TaskStatus and AnswerVerdict in task_result.hpp).
#include <array>
#include <string>

#include "engine/call.hpp"

namespace squall {

std::string_view to_string(Degradation d) {
  static constexpr std::array<std::string_view, kDegradationCount> kNames{SQUALL_DEGRADATIONS(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(d)];
}

std::string degradation_path(std::uint32_t mask) {
  std::string path;
  for (std::size_t i = 0; i < kDegradationCount; ++i) {
    if ((mask & (std::uint32_t{1} << i)) == 0) continue;
    if (!path.empty()) path += '+';
    path += to_string(static_cast<Degradation>(i));
  }
  return path;
}

std::string_view to_string(SearchMode mode) {
  static constexpr std::array<std::string_view, kSearchModeCount> kNames{SQUALL_SEARCH_MODES(SQUALL_NAME)};
  return kNames[static_cast<std::size_t>(mode)];
}

}  // namespace squall

#include "engine/task_result.hpp"

namespace squall {

std::string_view to_string(TaskStatus status) {
  static constexpr std::array<std::string_view, kTaskStatusCount> kNames{SQUALL_TASK_STATUSES(SQUALL_NAME)};
  return kNames[index_of(status)];
}

std::string_view to_string(AnswerVerdict verdict) {
  static constexpr std::array<std::string_view, kAnswerVerdictCount> kNames{SQUALL_ANSWER_VERDICTS(SQUALL_NAME)};
  return kNames[index_of(verdict)];
}

}  // namespace squall
