// The files one `squall run` writes, from its checked report requests
// (cli/report_requests.hpp): streamed formats (the JSONL trace, the OTLP export) are open from before the
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
#include "engine/tee_sink.hpp"
#include "reports/atomic_file.hpp"
#include "reports/writers/otlp_writer.hpp"
#include "reports/writers/trace_writer.hpp"
#include "sim/scenario.hpp"

namespace squall::cli {

// What the OTLP export says about the run: the scenario, its start time and the kind and
// model of each provider (the span names and GenAI attributes follow from them).
OtlpRunInfo otlp_run_info(const Scenario& scenario, std::uint64_t seed);

class RunOutputs {
 public:
  // Opens the temporary files of streamed formats and, when there are any, a trace writer
  // (jsonl) or an OTLP writer (otlp) over them. `step_summary` is where the Markdown summary
  // is appended as well (nullopt: nowhere). Throws std::runtime_error when a temporary file
  // cannot be created.
  RunOutputs(std::vector<ReportRequest> requests, std::optional<std::filesystem::path> step_summary,
             const TraceHeader& header, OtlpRunInfo otlp = {});

  // The sink the run must report its events to, or nullptr when no format streams them.
  EventSink* observer();

  // Finishes the streamed files and writes the rendered ones; returns one line per file,
  // "junit report written to out/a.xml". Throws std::runtime_error naming the file.
  std::vector<std::string> write(const Report& report);

 private:
  std::vector<ReportRequest> requests_;
  std::optional<std::filesystem::path> step_summary_;
  std::vector<std::unique_ptr<AtomicFile>> streamed_;  // one per streamed request, in order
  std::vector<std::size_t> trace_files_;               // indices into streamed_ of jsonl requests
  std::vector<std::size_t> otlp_files_;                // and of otlp requests
  std::optional<TraceWriter> trace_;
  std::optional<OtlpWriter> otlp_;
  std::optional<TeeSink> both_;  // when both formats are asked for
};

}  // namespace squall::cli
