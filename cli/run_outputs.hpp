// The files one `squall run` writes, from its checked report requests
// (cli/report_requests.hpp): streamed formats (the JSONL trace) are open from before the
// run to its end, rendered ones are written after it, each atomically; the Markdown
// summary also goes to $GITHUB_STEP_SUMMARY when that is set. Nothing is published until
// write(): an object destroyed before (a failed run, a failed determinism check) leaves
// no file behind.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/report_requests.hpp"
#include "reports/atomic_file.hpp"
#include "reports/writers/trace_writer.hpp"

namespace squall::cli {

class RunOutputs {
 public:
  // Opens the temporary files of streamed formats and, when there are any, a trace writer
  // over them. `step_summary` is where the Markdown summary is appended as well (nullopt:
  // nowhere). Throws std::runtime_error when a temporary file cannot be created.
  RunOutputs(std::vector<ReportRequest> requests, std::optional<std::filesystem::path> step_summary,
             const TraceHeader& header);

  // The sink the run must report its events to, or nullptr when no format streams them.
  EventSink* observer() { return trace_ ? &*trace_ : nullptr; }

  // Finishes the streamed files and writes the rendered ones; returns one line per file,
  // "junit report written to out/a.xml". Throws std::runtime_error naming the file.
  std::vector<std::string> write(const Report& report);

 private:
  std::vector<ReportRequest> requests_;
  std::optional<std::filesystem::path> step_summary_;
  std::vector<std::unique_ptr<AtomicFile>> streamed_;  // one per streamed request, in order
  std::optional<TraceWriter> trace_;
};

}  // namespace squall::cli
