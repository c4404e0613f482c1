// GitHub Actions job summaries: a step appends Markdown to the file named by
// $GITHUB_STEP_SUMMARY and the job's summary page shows it
// (https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-job-summary).
// `squall run --report markdown=PATH` appends its summary there too when the variable is
// set, so a workflow needs no extra step.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace squall::cli {

// The file $GITHUB_STEP_SUMMARY names, or nullopt when it is unset, empty or blank
// (spaces, tabs and line ends only).
std::optional<std::filesystem::path> step_summary_file();

// Appends `text` to `file` (created 0644 when missing) in one write(2) to a file opened
// with O_APPEND, so other steps' summaries in the same file are kept. Throws
// std::runtime_error naming the file and the reason.
void append_to_file(const std::filesystem::path& file, std::string_view text);

}  // namespace squall::cli
