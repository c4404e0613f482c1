#include "engine/classify.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "test_runtime.hpp"

namespace squall {
namespace {

// `details` kept for the test program, as a provider keeps the details it sends; their
// views must outlive it (literals).
const ErrorDetails* kept(const ErrorDetails& details) {
  static ErrorDetailsStore store;
  return store.keep(details);
}

Response with_status(int status, std::string_view error_code = {}) {
  Response r;
  r.status = status;
  r.error_details = kept({.error_code = error_code});
  return r;
}

Response search_hits(int n) {
  Response r;
  r.set_results(
      test::kept_hits(std::vector<SearchResult>(static_cast<std::size_t>(n), SearchResult{"t", "l", "s", 1})));
  return r;
}

Response completion(std::int64_t output_tokens, bool truncated = false) {
  Response r;
  r.body = Body::completion;
  r.output_tokens = output_tokens;
  r.truncated = truncated;
  return r;
}

TEST(ClassifyTest, TransportTimeoutWinsOverStatus) {
  Response r = search_hits(3);
  r.transport = Transport::timeout;
  EXPECT_EQ(classify(r), OutcomeKind::timeout);
}

TEST(ClassifyTest, TransportCancelledIsCancelledWhateverTheBody) {
  // A cancelled LLM call carries the usage it billed; that must not make it a success.
  Response r = completion(50);
  r.transport = Transport::cancelled;
  r.status = 0;
  EXPECT_EQ(classify(r), OutcomeKind::cancelled);
  Response hits = search_hits(2);
  hits.transport = Transport::cancelled;
  EXPECT_EQ(classify(hits), OutcomeKind::cancelled);
}

TEST(ClassifyTest, SuccessfulBodies) {
  EXPECT_EQ(classify(search_hits(1)), OutcomeKind::success);
  EXPECT_EQ(classify(completion(42)), OutcomeKind::success);
  Response accepted = search_hits(1);
  accepted.status = 204;  // any 2xx is classified by its body
  EXPECT_EQ(classify(accepted), OutcomeKind::success);
}

TEST(ClassifyTest, EmptyBodies) {
  EXPECT_EQ(classify(search_hits(0)), OutcomeKind::empty);
  EXPECT_EQ(classify(completion(0)), OutcomeKind::empty);
}

TEST(ClassifyTest, ATruncatedCompletionIsAnAcceptedSuccess) {
  // finish_reason "length": the answer is used, as most applications use it; only a
  // validate check makes it the failure `truncated`.
  EXPECT_EQ(classify(completion(400, true)), OutcomeKind::success);
}

TEST(ClassifyTest, A200WithAnErrorBodyIsClassifiedByTheBody) {
  const std::pair<const char*, OutcomeKind> cases[] = {
      {"context_length_exceeded", OutcomeKind::context_length},
      {"content_filter", OutcomeKind::content_filter},
      {"rate_limit_exceeded", OutcomeKind::rate_limited},
      {"overloaded_error", OutcomeKind::overloaded},
      {"invalid_output", OutcomeKind::invalid_output},
      {"something_else", OutcomeKind::server_error},  // an unknown body error is the server's
  };
  for (const auto& [code, kind] : cases) {
    Response r = search_hits(2);  // the error code wins over the hits
    r.error_details = kept({.error_code = code});
    EXPECT_EQ(classify(r), kind) << code;
  }
}

TEST(ClassifyTest, ErrorStatuses) {
  const std::pair<int, OutcomeKind> cases[] = {
      {429, OutcomeKind::rate_limited}, {503, OutcomeKind::overloaded},   {529, OutcomeKind::overloaded},
      {500, OutcomeKind::server_error}, {502, OutcomeKind::server_error}, {504, OutcomeKind::server_error},
      {401, OutcomeKind::auth_error},   {403, OutcomeKind::auth_error},   {408, OutcomeKind::timeout},
      {400, OutcomeKind::bad_request},  {413, OutcomeKind::bad_request},  {422, OutcomeKind::bad_request},
      {404, OutcomeKind::bad_request},
  };
  for (const auto& [status, kind] : cases) EXPECT_EQ(classify(with_status(status)), kind) << status;
}

TEST(ClassifyTest, A400IsRefinedByItsErrorCode) {
  EXPECT_EQ(classify(with_status(400, "context_length_exceeded")), OutcomeKind::context_length);
  EXPECT_EQ(classify(with_status(400, "content_filter")), OutcomeKind::content_filter);
  EXPECT_EQ(classify(with_status(413, "context_length_exceeded")), OutcomeKind::context_length);
  EXPECT_EQ(classify(with_status(400, "invalid_request_error")), OutcomeKind::bad_request);
}

TEST(OutcomeTest, NamesRoundTrip) {
  for (OutcomeKind kind : all_outcome_kinds()) EXPECT_EQ(parse_outcome_kind(to_string(kind)), kind);
  EXPECT_EQ(parse_outcome_kind("Success"), std::nullopt);
  EXPECT_EQ(to_string(OutcomeKind::rate_limited), "rate_limited");
}

// The views must outlive the response (literals).
Response bad_request_saying(std::string_view code, std::string_view message) {
  Response r = with_status(400);
  r.error_details = kept({.error_code = code, .error_message = message});
  return r;
}

TEST(ClassifyTest, CommonProvidersWordingsOfATooLongPromptAreContextLength) {
  EXPECT_EQ(classify(bad_request_saying("invalid_request_error", "prompt is too long: 208310 tokens > 200000 maximum")),
            OutcomeKind::context_length);  // Anthropic
  EXPECT_EQ(classify(bad_request_saying("",
                                        "This model's maximum context length is 128000 tokens. However, your "
                                        "messages resulted in 130000 tokens.")),
            OutcomeKind::context_length);  // OpenAI without its code
  EXPECT_EQ(classify(bad_request_saying("INVALID_ARGUMENT",
                                        "The input token count (1050000) exceeds the maximum "
                                        "number of tokens allowed (1048576).")),
            OutcomeKind::context_length);  // Gemini
  EXPECT_EQ(classify(bad_request_saying("ValidationException", "Input is too long for requested model.")),
            OutcomeKind::context_length);  // Bedrock
}

TEST(ClassifyTest, ContentPolicyRefusalsAreContentFilter) {
  EXPECT_EQ(classify(with_status(400, "content_policy_violation")), OutcomeKind::content_filter);
  EXPECT_EQ(classify(bad_request_saying("",
                                        "The response was filtered due to the prompt triggering Azure OpenAI's "
                                        "content management policy.")),
            OutcomeKind::content_filter);
}

TEST(ClassifyTest, ASpentQuotaIsNotARateLimit) {
  // OpenAI: a 429 whose code is insufficient_quota; its other 429s stay rate_limited.
  EXPECT_EQ(classify(with_status(429, "insufficient_quota")), OutcomeKind::quota_exhausted);
  EXPECT_EQ(classify(with_status(429, "rate_limit_exceeded")), OutcomeKind::rate_limited);
  EXPECT_EQ(classify(with_status(429)), OutcomeKind::rate_limited);
  // The code in a 200's body (a gateway's masked error) says the same.
  Response masked = search_hits(1);
  masked.error_details = kept({.error_code = "insufficient_quota"});
  EXPECT_EQ(classify(masked), OutcomeKind::quota_exhausted);
  // Anthropic: spent prepaid credit is a 400 invalid_request_error, told by its wording.
  EXPECT_EQ(classify(bad_request_saying("invalid_request_error",
                                        "Your credit balance is too low to access the Anthropic API. Please go to "
                                        "Plans & Billing to upgrade or purchase credits.")),
            OutcomeKind::quota_exhausted);
  // Not retried by default: waiting seconds does not refill a quota.
  EXPECT_EQ(retry_class(OutcomeKind::quota_exhausted), RetryClass::permanent);
}

TEST(ClassifyTest, OtherBadRequestsStayBadRequest) {
  EXPECT_EQ(classify(bad_request_saying("invalid_request_error", "messages: field required")),
            OutcomeKind::bad_request);
  EXPECT_EQ(classify(with_status(401)), OutcomeKind::auth_error);
  EXPECT_EQ(retry_class(OutcomeKind::context_length), RetryClass::permanent);
  EXPECT_EQ(retry_class(OutcomeKind::bad_request), RetryClass::permanent);
  EXPECT_EQ(retry_class(OutcomeKind::auth_error), RetryClass::permanent);
}

}  // namespace
}  // namespace squall
