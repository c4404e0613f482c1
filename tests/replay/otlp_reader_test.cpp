#include "replay/otlp_reader.hpp"

#include "replay/grouping.hpp"

#include <gtest/gtest.h>

#include <fmt/core.h>

#include <string>

namespace squall::replay {
namespace {

constexpr const char* kTrace = "0af7651916cd43dd8448eb211c80319c";
constexpr const char* kRoot = "b7ad6b7169203331";

std::string kv_text(const std::string& key, const std::string& value) {
  return fmt::format(R"({{"key":"{}","value":{{"stringValue":"{}"}}}})", key, value);
}
std::string kv_int(const std::string& key, long long value) {
  return fmt::format(R"({{"key":"{}","value":{{"intValue":"{}"}}}})", key, value);
}

std::string span(const std::string& id, const std::string& parent, const std::string& name, long long start,
                 long long end, const std::string& attrs, const std::string& extra = "") {
  return fmt::format(
      R"({{"traceId":"{}","spanId":"{}","parentSpanId":"{}","name":"{}","kind":3,"startTimeUnixNano":"{}",)"
      R"("endTimeUnixNano":"{}","attributes":[{}]{}}})",
      kTrace, id, parent, name, start, end, attrs, extra);
}

std::string document(const std::string& spans) {
  return R"({"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"scope":{"name":"t"},"spans":[)" + spans +
         "]}]}]}";
}

std::string agent_span() {
  return span(kRoot, "", "invoke_agent support", 1000, 9000, kv_text("gen_ai.operation.name", "invoke_agent"));
}

TraceData read(const std::string& text) {
  TraceData data;
  read_otlp_text(text, "trace.json", data);
  return data;
}

std::string error_of(const std::string& text, const std::string& file = "trace.json") {
  TraceData data;
  try {
    read_otlp_text(text, file, data);
  } catch (const TraceInputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(OtlpReaderTest, ReadsTheCurrentConventionsNames) {
  const std::string attrs =
      kv_text("gen_ai.operation.name", "chat") + "," + kv_text("gen_ai.provider.name", "openai") + "," +
      kv_text("gen_ai.request.model", "gpt-4o") + "," + kv_text("gen_ai.response.model", "gpt-4o-2024-08-06") + "," +
      kv_text("server.address", "api.openai.com") + "," + kv_int("gen_ai.usage.input_tokens", 811) + "," +
      kv_int("gen_ai.usage.output_tokens", 92) + "," + kv_int("gen_ai.usage.cache_read.input_tokens", 640) + "," +
      kv_int("http.request.resend_count", 2) + "," +
      R"({"key":"http.response.header.retry-after","value":{"arrayValue":{"values":[{"stringValue":"3"}]}}})";
  const TraceData data =
      read(document(agent_span() + "," + span("00f067aa0ba902b7", kRoot, "chat gpt-4o", 2000, 5000, attrs)));
  ASSERT_EQ(data.attempts.size(), 1U);
  const AttemptRecord& a = data.attempts[0];
  EXPECT_EQ(a.trace_id, kTrace);
  EXPECT_EQ(a.parent_id, kRoot);
  EXPECT_EQ(a.start_ns, 2000);
  EXPECT_EQ(a.end_ns, 5000);
  EXPECT_EQ(a.provider, "openai");
  EXPECT_EQ(a.operation, "chat");
  EXPECT_EQ(a.request_model, "gpt-4o");
  EXPECT_EQ(a.response_model, "gpt-4o-2024-08-06");
  EXPECT_EQ(a.server_address, "api.openai.com");
  EXPECT_EQ(a.outcome, OutcomeKind::success);
  EXPECT_EQ(a.input_tokens, 811);
  EXPECT_EQ(a.output_tokens, 92);
  EXPECT_EQ(a.cache_read_tokens, 640);
  EXPECT_EQ(a.resend_count, 2);
  EXPECT_EQ(a.retry_after_ns, 3'000'000'000);
  EXPECT_EQ(a.where, "trace.json span 1");
  ASSERT_EQ(data.agents.size(), 1U);
  EXPECT_EQ(data.agents[0].name, "invoke_agent support");
  EXPECT_EQ(data.counts.unknown_attributes, 0U);
}

TEST(OtlpReaderTest, ReadsTheOlderEraFromGenAiSystemAndTheSpanName) {
  const std::string attrs = kv_text("gen_ai.system", "openai") + "," + kv_int("gen_ai.usage.prompt_tokens", 10) + "," +
                            kv_int("gen_ai.usage.completion_tokens", 4);
  const TraceData data = read(document(span("00f067aa0ba902b7", "", "chat gpt-4o", 2000, 5000, attrs)));
  ASSERT_EQ(data.attempts.size(), 1U);
  EXPECT_EQ(data.attempts[0].provider, "openai");
  EXPECT_EQ(data.attempts[0].operation, "chat");
  EXPECT_EQ(data.attempts[0].request_model, "gpt-4o");
  EXPECT_EQ(data.attempts[0].input_tokens, 10);
  EXPECT_EQ(data.attempts[0].output_tokens, 4);
  EXPECT_FALSE(data.attempts[0].resend_count.has_value());
}

TEST(OtlpReaderTest, TheInferenceSpanNameIsAChatAttempt) {
  const TraceData data = read(document(
      span("00f067aa0ba902b7", "", "gen_ai.client.inference", 0, 10, kv_text("gen_ai.provider.name", "anthropic"))));
  ASSERT_EQ(data.attempts.size(), 1U);
  EXPECT_EQ(data.attempts[0].operation, "chat");
  EXPECT_EQ(data.attempts[0].provider, "anthropic");
}

TEST(OtlpReaderTest, ReadsTheThreeSpellingsOfCacheReads) {
  for (const char* key :
       {"gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_read_input_tokens", "gen_ai.usage.cached_tokens"}) {
    const TraceData data = read(document(
        span("00f067aa0ba902b7", "", "chat m", 0, 10, kv_text("gen_ai.system", "openai") + "," + kv_int(key, 77))));
    ASSERT_EQ(data.attempts.size(), 1U) << key;
    EXPECT_EQ(data.attempts[0].cache_read_tokens, 77) << key;
  }
}

TEST(OtlpReaderTest, TakesTheStatusOfAnHttpChildSpan) {
  const std::string chat = span("00f067aa0ba902b7", "", "chat gpt-4o", 0, 100,
                                kv_text("gen_ai.provider.name", "openai"), R"(,"status":{"code":2})");
  const std::string http =
      span("1111111111111111", "00f067aa0ba902b7", "POST", 10, 90, kv_int("http.response.status_code", 429));
  const TraceData data = read(document(http + "," + chat));  // the child comes first
  ASSERT_EQ(data.attempts.size(), 1U);
  EXPECT_EQ(data.attempts[0].status_code, 429);
  EXPECT_EQ(data.attempts[0].outcome, OutcomeKind::rate_limited);
  EXPECT_EQ(data.counts.http_children, 1U);
  EXPECT_EQ(data.counts.other_spans, 0U);
}

// What the OpenAI client instrumented by @opentelemetry/instrumentation-openai and
// instrumentation-http writes (tests/live/client/otel_replay_test.cjs reads a real one): one
// `chat MODEL` span per create() call, one POST span under it per HTTP request the SDK made.
std::string sdk_call(const std::string& id, const std::string& parent, long long start, long long end,
                     const std::string& requests, const std::string& end_attrs = "") {
  std::string attrs = kv_text("gen_ai.operation.name", "chat") + "," + kv_text("gen_ai.system", "openai") + "," +
                      kv_text("gen_ai.request.model", "gpt-4o-mini");
  if (!end_attrs.empty()) attrs += fmt::format(",{}", end_attrs);
  return span(id, parent, "chat gpt-4o-mini", start, end, attrs) + "," + requests;
}
std::string post(const std::string& id, const std::string& parent, long long start, long long end, int status,
                 const std::string& extra_attrs = "") {
  std::string attrs = kv_text("http.request.method", "POST");
  if (status != 0) attrs += fmt::format(",{}", kv_int("http.response.status_code", status));
  if (!extra_attrs.empty()) attrs += fmt::format(",{}", extra_attrs);
  return span(id, parent, "POST", start, end, attrs);
}
std::string request_to(const std::string& id, const std::string& parent, long long start, long long end,
                       const std::string& url, int status) {
  return span(id, parent, "POST", start, end,
              kv_text("http.request.method", "POST") + "," + kv_text("url.full", url) + "," +
                  kv_int("http.response.status_code", status));
}
std::string span_error_type() { return kv_text("error.type", "RateLimitError"); }
constexpr const char* kRetryAfterMs50 =
    R"({"key":"http.response.header.retry-after-ms","value":{"arrayValue":{"values":[{"stringValue":"50"}]}}})";

TEST(OtlpReaderTest, EachHttpRequestUnderAGenAiSpanIsAnAttemptOfItsCall) {
  const std::string answer = kv_int("gen_ai.usage.input_tokens", 7) + "," + kv_int("gen_ai.usage.output_tokens", 20) +
                             "," + kv_text("gen_ai.response.model", "gpt-4o-mini-2024-07-18");
  const std::string call = sdk_call("00f067aa0ba902b7", kRoot, 1000, 9000,
                                    post("1111111111111111", "00f067aa0ba902b7", 1100, 1500, 429, kRetryAfterMs50) +
                                        "," + post("2222222222222222", "00f067aa0ba902b7", 1600, 2500, 500) + "," +
                                        post("3333333333333333", "00f067aa0ba902b7", 3000, 8800, 200),
                                    answer);
  const TraceData data = read(document(agent_span() + "," + call));
  ASSERT_EQ(data.attempts.size(), 3U);
  EXPECT_EQ(data.counts.http_children, 3U);
  EXPECT_EQ(data.counts.other_spans, 0U);
  const AttemptRecord& first = data.attempts[0];
  EXPECT_EQ(first.outcome, OutcomeKind::rate_limited);
  EXPECT_EQ(first.start_ns, 1000);  // the call began with the span
  EXPECT_EQ(first.end_ns, 1500);
  EXPECT_EQ(first.retry_after_ns, 50'000'000);
  EXPECT_FALSE(first.resend_count.has_value());  // the span recorded none
  EXPECT_FALSE(first.output_tokens.has_value());
  EXPECT_EQ(first.span_id, "1111111111111111");
  EXPECT_EQ(first.parent_id, kRoot);
  EXPECT_EQ(first.request_model, "gpt-4o-mini");
  EXPECT_EQ(data.attempts[1].outcome, OutcomeKind::server_error);
  EXPECT_EQ(data.attempts[1].resend_count, 1);
  EXPECT_EQ(data.attempts[1].start_ns, 1600);
  const AttemptRecord& last = data.attempts[2];
  EXPECT_EQ(last.outcome, OutcomeKind::success);
  EXPECT_EQ(last.resend_count, 2);
  EXPECT_EQ(last.start_ns, 3000);
  EXPECT_EQ(last.end_ns, 9000);  // the answer was read until the span ended
  EXPECT_EQ(last.output_tokens, 20);
  EXPECT_EQ(last.response_model, "gpt-4o-mini-2024-07-18");
  EXPECT_EQ(data.counts.failures_without_tokens, 2U);

  const Grouping g = group_attempts(data);
  ASSERT_EQ(g.tasks.size(), 1U);
  ASSERT_EQ(g.tasks[0].calls.size(), 1U);
  EXPECT_EQ(g.tasks[0].calls[0].attempts.size(), 3U);
  EXPECT_EQ(g.tasks[0].calls[0].outcome, OutcomeKind::success);
  EXPECT_EQ(g.counts.joined_in_span, 2U);
  EXPECT_EQ(g.counts.joined_by_timing, 0U);
}

TEST(OtlpReaderTest, ConcurrentCallsUnderOneParentKeepTheirOwnRequests) {
  // Two create() calls at once (parallel tool calls), their retries interleaved in time.
  const std::string a = sdk_call("aaaaaaaaaaaaaaaa", kRoot, 1000, 5000,
                                 post("a000000000000001", "aaaaaaaaaaaaaaaa", 1000, 1500, 429) + "," +
                                     post("a000000000000002", "aaaaaaaaaaaaaaaa", 2500, 5000, 200));
  // b begins after a's first request failed: a's call goes on, so b is not its retry.
  const std::string b = sdk_call("bbbbbbbbbbbbbbbb", kRoot, 1600, 6000,
                                 post("b000000000000001", "bbbbbbbbbbbbbbbb", 1600, 2000, 503) + "," +
                                     post("b000000000000002", "bbbbbbbbbbbbbbbb", 3000, 3500, 503) + "," +
                                     post("b000000000000003", "bbbbbbbbbbbbbbbb", 4000, 6000, 200));
  const Grouping g = group_attempts(read(document(agent_span() + "," + a + "," + b)));
  ASSERT_EQ(g.tasks.size(), 1U);
  ASSERT_EQ(g.tasks[0].calls.size(), 2U);
  EXPECT_EQ(g.tasks[0].calls[0].attempts.size(), 2U);
  EXPECT_EQ(g.tasks[0].calls[1].attempts.size(), 3U);
  EXPECT_FALSE(g.tasks[0].calls[0].hedged);
  EXPECT_FALSE(g.tasks[0].calls[1].hedged);
  EXPECT_EQ(g.counts.joined_in_span, 3U);
  EXPECT_EQ(g.counts.joined_by_timing, 0U);
}

TEST(OtlpReaderTest, ARequestWithoutAResponseIsStillAnAttempt) {
  // The older HTTP conventions' method, and a request that timed out before any status.
  const std::string timed_out =
      span("1111111111111111", "00f067aa0ba902b7", "POST", 100, 600,
           kv_text("http.method", "POST") + "," + kv_text("error.type", "ETIMEDOUT"), R"(,"status":{"code":2})");
  const TraceData data =
      read(document(sdk_call("00f067aa0ba902b7", "", 100, 900,
                             timed_out + "," + post("2222222222222222", "00f067aa0ba902b7", 700, 900, 200))));
  ASSERT_EQ(data.attempts.size(), 2U);
  EXPECT_EQ(data.attempts[0].status_code, 0);
  EXPECT_EQ(data.attempts[0].outcome, OutcomeKind::timeout);  // retried without a response: abandoned
  EXPECT_EQ(data.counts.requests_without_response, 1U);
  EXPECT_EQ(data.counts.unclassified_errors, 0U);
  EXPECT_EQ(data.attempts[1].outcome, OutcomeKind::success);
  // instrumentation-undici records nothing on an aborted request, instrumentation-http an
  // error.type "Error"; the last request's outcome is the GenAI span's (openai-node's class).
  const std::string span_timeout = kv_text("error.type", "APIConnectionTimeoutError");
  const TraceData hung = read(document(sdk_call(
      "00f067aa0ba902b7", "", 100, 900,
      span("1111111111111111", "00f067aa0ba902b7", "POST", 100, 400, kv_text("http.request.method", "POST")) + "," +
          span("2222222222222222", "00f067aa0ba902b7", "POST", 500, 900,
               kv_text("http.request.method", "POST") + "," + kv_text("error.type", "Error")),
      span_timeout)));
  ASSERT_EQ(hung.attempts.size(), 2U);
  EXPECT_EQ(hung.attempts[0].outcome, OutcomeKind::timeout);
  EXPECT_EQ(hung.attempts[1].outcome, OutcomeKind::timeout);
  EXPECT_EQ(hung.counts.requests_without_response, 1U);
  // A span that is neither HTTP nor GenAI (a database call under the chat span) is other.
  const TraceData other = read(document(sdk_call(
      "00f067aa0ba902b7", "", 100, 900, span("1111111111111111", "00f067aa0ba902b7", "SELECT", 100, 200, ""))));
  EXPECT_EQ(other.attempts.size(), 1U);
  EXPECT_EQ(other.counts.other_spans, 1U);
}

TEST(OtlpReaderTest, AnOnlyRequestLendsItsRetryAfterAndFractionalSecondsAreRead) {
  // One request under the span (an SDK with maxRetries 0): its header is the attempt's.
  const std::string seconds =
      R"({"key":"http.response.header.retry-after","value":{"arrayValue":{"values":[{"stringValue":"0.3"}]}}})";
  const TraceData data =
      read(document(sdk_call("00f067aa0ba902b7", "", 0, 100,
                             post("1111111111111111", "00f067aa0ba902b7", 0, 100, 429, seconds), span_error_type())));
  ASSERT_EQ(data.attempts.size(), 1U);
  EXPECT_EQ(data.attempts[0].outcome, OutcomeKind::rate_limited);
  EXPECT_EQ(data.attempts[0].retry_after_ns, 300'000'000);
}

TEST(OtlpReaderTest, PythonsUnderscoredHeaderNamesAreRead) {
  // opentelemetry-util-http names captured headers with underscores.
  const std::string ms =
      R"({"key":"http.response.header.retry_after_ms","value":{"arrayValue":{"values":[{"stringValue":"50"}]}}})";
  const std::string seconds =
      R"({"key":"http.response.header.retry_after","value":{"arrayValue":{"values":[{"stringValue":"2"}]}}})";
  const TraceData data =
      read(document(sdk_call("00f067aa0ba902b7", "", 0, 9000,
                             post("1111111111111111", "00f067aa0ba902b7", 0, 100, 429, ms) + "," +
                                 post("2222222222222222", "00f067aa0ba902b7", 200, 300, 429, seconds) + "," +
                                 post("3333333333333333", "00f067aa0ba902b7", 400, 9000, 200))));
  ASSERT_EQ(data.attempts.size(), 3U);
  EXPECT_EQ(data.attempts[0].retry_after_ns, 50'000'000);
  EXPECT_EQ(data.attempts[1].retry_after_ns, 2'000'000'000);
}

TEST(OtlpReaderTest, ADroppedConnectionIsATimeoutWhetherOrNotItWasRetried) {
  // The server never answered and closed the connection: the SDK's APIConnectionError.
  const std::string hung = span("1111111111111111", "00f067aa0ba902b7", "POST", 100, 300,
                                kv_text("http.request.method", "POST"), R"(,"status":{"code":2})");
  const TraceData data = read(
      document(sdk_call("00f067aa0ba902b7", "", 100, 300, hung, kv_text("error.type", "openai.APIConnectionError"))));
  ASSERT_EQ(data.attempts.size(), 1U);
  EXPECT_EQ(data.attempts[0].outcome, OutcomeKind::timeout);
  EXPECT_EQ(data.counts.requests_without_response, 1U);
}

TEST(OtlpReaderTest, ARequestAloneIsNamedLikeTheSpansOfItsEndpointNotOnlyItsServer) {
  // One gateway serves the OpenAI and the Anthropic API; only the OpenAI client is traced.
  const std::string openai =
      sdk_call("00f067aa0ba902b7", kRoot, 100, 900,
               request_to("1111111111111111", "00f067aa0ba902b7", 100, 900, "http://gw:8080/v1/chat/completions", 200),
               kv_text("server.address", "gw"));
  const std::string claude = request_to("2222222222222222", kRoot, 1000, 1500, "http://gw:8080/v1/messages", 529);
  const TraceData data = read(document(agent_span() + "," + openai + "," + claude));
  ASSERT_EQ(data.attempts.size(), 2U);
  EXPECT_EQ(data.attempts[0].provider, "openai");
  EXPECT_EQ(data.attempts[1].provider, "gw");  // not the OpenAI client's name
  EXPECT_EQ(data.attempts[1].endpoint, "/v1/messages");
}

TEST(OtlpReaderTest, ASpanOverItsRequestsIsAWholeCallNeverJoinedByTiming) {
  // A failed create() (its SDK's retries spent), then the agent's next step 5 ms later.
  const std::string failed = sdk_call("aaaaaaaaaaaaaaaa", kRoot, 1000, 3000,
                                      post("a000000000000001", "aaaaaaaaaaaaaaaa", 1000, 1500, 429) + "," +
                                          post("a000000000000002", "aaaaaaaaaaaaaaaa", 2000, 3000, 429),
                                      span_error_type());
  const std::string next =
      sdk_call("bbbbbbbbbbbbbbbb", kRoot, 3005, 4000, post("b000000000000001", "bbbbbbbbbbbbbbbb", 3005, 4000, 200));
  const Grouping g = group_attempts(read(document(agent_span() + "," + failed + "," + next)));
  ASSERT_EQ(g.tasks.size(), 1U);
  EXPECT_EQ(g.tasks[0].calls.size(), 2U);
  EXPECT_EQ(g.counts.joined_by_timing, 0U);
}

TEST(OtlpReaderTest, SeveralFilesAreOneTrace) {
  // A collector's rotated files: the chat span in one, its requests in the next, one line in
  // both.
  const std::string chat = span("00f067aa0ba902b7", kRoot, "chat gpt-4o-mini", 1000, 3000,
                                kv_text("gen_ai.system", "openai") + "," + kv_text("gen_ai.operation.name", "chat"));
  const std::string first = document(post("1111111111111111", "00f067aa0ba902b7", 1000, 1500, 429));
  const std::string second = document(post("2222222222222222", "00f067aa0ba902b7", 2000, 3000, 200));
  TraceData data;
  read_otlp_texts({{"a.jsonl", document(agent_span() + "," + chat) + "\n" + first + "\n"},
                   {"b.jsonl", first + "\n" + second + "\n"}},
                  data);
  EXPECT_EQ(data.attempts.size(), 2U);
  EXPECT_EQ(data.counts.duplicates, 1U);
  EXPECT_EQ(data.counts.other_spans, 0U);
  EXPECT_EQ(group_attempts(data).counts.calls, 1U);
  // With no GenAI span in any file, the message names them all.
  TraceData none;
  try {
    read_otlp_texts({{"a.jsonl", first}, {"b.jsonl", second}}, none);
    ADD_FAILURE() << "no error";
  } catch (const TraceInputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("a.jsonl, b.jsonl: no GenAI spans (2 spans, ", 0), 0U) << e.what();
  }
}

TEST(OtlpReaderTest, WithHttpInstrumentationOnlyARequestToAGenAiEndpointIsAnAttempt) {
  const std::string app = span(kRoot, "", "handle_question", 0, 9000, "");
  const std::string chat429 =
      request_to("1111111111111111", kRoot, 100, 200, "https://api.openai.com/v1/chat/completions", 429);
  const std::string chat200 =
      request_to("2222222222222222", kRoot, 700, 2000, "https://api.openai.com/v1/chat/completions?x=1", 200);
  const std::string embed =
      request_to("3333333333333333", kRoot, 2100, 2300, "https://api.openai.com/v1/embeddings", 200);
  const std::string claude =
      request_to("4444444444444444", kRoot, 2400, 3000, "https://api.anthropic.com/v1/messages", 529);
  const std::string health = request_to("5555555555555555", kRoot, 3100, 3200, "https://api.openai.com/health", 200);
  const TraceData data =
      read(document(app + "," + chat429 + "," + chat200 + "," + embed + "," + claude + "," + health));
  ASSERT_EQ(data.attempts.size(), 4U);
  EXPECT_EQ(data.counts.endpoint_requests, 4U);
  EXPECT_EQ(data.counts.other_spans, 2U);  // the application's span and the health check
  EXPECT_EQ(data.attempts[0].provider, "api.openai.com");
  EXPECT_EQ(data.attempts[0].operation, "chat");
  EXPECT_EQ(data.attempts[0].outcome, OutcomeKind::rate_limited);
  EXPECT_EQ(data.attempts[2].operation, "embeddings");
  EXPECT_EQ(data.attempts[3].provider, "api.anthropic.com");
  EXPECT_EQ(data.attempts[3].outcome, OutcomeKind::overloaded);
  EXPECT_EQ(data.counts.unknown_attributes, 0U);  // HTTP attributes are not GenAI ones
  const Grouping g = group_attempts(data);
  ASSERT_EQ(g.tasks.size(), 1U);
  EXPECT_EQ(g.tasks[0].calls.size(), 3U);  // the 429 and its retry, the embedding, the message
  EXPECT_EQ(g.counts.joined_by_timing, 1U);
}

TEST(OtlpReaderTest, TheSdksRetryCountHeaderIsARequestsResendCount) {
  // HTTP instrumentation only, request headers recorded: x-stainless-retry-count 0, 1.
  const auto with_count = [](const std::string& id, long long start, long long end, int status, const char* count) {
    return span(
        id, kRoot, "POST", start, end,
        kv_text("http.request.method", "POST") + "," + kv_text("url.full", "https://api.anthropic.com/v1/messages") +
            "," + kv_int("http.response.status_code", status) + "," +
            R"({"key":"http.request.header.x_stainless_retry_count","value":{"arrayValue":{"values":[{"stringValue":")" +
            count + R"("}]}}})");
  };
  const TraceData data =
      read(document(span(kRoot, "", "app", 0, 9000, "") + "," + with_count("1111111111111111", 0, 100, 529, "0") + "," +
                    with_count("2222222222222222", 600, 900, 200, "1")));
  ASSERT_EQ(data.attempts.size(), 2U);
  EXPECT_EQ(data.attempts[0].resend_count, 0);
  EXPECT_EQ(data.attempts[1].resend_count, 1);
  const Grouping g = group_attempts(data);
  EXPECT_EQ(g.counts.calls, 1U);
  EXPECT_EQ(g.counts.joined_by_timing, 0U);
}

