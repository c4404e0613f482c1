// The OTLP JSON export of a run (`squall run --report otlp=PATH`): one OTLP/JSON
// ExportTraceServiceRequest document (opentelemetry-proto, docs/specification.md "JSON
// Protobuf Encoding": ids in lower-case hex, 64-bit integers as strings, enums as
// integers) holding one resource, one scope ("squall") and a trace per task:
//   - a task span "invoke_agent TEMPLATE" (kind INTERNAL), the trace's root;
//   - under it, a span per provider attempt (kind CLIENT), named by the OpenTelemetry
//     GenAI conventions: "chat MODEL" (llm), "retrieval PROVIDER" (web_search,
//     vector_search), "execute_tool TOOL" (tool).
// Attribute names are the current GenAI conventions' (gen_ai.provider.name, not the older
// gen_ai.system); docs/replay.md lists every attribute written and its source.
//
// Bytes are deterministic: the trace id of task T is two splitmix64 mixes of (seed, T), the
// task span's id one more, an attempt span's id a mix of (seed, its index among the run's
// attempts); times are the scenario's start_time (Unix seconds, default 1970-01-01) plus
// the virtual time of the event, in integer nanoseconds.
//
// Streaming and memory: spans are written as their events arrive, in the recorder's order,
// through a 64 KiB buffer. An attempt span is held until the task's next attempt, its
// finish, or a Retry-After backoff that names it (the server's delay then becomes its
// retry-after header attribute), so at most one span per task in flight is held.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/events.hpp"
#include "engine/provider_descriptor.hpp"

namespace squall {

struct OtlpProvider {
  std::string name;  // the scenario's provider key
  ProviderKind kind = ProviderKind::llm;
  std::string model;  // ProviderDescriptor::model
};

struct OtlpRunInfo {
  std::string scenario;
  std::uint64_t seed = 0;
  std::string squall_version;
  std::int64_t start_unix_seconds = 0;  // Scenario::start_unix_seconds
  std::vector<OtlpProvider> providers;  // any order; a provider missing here is written as a tool
  // false: the run has no tasks (live mode, whose server sees requests, not an agent's
  // tasks): each attempt span is a root span, its trace the logical request's.
  bool task_spans = true;
};

class OtlpWriter final : public EventSink {
 public:
  // Where finished pieces of the document go, in order. May throw; the writer then stops
  // writing and finish() rethrows, so a failing disk does not disturb the simulation.
  using Output = std::function<void(std::string_view)>;

  static constexpr std::size_t kBufferBytes = 64 * 1024;

  // Writes the document's opening (resource and scope) into the buffer.
  OtlpWriter(Output output, OtlpRunInfo run);

  void on_attempt(const AttemptEvent& e) override;
  void on_backoff(const BackoffEvent& e) override;
  void on_task_finished(const TaskResult& e) override;

  // Writes the spans still held, closes the document and hands the rest of the buffer to
  // the output. Call once, after the run. Rethrows the output's first error.
  void finish();

  std::uint64_t spans() const { return spans_; }

 private:
  using Span = nlohmann::ordered_json;
  struct Held {
    std::int32_t attempt = 0;
    Span span;
  };

  const OtlpProvider* provider(std::string_view name) const;
  Span attempt_span(const AttemptEvent& e);
  void write_held(std::uint64_t task_id);
  void append(const Span& span);
  void flush();

  Output output_;
  OtlpRunInfo run_;
  std::string buffer_;
  std::map<std::uint64_t, Held> held_;  // by task id: each task's latest attempt span
  std::uint64_t attempts_ = 0;          // attempt spans made, for their ids
  std::uint64_t spans_ = 0;
  std::exception_ptr error_;
};

}  // namespace squall
