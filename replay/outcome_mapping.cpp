#include "replay/outcome_mapping.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace squall::replay {
namespace {

// Exception classes of the OpenAI SDKs (openai-python, openai-node) and LiteLLM's exception
// mapping, and the spellings of a timeout that instrumentations write, to their kinds.
constexpr std::array<std::pair<std::string_view, OutcomeKind>, 23> kErrorTypes{{
    {"RateLimitError", OutcomeKind::rate_limited},
    {"APITimeoutError", OutcomeKind::timeout},
    {"APIConnectionTimeoutError", OutcomeKind::timeout},  // openai-node, @anthropic-ai/sdk
    {"TimeoutError", OutcomeKind::timeout},
    {"Timeout", OutcomeKind::timeout},
    {"ReadTimeout", OutcomeKind::timeout},
    {"timeout", OutcomeKind::timeout},
    {"DeadlineExceeded", OutcomeKind::timeout},
    {"InternalServerError", OutcomeKind::server_error},
    {"ServiceUnavailableError", OutcomeKind::overloaded},
    {"OverloadedError", OutcomeKind::overloaded},
    {"AuthenticationError", OutcomeKind::auth_error},
    {"PermissionDeniedError", OutcomeKind::auth_error},
    {"BadRequestError", OutcomeKind::bad_request},
    {"UnprocessableEntityError", OutcomeKind::bad_request},
    {"NotFoundError", OutcomeKind::bad_request},
    {"ContextWindowExceededError", OutcomeKind::context_length},
    {"ContentPolicyViolationError", OutcomeKind::content_filter},
    {"APIConnectionError", OutcomeKind::server_error},
    {"APIError", OutcomeKind::server_error},
    {"AbortError", OutcomeKind::cancelled},
    {"CancelledError", OutcomeKind::cancelled},
    {"APIUserAbortError", OutcomeKind::cancelled},
}};

// "openai.RateLimitError", "litellm.exceptions.RateLimitError": the class is the last part.
std::string_view class_name(std::string_view type) {
  const std::size_t dot = type.rfind('.');
  return dot == std::string_view::npos ? type : type.substr(dot + 1);
}

std::optional<OutcomeKind> kind_of_error_type(std::string_view type) {
  int status = 0;
  const auto [end, ec] = std::from_chars(type.data(), type.data() + type.size(), status);
  if (ec == std::errc() && end == type.data() + type.size()) return kind_of_status(status);
  const std::string_view name = class_name(type);
  for (const auto& [known, kind] : kErrorTypes) {
    if (name == known) return kind;
  }
  return std::nullopt;
}

bool has(const std::vector<std::string>& reasons, std::string_view reason) {
  return std::find(reasons.begin(), reasons.end(), reason) != reasons.end();
}

}  // namespace

std::optional<OutcomeKind> kind_of_status(int s) {
  if (s < 400) return std::nullopt;
  if (s == 429) return OutcomeKind::rate_limited;
  if (s == 503 || s == 529) return OutcomeKind::overloaded;
  if (s >= 500) return OutcomeKind::server_error;
  if (s == 401 || s == 403) return OutcomeKind::auth_error;
  if (s == 408) return OutcomeKind::timeout;
  return OutcomeKind::bad_request;
}

MappedOutcome map_outcome(const OutcomeEvidence& e) {
  if (!e.error_type.empty()) {
    if (const auto kind = parse_outcome_kind(e.error_type)) return {*kind, false};
    // OpenAI's error code for a spent quota, on a 429 that the status alone reads as a rate limit.
    if (class_name(e.error_type) == "insufficient_quota") return {OutcomeKind::quota_exhausted, false};
  }
  if (const auto kind = kind_of_status(e.status_code)) return {*kind, false};
  if (!e.error_type.empty()) {
    if (const auto kind = kind_of_error_type(e.error_type)) return {*kind, false};
  }
  if (has(e.finish_reasons, "error")) return {OutcomeKind::server_error, false};
  if (has(e.finish_reasons, "length")) return {OutcomeKind::truncated, false};
  if (has(e.finish_reasons, "content_filter")) return {OutcomeKind::content_filter, false};
  if (!e.error_type.empty() || e.span_error) return {OutcomeKind::server_error, true};
  if (e.chat && e.output_tokens && *e.output_tokens == 0) return {OutcomeKind::empty, false};
  return {OutcomeKind::success, false};
}

}  // namespace squall::replay
