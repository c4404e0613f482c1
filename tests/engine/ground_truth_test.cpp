// Ground truth in the task runner: which hits a task answered from, and whether the
// query's relevant documents were among them (engine/task_result.hpp, AnswerVerdict).
#include <gtest/gtest.h>

#include "engine/call.hpp"
#include "engine/task_runner.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Reply;
using test::ScriptedProvider;

constexpr Nanos ms = kMillisecond;

// A 200 whose hits link to `links`, in order.
Response hits(std::vector<std::string_view> links) {
  std::vector<SearchResult> hits;
  for (std::string_view link : links) hits.push_back(SearchResult{"title", link, "snippet", 3});
  Response r;
  r.set_results(test::kept_hits(hits));
  return r;
}

Response completion() {
  Response r;
  r.body = Body::completion;
  r.output_tokens = 10;
  return r;
}

class Results final : public EventSink {
 public:
  void on_task_finished(const TaskResult& r) override {
    status = r.status;
    reason = std::string(r.reason);
    answer = r.answer;
    degradations = r.degradations;
  }
  TaskStatus status = TaskStatus::failed;
  std::string reason;
  std::optional<AnswerVerdict> answer;
  std::uint32_t degradations = 0;
};

// A task of two steps, a search and then an LLM step that receives its hits; the LLM
// step is optional when `optional_llm`.
struct Agent {
  Agent(std::vector<Reply> search_script, std::vector<Reply> llm_script, bool optional_llm = false)
      : search(loop, std::move(search_script)),
        llm(loop, std::move(llm_script)),
        search_pipeline(test::make_pipeline(search, env)),
        llm_pipeline(test::make_pipeline(llm, env)),
        search_tool{"search", kNoProvider, search_pipeline.get(), nullptr},
        llm_tool{"answer", kNoProvider, llm_pipeline.get(), nullptr},
        runner(env) {
    plan.name = "rag";
    plan.steps.push_back(StepPlan{&search_tool, false, true, 0, 0, {}});
    plan.steps.push_back(StepPlan{&llm_tool, optional_llm, false, 500, 0, {}});
  }

  const Results& run(const PoolQuery& query) {
    std::exception_ptr error;
    spawn([](const TaskRunner& r, const TaskPlan& p,
             const PoolQuery* q) -> Task<void> { co_await r.run(TaskContext{.id = 1}, p, q); }(runner, plan, &query),
          &error);
    loop.run(100'000);
    if (error) std::rethrow_exception(error);
    return results;
  }

  EventLoop loop;
  Results results;
  EngineEnv env{loop, loop, results};
  ScriptedProvider search;
  ScriptedProvider llm;
  std::unique_ptr<Pipeline> search_pipeline;
  std::unique_ptr<Pipeline> llm_pipeline;
  ToolPlan search_tool;
  ToolPlan llm_tool;
  TaskRunner runner;
  TaskPlan plan;
};

PoolQuery grounded(std::vector<std::string> relevant) {
  PoolQuery q;
  q.text = "refund policy";
  q.relevant = std::move(relevant);
  return q;
}

TEST(GroundTruthTest, ARelevantHitAmongTheAnswersHitsIsAnswered) {
  Agent agent({{hits({"kb/pricing", "kb/refunds"}), 100 * ms}}, {{completion(), 200 * ms}});
  const Results& r = agent.run(grounded({"kb/refunds"}));
  EXPECT_EQ(r.status, TaskStatus::succeeded);
  EXPECT_EQ(r.answer, AnswerVerdict::answered);
}

TEST(GroundTruthTest, OnlyIrrelevantHitsAreAWrongAnswerNotASuccess) {
  Agent agent({{hits({"kb/pricing", "kb/sso"}), 100 * ms}}, {{completion(), 200 * ms}});
  const Results& r = agent.run(grounded({"kb/refunds"}));
  EXPECT_EQ(r.status, TaskStatus::wrong_answer);
  EXPECT_EQ(r.reason, "clean");
  EXPECT_EQ(r.answer, AnswerVerdict::answered_wrongly);
}

TEST(GroundTruthTest, AWrongAnswersReasonIsItsDegradationPath) {
  // The optional LLM step fails: the task is degraded by optional_step_failed, and its
  // answer came from irrelevant hits.
  Agent agent({{hits({"kb/sso"}), 100 * ms}}, {{test::status(500), 200 * ms}}, /*optional_llm=*/true);
  const Results& r = agent.run(grounded({"kb/refunds"}));
  EXPECT_EQ(r.status, TaskStatus::wrong_answer);
  EXPECT_EQ(r.reason, "optional_step_failed");
  EXPECT_EQ(r.degradations, 1u << static_cast<unsigned>(Degradation::optional_step_failed));
}

TEST(GroundTruthTest, ATaskThatDidNotSucceedDidNotAnswer) {
  // Relevant hits came back, but the required LLM step failed.
  Agent failed_llm({{hits({"kb/refunds"}), 100 * ms}}, {{test::status(500), 200 * ms}});
  const Results& r = failed_llm.run(grounded({"kb/refunds"}));
  EXPECT_EQ(r.status, TaskStatus::failed);
  EXPECT_EQ(r.answer, AnswerVerdict::not_answered);

  Agent empty_search({{test::no_results(), 100 * ms}}, {{completion(), 200 * ms}});
  const Results& e = empty_search.run(grounded({"kb/refunds"}));
  EXPECT_EQ(e.status, TaskStatus::safe_failed);
  EXPECT_EQ(e.reason, "no_records_found");
  EXPECT_EQ(e.answer, AnswerVerdict::not_answered);
}

TEST(GroundTruthTest, AQueryWithoutGroundTruthIsNotJudged) {
  Agent agent({{hits({"kb/pricing"}), 100 * ms}}, {{completion(), 200 * ms}});
  PoolQuery query;
  query.text = "refund policy";
  const Results& r = agent.run(query);
  EXPECT_EQ(r.status, TaskStatus::succeeded);
  EXPECT_FALSE(r.answer.has_value());
}

TEST(GroundTruthTest, RelevanceIsByExactLink) {
  PoolQuery q = grounded({"kb/a", "kb/c"});
  EXPECT_TRUE(q.is_relevant("kb/a"));
  EXPECT_TRUE(q.is_relevant("kb/c"));
  EXPECT_FALSE(q.is_relevant("kb/b"));
  EXPECT_FALSE(q.is_relevant("KB/a"));
}

}  // namespace
}  // namespace squall
