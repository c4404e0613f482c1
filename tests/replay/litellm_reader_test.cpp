#include "replay/litellm_reader.hpp"

#include <gtest/gtest.h>

#include <string>

#include "replay/grouping.hpp"

namespace squall::replay {
namespace {

// Three attempts of one request through LiteLLM's router: a 429 from OpenAI, a retry that
// times out, then the fallback model group on Anthropic; and a second request.
constexpr const char* kLog =
    R"({"id":"a1","trace_id":"t1","call_type":"acompletion","status":"failure","custom_llm_provider":"openai",)"
    R"("model":"gpt-4o","model_group":"smart","api_base":"https://api.openai.com/v1","startTime":1700000000.0,)"
    R"("endTime":1700000000.25,"prompt_tokens":0,"completion_tokens":0,"response_cost":0,)"
    R"("error_information":{"error_code":"429","error_class":"RateLimitError","llm_provider":"openai"}})"
    "\n"
    R"({"id":"a2","trace_id":"t1","call_type":"acompletion","status":"failure","custom_llm_provider":"openai",)"
    R"("model":"gpt-4o","model_group":"smart","startTime":1700000001.0,"endTime":1700000031.0,)"
    R"("error_information":{"error_code":null,"error_class":"Timeout"}})"
    "\n\n"
    R"({"id":"a3","trace_id":"t1","call_type":"acompletion","status":"success","custom_llm_provider":"anthropic",)"
    R"("model":"claude-sonnet-4","model_group":"smart-fallback","startTime":1700000031.5,"endTime":1700000033.0,)"
    R"("completionStartTime":1700000032.0,"prompt_tokens":1200,"completion_tokens":300,"response_cost":0.0081,)"
    R"("x_team":"search"})"
    "\n"
    R"({"id":"a3","trace_id":"t1","call_type":"acompletion","status":"success","startTime":1700000031.5,"endTime":1700000033.0})"
    "\n"
    R"({"id":"b1","trace_id":"t2","call_type":"aembedding","status":"success","custom_llm_provider":"openai",)"
    R"("model":"text-embedding-3-small","startTime":1700000040.0,"endTime":1700000039.5,"prompt_tokens":12})"
    "\n";

TraceData read(const std::string& text) {
  TraceData data;
  read_litellm_text(text, "gw.jsonl", data);
  return data;
}

std::string error_of(const std::string& text) {
  try {
    (void)read(text);
  } catch (const TraceInputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(LiteLlmReaderTest, ReadsOneAttemptARecordIntoTheNormalisedFields) {
  const TraceData data = read(kLog);
  ASSERT_EQ(data.attempts.size(), 4U);
  const AttemptRecord& first = data.attempts[0];
  EXPECT_EQ(first.trace_id, "t1");
  EXPECT_EQ(first.operation, "chat");
  EXPECT_EQ(first.provider, "openai");
  EXPECT_EQ(first.request_model, "gpt-4o");
  EXPECT_EQ(first.model_group, "smart");
  EXPECT_EQ(first.server_address, "api.openai.com");
  EXPECT_EQ(first.start_ns, 1'700'000'000'000'000'000);
  EXPECT_EQ(first.end_ns, 1'700'000'000'250'000'000);
  EXPECT_EQ(first.status_code, 429);
  EXPECT_EQ(first.outcome, OutcomeKind::rate_limited);
  EXPECT_EQ(first.where, "gw.jsonl:1");
  EXPECT_EQ(data.attempts[1].outcome, OutcomeKind::timeout);
  const AttemptRecord& third = data.attempts[2];
  EXPECT_EQ(third.outcome, OutcomeKind::success);
  EXPECT_EQ(third.first_token_ns, 1'700'000'032'000'000'000);
  EXPECT_EQ(third.input_tokens, 1200);
  EXPECT_EQ(third.output_tokens, 300);
  EXPECT_EQ(third.cost_usd, 0.0081);
  EXPECT_EQ(data.attempts[3].operation, "embeddings");
}

TEST(LiteLlmReaderTest, CountsDuplicatesSkewFailuresWithoutTokensAndUnknownFields) {
  const TraceData data = read(kLog);
  EXPECT_EQ(data.counts.records, 5U);
  EXPECT_EQ(data.counts.duplicates, 1U);
  EXPECT_EQ(data.counts.end_before_start, 1U);
  EXPECT_EQ(data.attempts[3].end_ns, data.attempts[3].start_ns);
  EXPECT_EQ(data.counts.failures_without_tokens, 2U);
  EXPECT_EQ(data.counts.unknown_names, std::vector<std::string>{"x_team"});
}

TEST(LiteLlmReaderTest, GroupsTheRetriesAndTheFallbackIntoOneCallByTiming) {
  const Grouping g = group_attempts(read(kLog));
  ASSERT_EQ(g.tasks.size(), 2U);
  ASSERT_EQ(g.tasks[0].calls.size(), 1U);
  EXPECT_EQ(g.tasks[0].calls[0].attempts.size(), 3U);
  EXPECT_TRUE(g.tasks[0].calls[0].fallback);
  EXPECT_EQ(g.counts.joined_by_timing, 2U);
}

TEST(LiteLlmReaderTest, MalformedRecordsNameTheLineAndTheField) {
  EXPECT_EQ(error_of("{\"trace_id\": }\n"),
            "gw.jsonl:1:14: not JSON: syntax error while parsing value - unexpected '}'; "
            "expected '[', '{', or a literal");
  EXPECT_EQ(error_of("\n{\"startTime\": 9e9999}\n"),
            "gw.jsonl:2:15: not JSON: expected a number of magnitude at most 1.8e308, got 9e9999");
  EXPECT_EQ(error_of("[1]\n"), "gw.jsonl:1: expected an object, got [1]");
  EXPECT_EQ(error_of(R"({"status":"success","startTime":1,"endTime":2})"),
            "gw.jsonl:1: trace_id: expected a string, got nothing");
  EXPECT_EQ(error_of("\n"
                     R"({"trace_id":"t","status":"ok","startTime":1,"endTime":2})"),
            "gw.jsonl:2: status: expected \"success\" or \"failure\", got \"ok\"");
  EXPECT_EQ(error_of(R"({"trace_id":"t","status":"success","startTime":"noon","endTime":2})"),
            "gw.jsonl:1: startTime: expected Unix seconds (a number), got \"noon\"");
  EXPECT_EQ(error_of(R"({"trace_id":"t","status":"success","startTime":1,"endTime":2,"prompt_tokens":-3})"),
            "gw.jsonl:1: prompt_tokens: expected a non-negative integer, got -3");
  EXPECT_EQ(error_of("\n\n"), "gw.jsonl: no records (an empty log)");
}

TEST(LiteLlmReaderTest, TimesBeyondInt64NanosecondsAreRefused) {
  // 1.7e10 s once overflowed int64 nanoseconds (found by fuzz/replay_litellm.cpp): times past
  // 9e9 s (year 2255) are refused, as milliseconds and nanoseconds already were.
  EXPECT_EQ(error_of(R"({"trace_id":"t","status":"success","startTime":1,"endTime":17000000025})"),
            "gw.jsonl:1: endTime: expected Unix seconds (a number), got 17000000025");
  EXPECT_EQ(error_of(R"({"trace_id":"t","status":"success","startTime":9000000000,"endTime":2})"),
            "gw.jsonl:1: startTime: expected Unix seconds (a number), got 9000000000");
  EXPECT_EQ(read(R"({"trace_id":"t","status":"success","startTime":8999999999.5,"endTime":8999999999.75})")
                .attempts.at(0)
                .start_ns,
            8'999'999'999'500'000'000);
}

}  // namespace
}  // namespace squall::replay
