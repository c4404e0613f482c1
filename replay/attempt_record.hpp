// What every trace reader (replay/otlp_reader.hpp, replay/litellm_reader.hpp) turns its
// input into: one AttemptRecord per request sent to a provider, the agent spans that root
// tasks when the trace has them, and the count of every irregularity met on the way.
// Times are integer nanoseconds since the Unix epoch; tokens are counts; money is USD.
// docs/replay.md lists, per input format, the field each member is read from.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/outcome.hpp"

namespace squall::replay {

struct AttemptRecord {
  std::string trace_id;   // the task (an OTLP trace, LiteLLM's trace_id)
  std::string span_id;    // empty when the input has none (LiteLLM: its record id)
  std::string parent_id;  // the span the attempt was made under; empty at a trace's root
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;     // never before start_ns (ReadCounts::end_before_start)
  std::string provider;        // gen_ai.provider.name, gen_ai.system, custom_llm_provider
  std::string operation;       // gen_ai.operation.name: chat, embeddings, retrieval, execute_tool, ...
  std::string request_model;   // empty when unknown
  std::string response_model;  // empty when unknown
  std::string server_address;  // empty when unknown
  std::string tool;            // squall.tool, else gen_ai.tool.name; empty when unknown
  std::string model_group;     // LiteLLM's model_group (the alias the caller asked for); else empty
  std::string endpoint;        // the URL path the request went to ("/v1/chat/completions"); empty when unknown
  OutcomeKind outcome = OutcomeKind::success;
  int status_code = 0;  // HTTP status; 0 when the trace has none
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> output_tokens;
  std::optional<std::int64_t> cache_read_tokens;
  std::optional<std::int64_t> cache_creation_tokens;
  std::optional<std::int64_t> retry_after_ns;  // the server's Retry-After, when recorded
  std::optional<std::int32_t> resend_count;    // http.request.resend_count; absent: not recorded
  std::optional<double> cost_usd;
  std::optional<std::int64_t> first_token_ns;  // LiteLLM's completionStartTime, when streaming
  // The span every attempt of this one's logical call was made under, when the trace says
  // so: a GenAI span over the HTTP requests its client made (one create() call, its own
  // retries included). Else empty.
  std::string call_key;
  std::string where;  // the input position, for messages: "trace.json span 12", "gw.jsonl:7"
};

// Whether an attempt got an answer: a success, or a completion cut at its max tokens
// (finish_reason "length", engine/outcome.hpp's truncated), which is an answer too: the
// fitted output-token model reproduces the cut, no fault rule does.
inline bool answered(OutcomeKind kind) { return kind == OutcomeKind::success || kind == OutcomeKind::truncated; }

// A span that stands for a whole agent run (gen_ai.operation.name invoke_agent): the task's
// own start and end when the trace records them.
struct AgentSpan {
  std::string trace_id;
  std::string span_id;
  std::string name;  // gen_ai.agent.name, else the span name
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

// Irregularities met while reading, each handled as docs/replay.md says and counted here;
// nothing is dropped without a count.
struct ReadCounts {
  std::uint64_t records = 0;                    // spans or log records read
  std::uint64_t attempts = 0;                   // attempt records made
  std::uint64_t agent_spans = 0;                // invoke_agent spans
  std::uint64_t other_spans = 0;                // spans neither GenAI nor an attempt's HTTP child (kept out)
  std::uint64_t http_children = 0;              // HTTP client spans under an attempt span (its requests)
  std::uint64_t endpoint_requests = 0;          // HTTP requests to a GenAI endpoint, no GenAI span over them
  std::uint64_t duplicates = 0;                 // a (trace, span) or record id seen before: the later one skipped
  std::uint64_t orphans = 0;                    // a parent id named but absent: grouped under the trace
  std::uint64_t end_before_start = 0;           // clock skew: the end set to the start
  std::uint64_t failures_without_tokens = 0;    // failed chat attempts with no token counts: billed as 0
  std::uint64_t unclassified_errors = 0;        // an error with no status or known error.type: server_error
  std::uint64_t requests_without_response = 0;  // an HTTP request with no status nor a telling error.type: timeout
  std::uint64_t unknown_attributes = 0;         // attribute keys or record fields replay does not read
  std::vector<std::string> unknown_names;       // the first kMaxUnknownNames distinct ones, sorted
  static constexpr std::size_t kMaxUnknownNames = 20;

  void saw_unknown(const std::string& name);
};

struct TraceData {
  std::vector<AttemptRecord> attempts;  // in input order
  std::vector<AgentSpan> agents;        // in input order
  ReadCounts counts;
};

// A malformed input: the message names the file, the line or span, the field, and what was
// expected against what was found. The CLI prints it and exits 2.
class TraceInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace squall::replay
