// What an OTLP span is to replay (an attempt, an agent run, or other) and the records made
// from it, by the GenAI conventions of both eras (replay/otlp_reader.hpp, docs/replay.md).
#pragma once

#include <string>

#include "replay/attempt_record.hpp"
#include "replay/otlp_span.hpp"

namespace squall::replay {

enum class SpanKindForReplay : std::uint8_t { other, attempt, agent };

struct SpanRole {
  SpanKindForReplay kind = SpanKindForReplay::other;
  std::string operation;   // gen_ai.operation.name, else from the span's name
  std::string name_model;  // the model a "chat gpt-4o" name gives, for spans without the attribute
};

SpanRole role_of(const OtlpSpan& span);
bool has_http_status(const OtlpSpan& span);

// `http_child`: the HTTP span under it whose status it takes when it has none, or null.
// Counts what it meets (unknown attributes, skew, failures without tokens) into `counts`.
AttemptRecord attempt_of(const OtlpSpan& span, const SpanRole& role, const OtlpSpan* http_child, ReadCounts& counts);
AgentSpan agent_of(const OtlpSpan& span, ReadCounts& counts);

}  // namespace squall::replay
