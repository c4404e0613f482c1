#include "reports/writers/trace_writer.hpp"

#include <utility>

#include "reports/fingerprint.hpp"

namespace squall {

TraceWriter::TraceWriter(Output output, const TraceHeader& header) : output_(std::move(output)) {
  buffer_.reserve(kBufferBytes + 1024);
  TraceRecord j = start("trace_start");
  j["squall_trace_version"] = kTraceVersion;
  j["scenario"] = header.scenario;
  j["seed"] = header.seed;
  j["squall_version"] = header.squall_version;
  append(j);
}

TraceRecord TraceWriter::start(std::string_view name) {
  TraceRecord j = TraceRecord::object();
  j["seq"] = seq_++;
  j["event"] = std::string(name);
  return j;
}

void TraceWriter::append(const TraceRecord& j) {
  // Names come from scenario files; bytes that are not UTF-8 are replaced, not thrown on,
  // as in the JSON report.
  buffer_ += j.dump(-1, ' ', false, TraceRecord::error_handler_t::replace);
  buffer_ += '\n';
  if (buffer_.size() >= kBufferBytes) flush();
}

void TraceWriter::flush() {
  if (!error_ && !buffer_.empty()) {
    try {
      output_(buffer_);
    } catch (...) {
      error_ = std::current_exception();
    }
  }
  buffer_.clear();
}

void TraceWriter::finish(const Report& report) {
  TraceRecord j = start("run_finished");
  j["at_ns"] = report.duration;
  j["fingerprint"] = fingerprint_hex(report.fingerprint);
  j["tasks"] = report.tasks.total;
  j["thresholds_passed"] = report.all_thresholds_passed();
  append(j);
  flush();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace squall