TEST(OtlpReaderTest, ARequestWhoseGenAiSpanWasNeverExportedIsNamedLikeTheOthers) {
  // instrumentation-openai 0.21 never ends the span of a stream that threw: its request is
  // left with a parent the trace lacks.
  const std::string call = sdk_call(
      "00f067aa0ba902b7", kRoot, 100, 900,
      request_to("1111111111111111", "00f067aa0ba902b7", 100, 900, "http://127.0.0.1:8080/v1/chat/completions", 200),
      kv_text("server.address", "127.0.0.1"));
  const std::string lost =
      request_to("2222222222222222", "9999999999999999", 1000, 1500, "http://127.0.0.1:8080/v1/chat/completions", 200);
  const TraceData data = read(document(agent_span() + "," + call + "," + lost));
  ASSERT_EQ(data.attempts.size(), 2U);
  EXPECT_EQ(data.counts.orphans, 1U);
  EXPECT_EQ(data.attempts[1].provider, "openai");
  EXPECT_EQ(data.attempts[1].request_model, "gpt-4o-mini");
  EXPECT_EQ(data.attempts[1].parent_id, "");
}

TEST(OtlpReaderTest, ACutAnswerIsAnAnswerNotARetriedFailure) {
  // finish_reason "length" (max_tokens reached), then the agent's next question 10 ms later:
  // a new call, not a retry of the first.
  const std::string cut =
      R"({"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"length"}]}}})";
  const std::string first = sdk_call("00f067aa0ba902b7", kRoot, 1000, 2000,
                                     post("1111111111111111", "00f067aa0ba902b7", 1000, 2000, 200), cut);
  const std::string second = sdk_call("2222222222222222", kRoot, 12'000'000, 13'000'000,
                                      post("3333333333333333", "2222222222222222", 12'000'000, 13'000'000, 200));
  const TraceData data = read(document(agent_span() + "," + first + "," + second));
  ASSERT_EQ(data.attempts.size(), 2U);
  EXPECT_EQ(data.attempts[0].outcome, OutcomeKind::truncated);
  const Grouping g = group_attempts(data);
  EXPECT_EQ(g.tasks[0].calls.size(), 2U);
  EXPECT_EQ(g.counts.joined_by_timing, 0U);
}

