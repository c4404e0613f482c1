// The shapes that cross the engine's provider seam: Request, Response, and the contexts
// a logical call carries through the strategy pipeline.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/outcome.hpp"
#include "engine/runtime/time.hpp"

namespace squall {

// One search hit, shaped like the result items of public search APIs. The views point
// into storage the provider owns for the whole run (the mock's corpus).
struct SearchResult {
  std::string_view title;
  std::string_view link;
  std::string_view snippet;
  std::int64_t snippet_tokens = 0;  // tokens the snippet adds to a prompt that quotes it
};

// What the engine asks a provider for. Search providers read `query`; LLM providers read
// the token fields.
struct Request {
  std::string query;
  std::int64_t prompt_tokens = 0;      // input tokens of an LLM request
  std::int64_t max_output_tokens = 0;  // the request's cap on output tokens (0: the model's)
};

// How the exchange ended at the transport level.
enum class Transport : std::uint8_t {
  ok,         // a response arrived (its status may still be an error)
  timeout,    // no response before the attempt's deadline
  cancelled,  // the caller cancelled the call (CallOptions::cancellation) before a response
};

// What kind of body a successful response carries.
enum class Body : std::uint8_t {
  search_results,  // a list of hits (web or vector search)
  completion,      // generated text, counted in output tokens (LLM)
};

// What a provider answered, before the engine classifies it (engine/classify.hpp). Mocks
// fill it the way an HTTP client would see a real service.
struct Response {
  Transport transport = Transport::ok;
  int status = 200;             // HTTP status code
  Body body = Body::search_results;
  std::string error_code;       // error code from the body, e.g. "context_length_exceeded"
  std::string retry_after;      // raw Retry-After header value; empty when absent
  std::vector<SearchResult> results;  // search hits (empty for LLM responses)
  std::int64_t input_tokens = 0;      // billed input tokens, failed attempts included
  std::int64_t output_tokens = 0;     // billed output tokens
  double cost_usd = 0;                // billed cost of this exchange
  bool truncated = false;             // LLM output stopped at max_output_tokens
};

// A response together with the engine's classification of it.
struct Outcome {
  OutcomeKind kind = OutcomeKind::success;
  Response response;
};

// Ways in which a successful answer is worse than the one asked for; a task that needed
// any of them is reported as degraded rather than clean.
enum class Degradation : std::uint32_t {
  simplified_query = 1U << 0,
};

// Per task state shared by every logical call the task makes.
struct TaskContext {
  std::uint64_t id = 0;
  TimePoint started = 0;
  TimePoint deadline = kNever;   // the task's end-to-end deadline
  std::int64_t tokens_spent = 0;  // input + output tokens of every attempt, failed included
  double cost_spent_usd = 0;      // USD of every attempt, failed included
  std::uint32_t degradations = 0;  // bitmask of Degradation

  void mark(Degradation d) { degradations |= static_cast<std::uint32_t>(d); }
  bool has(Degradation d) const { return (degradations & static_cast<std::uint32_t>(d)) != 0; }
};

// Per logical call state: one tool call of one task step, across all its attempts.
struct CallContext {
  TaskContext& task;
  std::string_view tool;         // the tool (provider) name, as in the scenario
  TimePoint deadline = kNever;   // no attempt starts at or after it, none outlives it
  Nanos attempt_timeout = kNever;  // each attempt's own timeout (the timeout strategy)
  std::int32_t attempts = 0;     // provider attempts started so far
};

}  // namespace squall
