// One OTLP/JSON span as replay reads it: its ids, times and status checked and decoded, its
// attributes (OTLP KeyValue list of AnyValue) left as JSON to be read by name. Errors name
// the file, the line (collector file form) or the document, the span's index in the file and
// its JSON Pointer, the field, what was expected and what was found:
//   trace.json: span 3 (/resourceSpans/0/scopeSpans/0/spans/3): startTimeUnixNano: expected
//   an integer count of nanoseconds (a decimal string or a number), got "soon"
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace squall::replay {

using Json = nlohmann::json;

// Where a span is, for messages.
struct SpanWhere {
  std::string file;
  std::size_t line = 0;   // 1-based in the collector file form; 0 for a single document
  std::size_t index = 0;  // 0-based among the file's spans
  std::string pointer;    // "/resourceSpans/0/scopeSpans/0/spans/3"

  std::string prefix() const;      // "trace.json: span 3 (/resourceSpans/...)"
  std::string short_form() const;  // "trace.json span 3", "traces.jsonl:4 span 3"
};

struct OtlpSpan {
  SpanWhere where;
  std::string trace_id;   // 32 lower-case hex digits
  std::string span_id;    // 16 lower-case hex digits
  std::string parent_id;  // 16 hex digits, or empty
  std::string name;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  bool status_error = false;         // Status.code 2 (STATUS_CODE_ERROR)
  const Json* attributes = nullptr;  // the span's "attributes" array; null when absent
  // Written by squall's own export (resource service.name "squall"), which records every
  // resend: an attempt span without http.request.resend_count is a first attempt.
  bool from_squall = false;
};

// Reads `span` (an object) at `where`; throws TraceInputError naming the field.
OtlpSpan decode_span(const Json& span, SpanWhere where);

// The value of attribute `key`, or null. The AnyValue's one member is returned as it is.
const Json* find_attribute(const OtlpSpan& span, std::string_view key);

// Typed readers over an attribute; absent gives nullopt, a value of the wrong type throws
// TraceInputError naming the attribute. Integers may be intValue (string or number), or a
// stringValue of decimal digits (some exporters write token counts so).
std::optional<std::string> string_attribute(const OtlpSpan& span, std::string_view key);
std::optional<std::int64_t> integer_attribute(const OtlpSpan& span, std::string_view key);
std::optional<double> number_attribute(const OtlpSpan& span, std::string_view key);
// A string array (arrayValue of stringValue), or a lone string as a one-element list.
std::optional<std::vector<std::string>> strings_attribute(const OtlpSpan& span, std::string_view key);

// A short rendering of a JSON value for messages: strings quoted, cut at 40 bytes.
std::string shown(const Json& value);

}  // namespace squall::replay
