#include "replay/otlp_attempt.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "engine/retry_after.hpp"
#include "replay/outcome_mapping.hpp"
#include "reports/writers/otlp_attributes.hpp"

namespace squall::replay {
namespace {

namespace a = otlp;

// The client operations a span may be an attempt of (gen_ai.operation.name values).
constexpr std::array<std::string_view, 6> kAttemptOperations{"chat",       "text_completion", "generate_content",
                                                             "embeddings", "retrieval",       "execute_tool"};
// The span name of the GenAI inference span in the conventions' newer drafts: no model in it.
constexpr std::string_view kInferenceSpanName = "gen_ai.client.inference";
// An HTTP client span's method, in the HTTP conventions' stable and older names.
constexpr std::string_view kHttpRequestMethod = "http.request.method";
constexpr std::string_view kOldHttpMethod = "http.method";
// The Retry-After headers as Python's instrumentations name them (dashes made underscores).
constexpr std::string_view kRetryAfterMsUnderscored = "http.response.header.retry_after_ms";
constexpr std::string_view kRetryAfterUnderscored = "http.response.header.retry_after";
// Where it went: the stable names, and the older ones.
constexpr std::string_view kUrlFull = "url.full";
constexpr std::string_view kUrlPath = "url.path";
constexpr std::string_view kOldHttpUrl = "http.url";
constexpr std::string_view kOldPeerName = "net.peer.name";

// Every attribute replay reads; others on a GenAI span are counted as unknown.
constexpr std::array<std::string_view, 31> kKnownAttributes{a::kOperationName,
                                                            a::kProviderName,
                                                            a::kRequestModel,
                                                            a::kResponseModel,
                                                            a::kInputTokens,
                                                            a::kOutputTokens,
                                                            a::kFinishReasons,
                                                            a::kAgentName,
                                                            a::kToolName,
                                                            a::kDataSourceId,
                                                            a::kCacheReadTokens,
                                                            a::kCacheReadTokensUnderscore,
                                                            a::kCachedTokens,
                                                            a::kCacheCreationTokens,
                                                            a::kCacheCreationTokensUnderscore,
                                                            a::kSystem,
                                                            a::kPromptTokens,
                                                            a::kCompletionTokens,
                                                            a::kServerAddress,
                                                            a::kErrorType,
                                                            a::kStatusCode,
                                                            a::kOldStatusCode,
                                                            a::kResendCount,
                                                            a::kRetryAfterHeader,
                                                            a::kRetryAfterMsHeader,
                                                            a::kSquallTool,
                                                            a::kSquallCostUsd,
                                                            a::kSquallTaskId,
                                                            a::kSquallTaskStatus,
                                                            a::kSquallTaskReason,
                                                            "gen_ai.usage.cost"};

bool is_attempt_operation(std::string_view op) {
  return std::find(kAttemptOperations.begin(), kAttemptOperations.end(), op) != kAttemptOperations.end();
}

void count_unknown(const OtlpSpan& span, ReadCounts& counts) {
  if (span.attributes == nullptr) return;
  for (const Json& kv : *span.attributes) {
    const std::string& key = kv["key"].get_ref<const std::string&>();
    if (std::find(kKnownAttributes.begin(), kKnownAttributes.end(), key) == kKnownAttributes.end()) {
      counts.saw_unknown(key);
    }
  }
}

// The first of `keys` present.
template <class Read, std::size_t N>
auto first_of(const OtlpSpan& span, const std::array<std::string_view, N>& keys, Read read)
    -> decltype(read(span, keys[0])) {
  for (const std::string_view key : keys) {
    if (auto v = read(span, key)) return v;
  }
  return std::nullopt;
}

std::optional<std::int64_t> status_of(const OtlpSpan& span) {
  return first_of(span, std::array<std::string_view, 2>{a::kStatusCode, a::kOldStatusCode}, integer_attribute);
}

// Retry-After as the response header says it, read as the engine reads it
// (engine/retry_after.hpp): retry-after-ms (OpenAI, Azure), else delay-seconds (RFC 9110
// section 10.2.3, and the fractional seconds some APIs send). Each in both spellings the
// instrumentations write: dashes (the HTTP conventions now), and underscores (Python's
// opentelemetry-util-http, and Node's instrumentation-http under the old conventions). An
// HTTP-date cannot be read without the response's Date, and a delay too large to represent
// is no delay: both left out.
std::optional<std::int64_t> retry_after_of(const OtlpSpan& span) {
  const auto header = [&](std::string_view dashed, std::string_view underscored) -> std::optional<std::string> {
    for (const std::string_view key : {dashed, underscored}) {
      if (const auto values = strings_attribute(span, key); values && !values->empty()) return values->front();
    }
    return std::nullopt;
  };
  std::optional<Nanos> delay;
  if (const auto ms = header(a::kRetryAfterMsHeader, kRetryAfterMsUnderscored)) delay = parse_retry_after_ms(*ms);
  if (!delay) {
    if (const auto seconds = header(a::kRetryAfterHeader, kRetryAfterUnderscored)) delay = parse_retry_after(*seconds);
  }
  if (!delay || *delay == kNever) return std::nullopt;
  return *delay;
}

// The retry count the OpenAI and Anthropic SDKs send on every request
// (`x-stainless-retry-count`), when the HTTP instrumentation records request headers: a
// request's resend count where the trace has no GenAI span to bound its call.
std::optional<std::int32_t> sdk_retry_count(const OtlpSpan& span) {
  for (const std::string_view key :
       {"http.request.header.x-stainless-retry-count", "http.request.header.x_stainless_retry_count"}) {
    const auto values = strings_attribute(span, key);
    if (!values || values->empty()) continue;
    const std::string& v = values->front();
    if (v.empty() || v.size() > 4 || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    return static_cast<std::int32_t>(std::stoi(v));
  }
  return std::nullopt;
}

// A request that ended without a response (no status) and without an error.type that says
// why: the client abandoned it, as the SDKs do at their timeout (instrumentation-undici
// then records nothing, instrumentation-http an error.type "Error"). Counted.
MappedOutcome without_response(ReadCounts& counts) {
  ++counts.requests_without_response;
  return {OutcomeKind::timeout, false};
}
// Whether an outcome says nothing of a request that had no response.
bool vague(const MappedOutcome& outcome) {
  return outcome.unclassified || outcome.kind == OutcomeKind::success || outcome.kind == OutcomeKind::cancelled;
}

// An HTTP status as the record keeps it: 0 when absent, at most 999.
int status_code(std::optional<std::int64_t> status) {
  return status ? static_cast<int>(std::clamp<std::int64_t>(*status, 0, 999)) : 0;
}

// Times as recorded; an end before the start (clock skew) is set to the start and counted.
void set_times(AttemptRecord& r, std::int64_t start_ns, std::int64_t end_ns, ReadCounts& counts) {
  r.start_ns = start_ns;
  r.end_ns = end_ns;
  if (r.end_ns < r.start_ns) {
    ++counts.end_before_start;
    r.end_ns = r.start_ns;
  }
}

}  // namespace

SpanRole role_of(const OtlpSpan& span) {
  SpanRole role;
  const std::string_view name = span.name;
  const std::size_t space = name.find(' ');
  const std::string_view first_word = name.substr(0, space);
  if (const auto op = string_attribute(span, a::kOperationName)) {
    role.operation = *op;
  } else if (is_attempt_operation(first_word) || first_word == a::kInvokeAgent) {
    role.operation = std::string(first_word);
  } else if (name == kInferenceSpanName || find_attribute(span, a::kProviderName) != nullptr ||
             find_attribute(span, a::kSystem) != nullptr) {
    role.operation = std::string(a::kChat);
  }
  if (space != std::string_view::npos && first_word == role.operation)
    role.name_model = std::string(name.substr(space + 1));
  if (role.operation == a::kInvokeAgent) role.kind = SpanKindForReplay::agent;
  if (is_attempt_operation(role.operation)) role.kind = SpanKindForReplay::attempt;
  return role;
}

bool is_http_request(const OtlpSpan& span) {
  return status_of(span) || find_attribute(span, kHttpRequestMethod) != nullptr ||
         find_attribute(span, kOldHttpMethod) != nullptr;
}

namespace {

// The path of a URL ("https://api.openai.com/v1/chat/completions?x=1" -> "/v1/chat/completions").
std::string_view path_of(std::string_view url) {
  if (const std::size_t scheme = url.find("://"); scheme != std::string_view::npos) {
    url.remove_prefix(scheme + 3);
    const std::size_t slash = url.find('/');
    url = slash == std::string_view::npos ? std::string_view() : url.substr(slash);
  }
  return url.substr(0, url.find_first_of("?#"));
}

// Its host ("https://api.openai.com:443/v1/..." -> "api.openai.com").
std::string_view host_of(std::string_view url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  url.remove_prefix(scheme + 3);
  return url.substr(0, url.find_first_of(":/?#"));
}

std::string url_of(const OtlpSpan& span) {
  return string_attribute(span, kUrlFull).value_or(string_attribute(span, kOldHttpUrl).value_or(""));
}

// A request's provider: its server, from server.address, the older net.peer.name, or the URL.
std::string server_of(const OtlpSpan& span) {
  if (auto server = string_attribute(span, a::kServerAddress)) return *server;
  if (auto peer = string_attribute(span, kOldPeerName)) return *peer;
  return std::string(host_of(url_of(span)));
}

}  // namespace

// The path a request went to: url.full's, http.url's, else url.path; empty when unknown.
std::string endpoint_of(const OtlpSpan& span) {
  const std::string url = url_of(span);
  return std::string(url.empty() ? string_attribute(span, kUrlPath).value_or("") : path_of(url));
}

std::string endpoint_operation(const OtlpSpan& span) {
  const std::string endpoint = endpoint_of(span);
  const std::string_view path = endpoint;
  if (path.ends_with("/chat/completions") || path.ends_with("/messages")) return std::string(a::kChat);
  if (path.ends_with("/completions")) return "text_completion";
  if (path.ends_with("/embeddings")) return "embeddings";
  if (path.ends_with(":generateContent") || path.ends_with(":streamGenerateContent")) return "generate_content";
  return {};
}

AttemptRecord attempt_of(const OtlpSpan& s, const SpanRole& role, const OtlpSpan* http_child, ReadCounts& counts) {
  if (!role.http_only) count_unknown(s, counts);
  AttemptRecord r;
  r.trace_id = s.trace_id;
  r.span_id = s.span_id;
  r.parent_id = s.parent_id;
  r.where = s.where.short_form();
  set_times(r, s.start_ns, s.end_ns, counts);
  r.operation = role.operation;
  r.provider = role.http_only
                   ? server_of(s)
                   : string_attribute(s, a::kProviderName).value_or(string_attribute(s, a::kSystem).value_or(""));
  r.request_model = string_attribute(s, a::kRequestModel).value_or(role.name_model);
  r.response_model = string_attribute(s, a::kResponseModel).value_or("");
  r.server_address = role.http_only ? r.provider : string_attribute(s, a::kServerAddress).value_or("");
  if (r.server_address.empty() && http_child != nullptr) r.server_address = server_of(*http_child);
  if (http_child != nullptr || role.http_only) r.endpoint = endpoint_of(role.http_only ? s : *http_child);
  r.tool = string_attribute(s, a::kSquallTool).value_or(string_attribute(s, a::kToolName).value_or(""));
  r.input_tokens = first_of(s, std::array<std::string_view, 2>{a::kInputTokens, a::kPromptTokens}, integer_attribute);
  r.output_tokens =
      first_of(s, std::array<std::string_view, 2>{a::kOutputTokens, a::kCompletionTokens}, integer_attribute);
  r.cache_read_tokens =
      first_of(s, std::array<std::string_view, 3>{a::kCacheReadTokens, a::kCacheReadTokensUnderscore, a::kCachedTokens},
               integer_attribute);
  r.cache_creation_tokens =
      first_of(s, std::array<std::string_view, 2>{a::kCacheCreationTokens, a::kCacheCreationTokensUnderscore},
               integer_attribute);
  if (const auto resend = integer_attribute(s, a::kResendCount))
    r.resend_count = static_cast<std::int32_t>(std::min<std::int64_t>(*resend, INT32_MAX));
  if (!r.resend_count && s.from_squall) r.resend_count = 0;
  if (!r.resend_count && role.http_only) r.resend_count = sdk_retry_count(s);
  r.retry_after_ns = retry_after_of(s);
  if (!r.retry_after_ns && http_child != nullptr) r.retry_after_ns = retry_after_of(*http_child);
  r.cost_usd = first_of(s, std::array<std::string_view, 2>{a::kSquallCostUsd, "gen_ai.usage.cost"}, number_attribute);
  std::optional<std::int64_t> status = status_of(s);
  if (!status && http_child != nullptr) status = status_of(*http_child);
  r.status_code = status_code(status);
  const std::string error_type = string_attribute(s, a::kErrorType).value_or("");
  OutcomeEvidence evidence{error_type,
                           r.status_code,
                           strings_attribute(s, a::kFinishReasons).value_or(std::vector<std::string>{}),
                           s.status_error,
                           role.operation == a::kChat,
                           r.output_tokens};
  MappedOutcome outcome = map_outcome(evidence);
  // The SDKs raise APIConnectionError when a server drops a connection it never answered:
  // no response, as a retried request without one is read (a timeout).
  const bool dropped = error_type.ends_with("APIConnectionError");
  const bool abandoned = role.http_only ? vague(outcome) : outcome.unclassified || dropped;
  if ((http_child != nullptr || role.http_only) && !status && abandoned) outcome = without_response(counts);
  r.outcome = outcome.kind;
  if (outcome.unclassified) ++counts.unclassified_errors;
  if (r.outcome != OutcomeKind::success && role.operation == a::kChat && !r.input_tokens && !r.output_tokens) {
    ++counts.failures_without_tokens;
  }
  return r;
}

namespace {

// An HTTP request before the last one under its GenAI span: the call's identity (trace,
// parent, provider, operation, model, server, tool, key), and what the request's own span
// says of its outcome; the answer's fields (tokens, response model, cost) belong to the last.
AttemptRecord earlier_request(const AttemptRecord& call, const OtlpSpan& request, ReadCounts& counts) {
  AttemptRecord r = call;
  r.span_id = request.span_id;
  r.where = request.where.short_form();
  set_times(r, request.start_ns, request.end_ns, counts);
  r.response_model.clear();
  r.input_tokens.reset();
  r.output_tokens.reset();
  r.cache_read_tokens.reset();
  r.cache_creation_tokens.reset();
  r.cost_usd.reset();
  r.status_code = status_code(status_of(request));
  MappedOutcome outcome = map_outcome(OutcomeEvidence{string_attribute(request, a::kErrorType).value_or(""),
                                                      r.status_code,
                                                      {},
                                                      request.status_error,
                                                      false,
                                                      std::nullopt});
  // Retried without a response: the client gave up on it (a user's abort is not retried).
  if (r.status_code == 0 && vague(outcome)) outcome = without_response(counts);
  r.outcome = outcome.kind;
  if (outcome.unclassified) ++counts.unclassified_errors;
  if (r.outcome != OutcomeKind::success && r.operation == a::kChat) ++counts.failures_without_tokens;
  r.retry_after_ns = retry_after_of(request);
  r.endpoint = endpoint_of(request);
  return r;
}

}  // namespace

std::vector<AttemptRecord> attempts_of(const OtlpSpan& s, const SpanRole& role,
                                       std::span<const OtlpSpan* const> requests, ReadCounts& counts) {
  if (requests.empty()) return {attempt_of(s, role, nullptr, counts)};
  AttemptRecord last = attempt_of(s, role, requests.back(), counts);
  last.call_key = s.span_id;
  if (requests.size() == 1) return {std::move(last)};
  std::vector<AttemptRecord> out;
  for (std::size_t k = 0; k + 1 < requests.size(); ++k) {
    out.push_back(earlier_request(last, *requests[k], counts));
    // The first request keeps the span's own resend count (absent: the timing rule may
    // still join it to an earlier span, a retry by the application around its client).
    out.back().resend_count = k == 0 ? last.resend_count : static_cast<std::int32_t>(k);
  }
  out.front().start_ns = std::min(out.front().start_ns, last.start_ns);
  last.start_ns = std::max(last.start_ns, std::min(requests.back()->start_ns, last.end_ns));
  last.resend_count = static_cast<std::int32_t>(requests.size() - 1);
  if (!last.retry_after_ns) last.retry_after_ns = retry_after_of(*requests.back());
  out.push_back(std::move(last));
  return out;
}

AgentSpan agent_of(const OtlpSpan& s, ReadCounts& counts) {
  count_unknown(s, counts);
  AgentSpan agent{s.trace_id, s.span_id, string_attribute(s, a::kAgentName).value_or(s.name), s.start_ns, s.end_ns};
  if (agent.end_ns < agent.start_ns) {
    ++counts.end_before_start;
    agent.end_ns = agent.start_ns;
  }
  return agent;
}

}  // namespace squall::replay