TEST(OtlpReaderTest, ReadsTheCollectorFileFormOneTracesDataALine) {
  const std::string line1 =
      document(span("00f067aa0ba902b7", kRoot, "chat a", 2000, 3000, kv_text("gen_ai.system", "x")));
  const std::string line2 = document(agent_span());
  const TraceData data = read(line1 + "\n" + line2 + "\n");
  EXPECT_EQ(data.attempts.size(), 1U);
  EXPECT_EQ(data.agents.size(), 1U);
  EXPECT_EQ(data.counts.orphans, 0U);  // its parent is on the next line
}

TEST(OtlpReaderTest, CountsEveryIrregularityAndDropsNothingSilently) {
  const std::string chat = kv_text("gen_ai.provider.name", "openai");
  const std::string spans =
      span("00f067aa0ba902b7", kRoot, "chat m", 0, 10, chat) + "," +
      span("00f067aa0ba902b7", kRoot, "chat m", 0, 10, chat) + "," +                // duplicate
      span("2222222222222222", "9999999999999999", "chat m", 20, 30, chat) + "," +  // orphan
      span("3333333333333333", "", "chat m", 50, 40, chat) + "," +                  // end before start
      span("4444444444444444", "", "chat m", 60, 70, chat + "," + kv_int("http.response.status_code", 500)) + "," +
      span("5555555555555555", "", "chat m", 80, 90, chat + "," + kv_text("llm.vendor", "x"),
           R"(,"status":{"code":2})") +
      "," + span("6666666666666666", "", "GET /health", 0, 1, "");  // not GenAI
  const TraceData data = read(document(spans));
  EXPECT_EQ(data.counts.records, 7U);
  EXPECT_EQ(data.counts.duplicates, 1U);
  EXPECT_EQ(data.counts.orphans, 2U);  // kRoot is not in this document either
  EXPECT_EQ(data.counts.end_before_start, 1U);
  EXPECT_EQ(data.counts.failures_without_tokens, 2U);
  EXPECT_EQ(data.counts.unclassified_errors, 1U);
  EXPECT_EQ(data.counts.unknown_attributes, 1U);
  EXPECT_EQ(data.counts.unknown_names, std::vector<std::string>{"llm.vendor"});
  EXPECT_EQ(data.counts.other_spans, 1U);
  ASSERT_EQ(data.attempts.size(), 5U);
  EXPECT_EQ(data.attempts[1].parent_id, "");  // the orphan goes under its trace
  EXPECT_EQ(data.attempts[2].end_ns, 50);
  EXPECT_EQ(data.attempts[3].outcome, OutcomeKind::server_error);
  EXPECT_EQ(data.attempts[4].outcome, OutcomeKind::server_error);
}

