// What an OTLP span is to replay (an attempt, an agent run, or other) and the records made
// from it, by the GenAI conventions of both eras (replay/otlp_reader.hpp, docs/replay.md).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "replay/attempt_record.hpp"
#include "replay/otlp_span.hpp"

namespace squall::replay {

enum class SpanKindForReplay : std::uint8_t { other, attempt, agent };

struct SpanRole {
  SpanKindForReplay kind = SpanKindForReplay::other;
  std::string operation;   // gen_ai.operation.name, else from the span's name
  std::string name_model;  // the model a "chat gpt-4o" name gives, for spans without the attribute
  bool http_only = false;  // an HTTP request to a GenAI endpoint with no GenAI span over it
};

SpanRole role_of(const OtlpSpan& span);
// An HTTP client span (a request): one with an HTTP status or request method, either era.
bool is_http_request(const OtlpSpan& span);
// The GenAI operation the URL of an HTTP request names, or empty: .../chat/completions and
// Anthropic's .../messages chat, .../completions text_completion, .../embeddings
// embeddings, Gemini's ...:generateContent generate_content. From url.full, http.url or
// url.path: what a trace with HTTP instrumentation only says of an LLM call.
std::string endpoint_operation(const OtlpSpan& span);

// `http_child`: the HTTP span under it whose status it takes when it has none, or null.
// Counts what it meets (unknown attributes, skew, failures without tokens) into `counts`.
AttemptRecord attempt_of(const OtlpSpan& span, const SpanRole& role, const OtlpSpan* http_child, ReadCounts& counts);
// The records of an attempt span and the HTTP requests under it, in start order. Without
// requests, or with one, it is one attempt (attempt_of); with any, the span is one whole
// client call (call_key the span's id). With several (the client's own retries: the OpenAI
// and Anthropic SDKs make them inside one GenAI span), each request is an attempt of that
// call (resend_count its index):
// the first starts at the span's start, the last ends at the span's end and carries what the
// span says of the answer (models, tokens, finish reasons, cost, error.type); an earlier
// one's outcome is its own status or error.type.
std::vector<AttemptRecord> attempts_of(const OtlpSpan& span, const SpanRole& role,
                                       std::span<const OtlpSpan* const> requests, ReadCounts& counts);
AgentSpan agent_of(const OtlpSpan& span, ReadCounts& counts);

}  // namespace squall::replay
