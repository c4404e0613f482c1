// The JSONL event trace: every event the engine emits during a run, one JSON object a
// line, in the order the recorder saw them (the order the fingerprint folds), between a
// header and a trailer record. It is the input format for incident replay, so every field
// is documented in docs/ci.md and the format is versioned (kTraceVersion).
//
// Records (each line is one object; keys in this order):
//   {"seq": 0, "event": "trace_start", "squall_trace_version": 1, "scenario": ..., "seed": ...,
//    "squall_version": ...}
//   {"seq": N, "event": NAME, "at_ns": ..., FIELDS...}     one per event; NAME and FIELDS
//                                                        per reports/writers/trace_fields.hpp
//   {"seq": N, "event": "run_finished", "at_ns": ..., "fingerprint": ..., "tasks": ...,
//    "thresholds_passed": ...}
// seq counts records from 0, so a missing or reordered line shows.
//
// Cost and memory: a trace is only built when asked for (the simulator tees events to it,
// engine/tee_sink.hpp; without it the engine talks to the recorder alone). Records are
// formatted into a buffer that is handed to the output whenever it holds 64 KiB, so a run
// of millions of events holds one buffer, never the trace; the CLI's output is a temporary
// file renamed into place at the end (reports/atomic_file.hpp).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <string_view>

#include "engine/events.hpp"
#include "reports/report.hpp"
#include "reports/writers/trace_fields.hpp"

namespace squall {

inline constexpr int kTraceVersion = 1;

struct TraceHeader {
  std::string scenario;
  std::uint64_t seed = 0;
  std::string squall_version;
};

class TraceWriter final : public EventSink {
 public:
  // Where finished pieces of the trace go, in order. May throw; the writer then stops
  // writing and finish() rethrows, so a failing disk does not disturb the simulation.
  using Output = std::function<void(std::string_view)>;

  static constexpr std::size_t kBufferBytes = 64 * 1024;

  // Writes the header record (into the buffer).
  TraceWriter(Output output, const TraceHeader& header);

#define SQUALL_TRACE_HANDLER(handler, Event, trace_name) \
  void handler(const Event& e) override { record(trace_name, e); }
  SQUALL_EVENTS(SQUALL_TRACE_HANDLER)
#undef SQUALL_TRACE_HANDLER

  // Writes the trailer record from the finished run's report and hands the rest of the
  // buffer to the output. Call once, after the run. Rethrows the output's first error.
  void finish(const Report& report);

  // Records written so far, the header included.
  std::uint64_t records() const { return seq_; }

 private:
  template <class Event>
  void record(std::string_view name, const Event& e) {
    TraceRecord j = start(name);
    trace_fields(j, e);
    append(j);
  }
  TraceRecord start(std::string_view name);
  void append(const TraceRecord& j);
  void flush();

  Output output_;
  std::string buffer_;
  std::uint64_t seq_ = 0;
  std::exception_ptr error_;
};

}  // namespace squall
