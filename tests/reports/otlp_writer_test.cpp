#include "reports/writers/otlp_writer.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sample_run.hpp"

namespace squall {
namespace {

using Json = nlohmann::json;

OtlpRunInfo sample_info() {
  return OtlpRunInfo{"sample",
                     7,
                     "0.1.0",
                     1'700'000'000,
                     {{"web_search", ProviderKind::web_search, "brave"}, {"llm", ProviderKind::llm, "gpt-4.1"}}};
}

std::string exported(OtlpRunInfo info) {
  std::string out;
  OtlpWriter writer([&out](std::string_view piece) { out += piece; }, std::move(info));
  test_support::feed_sample_events(writer);
  writer.finish();
  return out;
}

const Json& spans_of(const Json& doc) { return doc["resourceSpans"][0]["scopeSpans"][0]["spans"]; }

// The attribute's AnyValue, or null JSON.
Json attr(const Json& span, const std::string& key) {
  for (const Json& kv : span["attributes"]) {
    if (kv["key"] == key) return kv["value"];
  }
  return Json();
}

TEST(OtlpWriterTest, WritesOneExportTraceServiceRequestWithResourceAndScope) {
  const Json doc = Json::parse(exported(sample_info()));
  const Json& resource = doc["resourceSpans"][0]["resource"];
  EXPECT_EQ(resource["attributes"][0], Json::parse(R"({"key":"service.name","value":{"stringValue":"squall"}})"));
  EXPECT_EQ(resource["attributes"][3], Json::parse(R"({"key":"squall.seed","value":{"intValue":"7"}})"));
  EXPECT_EQ(doc["resourceSpans"][0]["scopeSpans"][0]["scope"], Json::parse(R"({"name":"squall","version":"0.1.0"})"));
  // 7 attempts and 4 tasks; the attempt-less task 3 still has its span.
  EXPECT_EQ(spans_of(doc).size(), 11U);
}

TEST(OtlpWriterTest, AnAttemptSpanCarriesTheGenAiAndHttpAttributes) {
  const Json doc = Json::parse(exported(sample_info()));
  const Json& first = spans_of(doc)[0];  // task 1's 429 from web_search, then a 1 s backoff (not Retry-After)
  EXPECT_EQ(first["name"], "retrieval web_search");
  EXPECT_EQ(first["kind"], 3);
  EXPECT_EQ(first["startTimeUnixNano"], "1700000000000000000");
  EXPECT_EQ(first["endTimeUnixNano"], "1700000000200000000");
  EXPECT_EQ(attr(first, "gen_ai.operation.name"), Json::parse(R"({"stringValue":"retrieval"})"));
  EXPECT_EQ(attr(first, "gen_ai.provider.name"), Json::parse(R"({"stringValue":"web_search"})"));
  EXPECT_EQ(attr(first, "http.response.status_code"), Json::parse(R"({"intValue":"429"})"));
  EXPECT_EQ(attr(first, "error.type"), Json::parse(R"({"stringValue":"rate_limited"})"));
  EXPECT_TRUE(attr(first, "http.request.resend_count").is_null());
  EXPECT_TRUE(attr(first, "http.response.header.retry-after").is_null());
  EXPECT_EQ(first["status"], Json::parse(R"({"code":2})"));

  const Json& retry = spans_of(doc)[1];
  EXPECT_EQ(attr(retry, "http.request.resend_count"), Json::parse(R"({"intValue":"1"})"));
  EXPECT_FALSE(retry.contains("status"));

  const Json& chat = spans_of(doc)[2];
  EXPECT_EQ(chat["name"], "chat gpt-4.1");
  EXPECT_EQ(attr(chat, "gen_ai.request.model"), Json::parse(R"({"stringValue":"gpt-4.1"})"));
  EXPECT_EQ(attr(chat, "gen_ai.usage.input_tokens"), Json::parse(R"({"intValue":"1200"})"));
  EXPECT_EQ(attr(chat, "gen_ai.usage.output_tokens"), Json::parse(R"({"intValue":"400"})"));
  EXPECT_EQ(attr(chat, "gen_ai.response.finish_reasons"),
            Json::parse(R"({"arrayValue":{"values":[{"stringValue":"stop"}]}})"));
}

TEST(OtlpWriterTest, TaskSpansRootTheirAttemptsAndIdsAreDistinct) {
  const Json doc = Json::parse(exported(sample_info()));
  std::set<std::string> span_ids;
  std::set<std::string> task_span_ids;
  for (const Json& s : spans_of(doc)) {
    EXPECT_EQ(s["traceId"].get<std::string>().size(), 32U);
    EXPECT_EQ(s["spanId"].get<std::string>().size(), 16U);
    span_ids.insert(s["spanId"].get<std::string>());
    if (s["kind"] == 1) task_span_ids.insert(s["spanId"].get<std::string>());
  }
  EXPECT_EQ(span_ids.size(), spans_of(doc).size());
  EXPECT_EQ(task_span_ids.size(), 4U);
  for (const Json& s : spans_of(doc)) {
    if (s["kind"] == 3) {
      EXPECT_EQ(task_span_ids.count(s["parentSpanId"].get<std::string>()), 1U);
    }
  }
  const Json& task1 = spans_of(doc)[3];
  EXPECT_EQ(task1["name"], "invoke_agent research");
  EXPECT_EQ(task1["traceId"], spans_of(doc)[0]["traceId"]);
  EXPECT_EQ(attr(task1, "gen_ai.agent.name"), Json::parse(R"({"stringValue":"research"})"));
}

TEST(OtlpWriterTest, AHonouredRetryAfterBecomesTheAttemptsHeader) {
  std::string out;
  OtlpWriter writer([&out](std::string_view piece) { out += piece; }, sample_info());
  AttemptEvent first{5, "web_search", "web_search", 1, 0, kMillisecond, OutcomeKind::rate_limited, 429};
  writer.on_attempt(first);
  writer.on_backoff(BackoffEvent{5, "web_search", 1, kMillisecond, 2 * kSecond, true});
  AttemptEvent second{5, "web_search", "web_search", 2, 2 * kSecond, 3 * kSecond, OutcomeKind::rate_limited, 429};
  writer.on_attempt(second);
  writer.on_backoff(BackoffEvent{5, "web_search", 2, 3 * kSecond, 1500 * kMillisecond, true});
  writer.finish();
  const Json doc = Json::parse(out);
  EXPECT_EQ(attr(spans_of(doc)[0], "http.response.header.retry-after"),
            Json::parse(R"({"arrayValue":{"values":[{"stringValue":"2"}]}})"));
  EXPECT_EQ(attr(spans_of(doc)[1], "http.response.header.retry-after-ms"),
            Json::parse(R"({"arrayValue":{"values":[{"stringValue":"1500"}]}})"));
}

TEST(OtlpWriterTest, SameEventsSameBytesAndTheSeedChangesTheIds) {
  EXPECT_EQ(exported(sample_info()), exported(sample_info()));
  OtlpRunInfo other = sample_info();
  other.seed = 8;
  const Json a = Json::parse(exported(sample_info()));
  const Json b = Json::parse(exported(other));
  EXPECT_NE(spans_of(a)[0]["traceId"], spans_of(b)[0]["traceId"]);
}

TEST(OtlpWriterTest, AFailingOutputIsRethrownByFinish) {
  OtlpWriter writer([](std::string_view) { throw std::runtime_error("disk full"); }, sample_info());
  test_support::feed_sample_events(writer);
  EXPECT_THROW(
      {
        try {
          writer.finish();
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "disk full");
          throw;
        }
      },
      std::runtime_error);
}

}  // namespace
}  // namespace squall
