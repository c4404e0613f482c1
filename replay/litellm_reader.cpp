#include "replay/litellm_reader.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "replay/otlp_span.hpp"
#include "replay/outcome_mapping.hpp"
#include "replay/text_lines.hpp"

namespace squall::replay {
namespace {

// The StandardLoggingPayload's fields (LiteLLM docs, proxy/logging_spec.md): those not read
// are known, not counted as unknown.
constexpr std::array<std::string_view, 39> kPayloadFields{"id",
                                                          "trace_id",
                                                          "call_type",
                                                          "response_cost",
                                                          "response_cost_failure_debug_info",
                                                          "status",
                                                          "total_tokens",
                                                          "prompt_tokens",
                                                          "completion_tokens",
                                                          "startTime",
                                                          "endTime",
                                                          "completionStartTime",
                                                          "response_time",
                                                          "model_map_information",
                                                          "model",
                                                          "model_id",
                                                          "model_group",
                                                          "api_base",
                                                          "metadata",
                                                          "cache_hit",
                                                          "cache_key",
                                                          "saved_cache_cost",
                                                          "request_tags",
                                                          "end_user",
                                                          "requester_ip_address",
                                                          "messages",
                                                          "response",
                                                          "error_str",
                                                          "error_information",
                                                          "model_parameters",
                                                          "hidden_params",
                                                          "custom_llm_provider",
                                                          "cost_breakdown",
                                                          "status_fields",
                                                          "stream",
                                                          "guardrail_information",
                                                          "standard_built_in_tools_params",
                                                          "litellm_call_id",
                                                          "user"};

// Below 9.2e9 s (year 2262) nanoseconds since the epoch fit int64; 9e9 is year 2255, and a
// time in milliseconds or nanoseconds (1.7e12, 1.7e18 today) is far above: a unit mistake.
constexpr double kMaxUnixSeconds = 9e9;

struct Line {
  const std::string& file;
  std::size_t number = 0;
  const Json& record;
};

[[noreturn]] void fail(const Line& at, std::string_view field, std::string_view expected, const Json* got) {
  throw TraceInputError(fmt::format("{}:{}: {}: expected {}, got {}", at.file, at.number, field, expected,
                                    got ? shown(*got) : "nothing"));
}

const Json* member(const Line& at, const char* key) {
  const auto it = at.record.find(key);
  return it == at.record.end() || it->is_null() ? nullptr : &*it;
}

std::optional<std::string> text(const Line& at, const char* key, bool required = false) {
  const Json* v = member(at, key);
  if (v == nullptr && !required) return std::nullopt;
  if (v == nullptr || !v->is_string()) fail(at, key, "a string", v);
  return v->get<std::string>();
}

std::optional<std::int64_t> unix_ns(const Line& at, const char* key, bool required) {
  const Json* v = member(at, key);
  if (v == nullptr && !required) return std::nullopt;
  if (v == nullptr || !v->is_number() || !(v->get<double>() >= 0 && v->get<double>() < kMaxUnixSeconds)) {
    fail(at, key, "Unix seconds (a number)", v);
  }
  // Whole seconds and the fraction apart: 1.7e18 ns is beyond a double's exact integers.
  const double seconds = v->get<double>();
  const double whole = std::floor(seconds);
  return static_cast<std::int64_t>(whole) * 1'000'000'000 + std::llround((seconds - whole) * 1e9);
}

std::optional<std::int64_t> count(const Line& at, const char* key) {
  const Json* v = member(at, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number_integer() || v->get<std::int64_t>() < 0) fail(at, key, "a non-negative integer", v);
  return v->get<std::int64_t>();
}

std::string operation_of(const std::string& call_type) {
  if (call_type.find("embedding") != std::string::npos) return "embeddings";
  if (call_type.find("text_completion") != std::string::npos) return "text_completion";
  if (call_type.find("completion") != std::string::npos || call_type.find("responses") != std::string::npos) {
    return "chat";
  }
  return call_type;
}

std::string host_of(std::string url) {
  if (const std::size_t scheme = url.find("://"); scheme != std::string::npos) url = url.substr(scheme + 3);
  return url.substr(0, url.find_first_of(":/"));
}

// error_information: {error_code, error_class, llm_provider}, each optional.
void read_error(const Line& at, AttemptRecord& r, std::string& error_class) {
  const Json* info = member(at, "error_information");
  if (info == nullptr) return;
  if (!info->is_object()) fail(at, "error_information", "an object", info);
  if (const auto code = info->find("error_code"); code != info->end() && !code->is_null()) {
    if (code->is_number_integer()) {
      r.status_code = static_cast<int>(std::clamp<std::int64_t>(code->get<std::int64_t>(), 0, 999));
    } else if (code->is_string()) {
      const std::string& s = code->get_ref<const std::string&>();
      if (s.size() == 3 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        r.status_code = std::stoi(s);
      }
    } else {
      fail(at, "error_information.error_code", "a status code", &*code);
    }
  }
  if (const auto cls = info->find("error_class"); cls != info->end() && cls->is_string()) error_class = *cls;
  if (const auto p = info->find("llm_provider"); p != info->end() && p->is_string() && r.provider.empty()) {
    r.provider = *p;
  }
}

AttemptRecord record_of(const Line& at, ReadCounts& counts) {
  AttemptRecord r;
  r.where = fmt::format("{}:{}", at.file, at.number);
  r.trace_id = *text(at, "trace_id", true);
  r.span_id = text(at, "id").value_or("");
  const std::string status = *text(at, "status", true);
  if (status != "success" && status != "failure")
    fail(at, "status", "\"success\" or \"failure\"", member(at, "status"));
  r.start_ns = *unix_ns(at, "startTime", true);
  r.end_ns = *unix_ns(at, "endTime", true);
  if (r.end_ns < r.start_ns) {
    ++counts.end_before_start;
    r.end_ns = r.start_ns;
  }
  r.first_token_ns = unix_ns(at, "completionStartTime", false);
  r.operation = operation_of(text(at, "call_type").value_or("completion"));
  r.provider = text(at, "custom_llm_provider").value_or("");
  r.request_model = text(at, "model").value_or("");
  r.model_group = text(at, "model_group").value_or("");
  r.server_address = host_of(text(at, "api_base").value_or(""));
  r.input_tokens = count(at, "prompt_tokens");
  r.output_tokens = count(at, "completion_tokens");
  if (const Json* cost = member(at, "response_cost")) {
    if (!cost->is_number()) fail(at, "response_cost", "a number of USD", cost);
    r.cost_usd = cost->get<double>();
  }
  std::string error_class;
  read_error(at, r, error_class);
  const MappedOutcome outcome = map_outcome(
      OutcomeEvidence{error_class, r.status_code, {}, status == "failure", r.operation == "chat", r.output_tokens});
  r.outcome = outcome.kind;
  if (outcome.unclassified) ++counts.unclassified_errors;
  const bool no_tokens = r.input_tokens.value_or(0) == 0 && r.output_tokens.value_or(0) == 0;
  if (r.outcome != OutcomeKind::success && no_tokens) ++counts.failures_without_tokens;
  for (const auto& item : at.record.items()) {
    if (std::find(kPayloadFields.begin(), kPayloadFields.end(), item.key()) == kPayloadFields.end()) {
      counts.saw_unknown(item.key());
    }
  }
  return r;
}

}  // namespace

void read_litellm_text(std::string_view text, const std::string& file, TraceData& out) {
  std::unordered_set<std::string> ids;
  for_each_nonblank_line(text, [&](std::size_t number, std::string_view row) {
    const Json record = parse_json_text(row, file, number);
    if (!record.is_object()) {
      throw TraceInputError(fmt::format("{}:{}: expected an object, got {}", file, number, shown(record)));
    }
    ++out.counts.records;
    AttemptRecord r = record_of(Line{file, number, record}, out.counts);
    if (!r.span_id.empty() && !ids.insert(r.span_id).second) {
      ++out.counts.duplicates;
      return;
    }
    out.attempts.push_back(std::move(r));
    ++out.counts.attempts;
  });
  if (out.counts.attempts == 0) throw TraceInputError(fmt::format("{}: no records (an empty log)", file));
}

}  // namespace squall::replay
