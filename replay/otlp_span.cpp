#include "replay/otlp_span.hpp"

#include <fmt/core.h>

#include <charconv>

#include "replay/attempt_record.hpp"

namespace squall::replay {
namespace {

constexpr std::size_t kShownBytes = 40;

[[noreturn]] void fail(const SpanWhere& where, std::string_view field, std::string_view expected,
                       std::string_view got) {
  throw TraceInputError(fmt::format("{}: {}: expected {}, got {}", where.prefix(), field, expected, got));
}
[[noreturn]] void fail(const SpanWhere& where, std::string_view field, std::string_view expected, const Json& got) {
  fail(where, field, expected, std::string_view(shown(got)));
}

bool is_hex(std::string_view s, std::size_t digits) {
  if (s.size() != digits) return false;
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  }
  return true;
}

std::string lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

std::string hex_id(const Json& span, const SpanWhere& where, const char* field, std::size_t digits, bool required) {
  const auto it = span.find(field);
  if (it == span.end() || (!required && it->is_string() && it->get_ref<const std::string&>().empty())) {
    if (required) fail(where, field, fmt::format("{} hex digits", digits), std::string_view("nothing"));
    return {};
  }
  if (!it->is_string() || !is_hex(it->get_ref<const std::string&>(), digits)) {
    fail(where, field, fmt::format("{} hex digits", digits), *it);
  }
  return lower(it->get<std::string>());
}

std::optional<std::int64_t> parse_integer(const Json& v) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return v.get<std::int64_t>();
  }
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  std::int64_t out = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return out;
}

std::int64_t nanos(const Json& span, const SpanWhere& where, const char* field) {
  const auto it = span.find(field);
  constexpr std::string_view kExpected = "an integer count of nanoseconds (a decimal string or a number)";
  if (it == span.end()) fail(where, field, kExpected, std::string_view("nothing"));
  const std::optional<std::int64_t> v = parse_integer(*it);
  if (!v || *v < 0) fail(where, field, kExpected, *it);
  return *v;
}

std::string attribute_field(std::string_view key) { return fmt::format("attribute \"{}\"", key); }

}  // namespace

std::string shown(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > kShownBytes) text = text.substr(0, kShownBytes) + "...";
  return text;
}

std::string SpanWhere::prefix() const {
  if (line == 0) return fmt::format("{}: span {} ({})", file, index, pointer);
  return fmt::format("{}:{}: span {} ({})", file, line, index, pointer);
}

std::string SpanWhere::short_form() const {
  if (line == 0) return fmt::format("{} span {}", file, index);
  return fmt::format("{}:{} span {}", file, line, index);
}

OtlpSpan decode_span(const Json& span, SpanWhere where) {
  if (!span.is_object()) fail(where, "span", "an object", span);
  OtlpSpan s;
  s.trace_id = hex_id(span, where, "traceId", 32, true);
  s.span_id = hex_id(span, where, "spanId", 16, true);
  s.parent_id = hex_id(span, where, "parentSpanId", 16, false);
  if (const auto it = span.find("name"); it != span.end()) {
    if (!it->is_string()) fail(where, "name", "a string", *it);
    s.name = it->get<std::string>();
  }
  s.start_ns = nanos(span, where, "startTimeUnixNano");
  s.end_ns = nanos(span, where, "endTimeUnixNano");
  if (const auto it = span.find("status"); it != span.end()) {
    if (!it->is_object()) fail(where, "status", "an object", *it);
    if (const auto code = it->find("code"); code != it->end()) {
      // Enums are integers in OTLP/JSON; the proto enum names are accepted as well.
      const bool error = (code->is_number_integer() && code->get<std::int64_t>() == 2) ||
                         (code->is_string() && code->get_ref<const std::string&>() == "STATUS_CODE_ERROR");
      const bool other = code->is_number_integer() || code->is_string();
      if (!other) fail(where, "status.code", "0, 1 or 2", *code);
      s.status_error = error;
    }
  }
  if (const auto it = span.find("attributes"); it != span.end()) {
    if (!it->is_array()) fail(where, "attributes", "an array of {\"key\", \"value\"} objects", *it);
    for (const Json& kv : *it) {
      if (!kv.is_object() || !kv.contains("key") || !kv["key"].is_string() || !kv.contains("value") ||
          !kv["value"].is_object()) {
        fail(where, "attributes", "an array of {\"key\", \"value\"} objects", kv);
      }
    }
    s.attributes = &*it;
  }
  s.where = std::move(where);
  return s;
}

const Json* find_attribute(const OtlpSpan& span, std::string_view key) {
  if (span.attributes == nullptr) return nullptr;
  for (const Json& kv : *span.attributes) {
    if (kv["key"].get_ref<const std::string&>() != key) continue;
    const Json& value = kv["value"];
    if (value.empty()) return nullptr;  // an AnyValue with no member: no value
    return &value.begin().value();
  }
  return nullptr;
}

std::optional<std::string> string_attribute(const OtlpSpan& span, std::string_view key) {
  const Json* v = find_attribute(span, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) fail(span.where, attribute_field(key), "a stringValue", *v);
  return v->get<std::string>();
}

std::optional<std::int64_t> integer_attribute(const OtlpSpan& span, std::string_view key) {
  const Json* v = find_attribute(span, key);
  if (v == nullptr) return std::nullopt;
  const std::optional<std::int64_t> n = parse_integer(*v);
  if (!n || *n < 0) fail(span.where, attribute_field(key), "a non-negative intValue", *v);
  return n;
}

std::optional<double> number_attribute(const OtlpSpan& span, std::string_view key) {
  const Json* v = find_attribute(span, key);
  if (v == nullptr) return std::nullopt;
  if (v->is_number()) return v->get<double>();
  if (const auto n = parse_integer(*v)) return static_cast<double>(*n);
  fail(span.where, attribute_field(key), "a doubleValue", *v);
}

std::optional<std::vector<std::string>> strings_attribute(const OtlpSpan& span, std::string_view key) {
  const Json* v = find_attribute(span, key);
  if (v == nullptr) return std::nullopt;
  if (v->is_string()) return std::vector<std::string>{v->get<std::string>()};
  constexpr std::string_view kExpected = "an arrayValue of stringValues";
  if (!v->is_object() || !v->contains("values") || !(*v)["values"].is_array()) {
    fail(span.where, attribute_field(key), kExpected, *v);
  }
  std::vector<std::string> out;
  for (const Json& item : (*v)["values"]) {
    if (!item.is_object() || !item.contains("stringValue") || !item["stringValue"].is_string()) {
      fail(span.where, attribute_field(key), kExpected, *v);
    }
    out.push_back(item["stringValue"].get<std::string>());
  }
  return out;
}

}  // namespace squall::replay
