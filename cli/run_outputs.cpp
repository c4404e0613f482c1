#include "cli/run_outputs.hpp"

#include <fmt/core.h>

#include "cli/output_path.hpp"
#include "cli/step_summary.hpp"
#include "mocks/provider_config.hpp"
#include "reports/writers/markdown_writer.hpp"
#include "sim/run.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

// Whether two outputs name the same file, which need not exist yet.
bool same_file(const fs::path& a, const fs::path& b) { return output_identity(a) == output_identity(b); }

}  // namespace

OtlpRunInfo otlp_run_info(const Scenario& scenario, std::uint64_t seed) {
  OtlpRunInfo info{scenario.name, seed, std::string(squall_version()), scenario.start_unix_seconds, {}};
  for (const ProviderConfig& config : scenario.providers) {
    const ProviderDescriptor d = describe(config);
    info.providers.push_back({d.name, d.kind, d.model});
  }
  return info;
}

RunOutputs::RunOutputs(std::vector<ReportRequest> requests, std::optional<fs::path> step_summary,
                       const TraceHeader& header, OtlpRunInfo otlp)
    : requests_(std::move(requests)), step_summary_(std::move(step_summary)) {
  for (const ReportRequest& r : requests_) {
    if (!r.format->streamed()) continue;
    streamed_.push_back(std::make_unique<AtomicFile>(resolve_output(r.path)));
    (r.format->name == "otlp" ? otlp_files_ : trace_files_).push_back(streamed_.size() - 1);
  }
  // One writer per streamed format feeds all of its files.
  if (!trace_files_.empty()) {
    trace_.emplace(
        [this](std::string_view piece) {
          for (const std::size_t i : trace_files_) streamed_[i]->write(piece);
        },
        header);
  }
  if (!otlp_files_.empty()) {
    otlp_.emplace(
        [this](std::string_view piece) {
          for (const std::size_t i : otlp_files_) streamed_[i]->write(piece);
        },
        std::move(otlp));
  }
  if (trace_ && otlp_) both_.emplace(*trace_, *otlp_);
}

EventSink* RunOutputs::observer() {
  if (both_) return &*both_;
  if (trace_) return &*trace_;
  if (otlp_) return &*otlp_;
  return nullptr;
}

std::vector<std::string> RunOutputs::write(const Report& report) {
  std::vector<std::string> lines;
  if (trace_) trace_->finish(report);
  if (otlp_) otlp_->finish();
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
