#include "cli/run_outputs.hpp"

#include <fmt/core.h>

#include "cli/output_path.hpp"
#include "cli/step_summary.hpp"
#include "reports/writers/markdown_writer.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

// Whether two outputs name the same file, which need not exist yet.
bool same_file(const fs::path& a, const fs::path& b) { return output_identity(a) == output_identity(b); }

}  // namespace

RunOutputs::RunOutputs(std::vector<ReportRequest> requests, std::optional<fs::path> step_summary,
                       const TraceHeader& header)
    : requests_(std::move(requests)), step_summary_(std::move(step_summary)) {
  for (const ReportRequest& r : requests_) {
    if (r.format->streamed()) streamed_.push_back(std::make_unique<AtomicFile>(resolve_output(r.path)));
  }
  if (streamed_.empty()) return;
  // Every streamed request is the trace (jsonl, the one streamed format): one writer
  // feeds all their files.
  trace_.emplace(
      [this](std::string_view piece) {
        for (const auto& file : streamed_) file->write(piece);
      },
      header);
}

std::vector<std::string> RunOutputs::write(const Report& report) {
  std::vector<std::string> lines;
  if (trace_) trace_->finish(report);
  // Every file is written before any is published (AtomicFileBatch).
  AtomicFileBatch batch;
  std::size_t next_streamed = 0;
  for (const ReportRequest& r : requests_) {
    if (r.format->streamed()) {
      batch.add(std::move(streamed_[next_streamed++]));
    } else if (r.format->name == "markdown" && step_summary_ && same_file(r.path, *step_summary_)) {
      // Asked to write the summary to the step summary file itself: it is appended below,
      // like every other step's, rather than replacing theirs.
      continue;
    } else {
      batch.add(resolve_output(r.path), r.format->render(report));
    }
    lines.push_back(fmt::format("{} report written to {}", r.format->name, r.path.string()));
  }
  batch.commit();
  if (step_summary_) {
    append_to_file(*step_summary_, markdown_summary(report));
    lines.push_back(fmt::format("markdown summary appended to {} ($GITHUB_STEP_SUMMARY)", step_summary_->string()));
  }
  return lines;
}

}  // namespace squall::cli
