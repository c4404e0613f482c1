// Reads OTLP/JSON traces into attempt records (replay/attempt_record.hpp). Accepted forms:
//   - one document, an ExportTraceServiceRequest (or TracesData: the same shape),
//     {"resourceSpans": [{"resource": ..., "scopeSpans": [{"scope": ..., "spans": [...]}]}]};
//   - the OpenTelemetry Collector file exporter's form: one such object per line.
// Spans may come in any order and across lines. A span is an attempt when it is a GenAI
// client operation (chat, text_completion, generate_content, embeddings, retrieval,
// execute_tool) by its gen_ai.operation.name, or by its name ("chat gpt-4o", the
// gen_ai.client.inference span), or by a gen_ai.provider.name / gen_ai.system; an
// invoke_agent span is an AgentSpan; an HTTP span under an attempt lends it its status
// code when the attempt has none. docs/replay.md lists every attribute read.
//
// Errors (TraceInputError, exit 2): a file that cannot be read, is not JSON
// ("trace.json:3:14: not JSON: ..."), is not OTLP ("trace.json: /resourceSpans: expected an
// array, got ..."), or has a span field of the wrong shape (replay/otlp_span.hpp), or a
// trace with no GenAI span at all ("trace.json: no GenAI spans (...)").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "replay/attempt_record.hpp"

namespace squall::replay {

// A trace file's name (for messages) and content.
struct TraceText {
  std::string file;
  std::string text;
};

// Several files read as one trace (a collector's rotated files, one export per process):
// duplicates and parents are found across them, in the order given. Appends to `out`.
void read_otlp_texts(const std::vector<TraceText>& files, TraceData& out);
// One file: `text` is the content of the file called `file` (named in messages).
void read_otlp_text(std::string_view text, const std::string& file, TraceData& out);

}  // namespace squall::replay
