#include "engine/classify.hpp"

namespace squall {
namespace {

OutcomeKind from_error_code(std::string_view code, OutcomeKind otherwise) {
  if (code == "context_length_exceeded") return OutcomeKind::context_length;
  if (code == "content_filter") return OutcomeKind::content_filter;
  if (code == "rate_limit_exceeded") return OutcomeKind::rate_limited;
  if (code == "overloaded_error") return OutcomeKind::overloaded;
  if (code == "invalid_output") return OutcomeKind::invalid_output;
  return otherwise;
}

}  // namespace

OutcomeKind classify(const Response& response) {
  if (response.transport == Transport::timeout) return OutcomeKind::timeout;
  if (response.transport == Transport::cancelled) return OutcomeKind::cancelled;
  const int s = response.status;
  if (s >= 200 && s < 300) {
    if (!response.error_code.empty()) return from_error_code(response.error_code, OutcomeKind::server_error);
    if (response.truncated) return OutcomeKind::invalid_output;
    bool empty = false;
    switch (response.body) {
      case Body::search_results: empty = response.results.empty(); break;
      case Body::completion: empty = response.output_tokens == 0; break;
      case Body::tool_result: empty = response.tool_result.empty(); break;
    }
    if (empty) return OutcomeKind::empty;
    return OutcomeKind::success;
  }
  if (s == 429) return OutcomeKind::rate_limited;
  if (s == 503 || s == 529) return OutcomeKind::overloaded;
  if (s >= 500) return OutcomeKind::server_error;
  if (s == 401 || s == 403) return OutcomeKind::auth_error;
  if (s == 408) return OutcomeKind::timeout;
  if (s == 400 || s == 413 || s == 422) return from_error_code(response.error_code, OutcomeKind::bad_request);
  return OutcomeKind::bad_request;
}

}  // namespace squall
