#include "engine/classify.hpp"

#include <array>
#include <span>

#include <boost/algorithm/string/find.hpp>

namespace squall {
namespace {

// How the common providers word a prompt too long for the model, when their error code
// does not say it (LiteLLM's exception mapping matches the same phrases):
//   OpenAI, Azure OpenAI   "This model's maximum context length is 128000 tokens. ..."
//   Anthropic              "prompt is too long: 208310 tokens > 200000 maximum"
//   Google Gemini          "The input token count (1050000) exceeds the maximum number of
//                           tokens allowed (1048576)."
//   AWS Bedrock            "Input is too long for requested model."
//   Mistral, vLLM          "... is too large for model with 32768 maximum context length"
constexpr std::array<std::string_view, 5> kContextLengthWordings{"maximum context length", "prompt is too long",
                                                                 "exceeds the maximum number of tokens",
                                                                 "input is too long", "context length exceeded"};
// Refusals by a safety filter: OpenAI's and Azure's codes, and their wordings.
constexpr std::array<std::string_view, 2> kContentFilterWordings{"content management policy", "safety system"};
// Anthropic's spent prepaid credit, a 400 invalid_request_error: "Your credit balance is
// too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase
// credits."
constexpr std::array<std::string_view, 1> kQuotaWordings{"credit balance is too low"};

bool mentions(std::string_view message, std::span<const std::string_view> phrases) {
  for (const std::string_view phrase : phrases) {
    if (!boost::algorithm::ifind_first(message, phrase).empty()) return true;
  }
  return false;
}

OutcomeKind from_error_code(std::string_view code, OutcomeKind otherwise) {
  if (code == "context_length_exceeded") return OutcomeKind::context_length;
  if (code == "content_filter" || code == "content_policy_violation") return OutcomeKind::content_filter;
  if (code == "rate_limit_exceeded") return OutcomeKind::rate_limited;
  if (code == "overloaded_error") return OutcomeKind::overloaded;
  if (code == "invalid_output") return OutcomeKind::invalid_output;
  if (code == "insufficient_quota") return OutcomeKind::quota_exhausted;
  return otherwise;
}

}  // namespace

OutcomeKind classify(const Response& response) {
  if (response.transport == Transport::timeout) return OutcomeKind::timeout;
  if (response.transport == Transport::cancelled) return OutcomeKind::cancelled;
  const int s = response.status;
  const ErrorDetails& details = response.details();
  if (s >= 200 && s < 300) {
    if (!details.error_code.empty()) return from_error_code(details.error_code, OutcomeKind::server_error);
    bool empty = false;
    switch (response.body) {
      case Body::search_results: empty = response.results().empty(); break;
      case Body::completion: empty = response.output_tokens == 0; break;
      case Body::tool_result: empty = response.tool_result().empty(); break;
    }
    if (empty) return OutcomeKind::empty;
    return OutcomeKind::success;
  }
  if (s == 429) {
    return details.error_code == "insufficient_quota" ? OutcomeKind::quota_exhausted : OutcomeKind::rate_limited;
  }
  if (s == 503 || s == 529) return OutcomeKind::overloaded;
  if (s >= 500) return OutcomeKind::server_error;
  if (s == 401 || s == 403) return OutcomeKind::auth_error;
  if (s == 408) return OutcomeKind::timeout;
  if (s == 400 || s == 413 || s == 422) {
    const OutcomeKind by_code = from_error_code(details.error_code, OutcomeKind::bad_request);
    if (by_code != OutcomeKind::bad_request) return by_code;
    if (mentions(details.error_message, kContextLengthWordings)) return OutcomeKind::context_length;
    if (mentions(details.error_message, kContentFilterWordings)) return OutcomeKind::content_filter;
    if (mentions(details.error_message, kQuotaWordings)) return OutcomeKind::quota_exhausted;
    return OutcomeKind::bad_request;
  }
  return OutcomeKind::bad_request;
}

}  // namespace squall