TEST(OtlpReaderTest, MalformedFilesAreReportedWithFileLineSpanAndField) {
  EXPECT_EQ(
      error_of("{\"resourceSpans\": [\n  {,]}"),
      "trace.json:2:4: not JSON: syntax error while parsing object key - unexpected ','; expected string literal");
  // A number beyond a double's range, in the one document and on a later line of the per-line form.
  EXPECT_EQ(error_of("{\"resourceSpans\":\n [1e999]}"),
            "trace.json:2:3: not JSON: expected a number of magnitude at most 1.8e308, got 1e999");
  EXPECT_EQ(error_of("{\"resourceSpans\": []}\n{\"resourceSpans\": [-2E+400]}\n"),
            "trace.json:2:20: not JSON: expected a number of magnitude at most 1.8e308, got -2E+400");
  EXPECT_EQ(error_of(R"({"spans": []})"),
            "trace.json: /resourceSpans: expected an array (an OTLP ExportTraceServiceRequest), got nothing");
  EXPECT_EQ(error_of(R"({"resourceSpans": {}})"), "trace.json: /resourceSpans: expected an array, got {}");
  EXPECT_EQ(error_of(document(span("xyz", "", "chat m", 0, 1, ""))),
            "trace.json: span 0 (/resourceSpans/0/scopeSpans/0/spans/0): spanId: expected 16 hex digits, got \"xyz\"");
  const std::string bad_time = R"({"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"00f067aa0ba902b7",)"
                               R"("startTimeUnixNano":"soon","endTimeUnixNano":"1"})";
  EXPECT_EQ(error_of(document(agent_span()) + "\n" + document(bad_time) + "\n", "traces.jsonl"),
            "traces.jsonl:2: span 1 (/resourceSpans/0/scopeSpans/0/spans/0): startTimeUnixNano: expected an integer "
            "count of nanoseconds (a decimal string or a number), got \"soon\"");
  EXPECT_EQ(
      error_of(document(span("00f067aa0ba902b7", "", "chat m", 0, 1,
                             kv_text("gen_ai.system", "x") + "," + kv_text("gen_ai.usage.input_tokens", "many")))),
      "trace.json: span 0 (/resourceSpans/0/scopeSpans/0/spans/0): attribute \"gen_ai.usage.input_tokens\": "
      "expected a non-negative intValue, got \"many\"");
  EXPECT_EQ(error_of(document(span("00f067aa0ba902b7", "", "GET /", 0, 1, ""))),
            "trace.json: no GenAI spans (1 spans, none with gen_ai.operation.name, gen_ai.provider.name or "
            "gen_ai.system, nor named like \"chat MODEL\")");
}

}  // namespace
}  // namespace squall::replay
