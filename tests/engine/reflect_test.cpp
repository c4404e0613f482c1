#include "engine/strategies/reflect.hpp"

#include <gtest/gtest.h>

#include "engine/provider_registry.hpp"
#include "engine/strategies/retry.hpp"
#include "test_runtime.hpp"

namespace squall {
namespace {

using test::Call;
using test::Harness;
using test::Reply;
using test::ScriptedProvider;

constexpr Nanos ms = kMillisecond;
// 28 bytes: 7 tokens in a reflection prompt (ceil(28 / 4)).
constexpr std::string_view kMessage = "Invalid arguments: no email.";

Response bad_arguments() {
  Response r;
  r.status = 400;
  r.body = Body::tool_result;
  r.error_details = test::kept({.error_code = "invalid_arguments", .error_message = kMessage});
  return r;
}

Response tool_ok() {
  Response r;
  r.body = Body::tool_result;
  r.set_tool_result("{}");
  return r;
}

Response completion(std::int64_t in, std::int64_t out, double usd) {
  Response r;
  r.body = Body::completion;
  r.input_tokens = in;
  r.output_tokens = out;
  r.cost_usd = usd;
  return r;
}

ProviderDescriptor tool(std::string name, bool idempotent = true) {
  ProviderDescriptor d;
  d.name = std::move(name);
  d.kind = ProviderKind::tool;
  d.idempotent = idempotent;
  return d;
}

ProviderDescriptor llm(std::string name) {
  ProviderDescriptor d;
  d.name = std::move(name);
  d.kind = ProviderKind::llm;
  d.price_per_mtok = {0.4, 1.6};
  return d;
}

// A tool "crm" and an LLM "mini" in a registry; the tool's pipeline [strategies...] ends
// in the registry. The fake tool records the argument revision of each call.
struct Agent {
  Agent(Harness& h, ScriptedProvider::Responder tool_script, std::vector<Reply> llm_script, bool idempotent = true)
      : registry(EngineEnv{h.loop, h.loop, h.log}),
        tool_provider(h.loop,
                      [this, script = std::move(tool_script)](std::size_t i, const Request& r) {
                        revisions.push_back(r.argument_revision);
                        prompts.push_back(r.prompt_tokens);
                        return script(i, r);
                      }),
        llm_provider(h.loop, [this, script = std::move(llm_script)](std::size_t i, const Request& r) {
          prompts.push_back(r.prompt_tokens);
          return script.at(std::min(i, script.size() - 1));
        }) {
    crm = registry.add(tool("crm", idempotent), tool_provider, {});
    registry.add(llm("mini"), llm_provider, {});
  }
  template <class... S>
  void pipeline_of(std::unique_ptr<S>... strategies) {
    pipeline = test::make_pipeline(registry, std::move(strategies)...);
  }
  Outcome run(Harness& h, Call& call) {
    call.ctx.tool = "crm_lookup";
    call.ctx.provider = crm;
    return test::run(h, *pipeline, call);
  }

  ProviderRegistry registry;
  std::vector<std::uint32_t> revisions;  // the tool's calls' argument revisions
  std::vector<std::int64_t> prompts;     // prompt tokens of every call, tool and LLM, in order
  ScriptedProvider tool_provider;
  ScriptedProvider llm_provider;
  ProviderId crm = kNoProvider;
  std::unique_ptr<Pipeline> pipeline;
};

ReflectConfig reflect_with(std::string provider = "mini") {
  ReflectConfig c;
  c.provider = std::move(provider);
  return c;
}

TEST(ReflectTest, AReflectionIsBilledAndTimedThenTheCorrectedCallIsSent) {
  // The tool answers 400 invalid_arguments after 100 ms. The reflection prompt is the
  // template's 150 tokens plus ceil(28 / 4) = 7 for the message: 157 tokens. The LLM
  // answers after 500 ms (100 -> 600 ms), billed 157 + 40 tokens and 0.000127 USD. The
  // tool is called again at 600 ms with argument revision 1 and answers at 700 ms.
  Harness h;
  Agent a(h,
          [](std::size_t i, const Request&) {
            return i == 0 ? Reply{bad_arguments(), 100 * ms} : Reply{tool_ok(), 100 * ms};
          },
          {{completion(157, 40, 0.000127), 500 * ms}});
  FixedRng rng(0);
  a.pipeline_of(std::make_unique<ReflectStrategy>(reflect_with(), a.registry.env()),
                std::make_unique<RetryStrategy>(RetryConfig{}, a.registry.env(), rng));
  Call call;
  EXPECT_EQ(a.run(h, call).kind, OutcomeKind::success);
  EXPECT_EQ(call.finished, 700 * ms);
  EXPECT_EQ(a.tool_provider.start_times(), (std::vector<TimePoint>{0, 600 * ms}));
  EXPECT_EQ(a.llm_provider.start_times(), (std::vector<TimePoint>{100 * ms}));
  EXPECT_EQ(a.revisions, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(a.prompts, (std::vector<std::int64_t>{0, 157, 0}));
  EXPECT_EQ(h.log.reflections, (std::vector<std::string>{"100ms-600ms mini #1 on bad_request: success"}));
  ASSERT_EQ(h.log.attempts.size(), 3U);
  EXPECT_EQ(h.log.attempts[1].provider, "mini");
  EXPECT_EQ(h.log.attempts[1].input_tokens, 157);
  // The reflection is charged to the task, and is not one of the tool call's attempts.
  EXPECT_EQ(call.task.tokens_spent, 197);
  EXPECT_DOUBLE_EQ(call.task.cost_spent_usd, 0.000127);
  EXPECT_EQ(call.ctx.attempts, 2);
  // Recovered as designed: not degraded.
  EXPECT_EQ(call.task.degradations, 0U);
}

TEST(ReflectTest, MaxReflectionsBoundsTheCorrections) {
  // Every revision is rejected: with max_reflections 2 the tool is called three times
  // (0, 600, 1200 ms), the LLM twice, and the call ends with the tool's bad_request.
  Harness h;
  Agent a(h,
          [](std::size_t, const Request&) {
            return Reply{bad_arguments(), 100 * ms};
          },
          {{completion(157, 40, 0), 500 * ms}});
  a.pipeline_of(std::make_unique<ReflectStrategy>(reflect_with(), a.registry.env()));
  Call call;
  EXPECT_EQ(a.run(h, call).kind, OutcomeKind::bad_request);
  EXPECT_EQ(a.tool_provider.start_times(), (std::vector<TimePoint>{0, 600 * ms, 1200 * ms}));
  EXPECT_EQ(a.revisions, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(h.log.reflections, (std::vector<std::string>{"100ms-600ms mini #1 on bad_request: success",
                                                         "700ms-1200ms mini #2 on bad_request: success"}));
  EXPECT_EQ(call.finished, 1300 * ms);
}

TEST(ReflectTest, ANonIdempotentToolIsNeverResentAfterATimeout) {
  // With timeout among `on`, a timed-out call of a non-idempotent tool may have been
  // processed: no reflection, no re-send. The same tool answering 400 (not processed) is
  // reflected on and re-sent.
  for (const bool timeout : {true, false}) {
    SCOPED_TRACE(timeout);
    Harness h;
    Response first = bad_arguments();
    if (timeout) {
      first = Response{};
      first.transport = Transport::timeout;
      first.status = 0;
    }
    Agent a(
        h,
        [first](std::size_t i, const Request&) {
          return i == 0 ? Reply{first, 100 * ms} : Reply{tool_ok(), 100 * ms};
        },
        {{completion(157, 40, 0), 500 * ms}}, /*idempotent=*/false);
    ReflectConfig c = reflect_with();
    c.on = {OutcomeKind::bad_request, OutcomeKind::timeout};
    a.pipeline_of(std::make_unique<ReflectStrategy>(c, a.registry.env()));
    Call call;
    const Outcome outcome = a.run(h, call);
    if (timeout) {
      EXPECT_EQ(outcome.kind, OutcomeKind::timeout);
      EXPECT_EQ(a.tool_provider.start_times(), (std::vector<TimePoint>{0}));
      EXPECT_TRUE(a.llm_provider.calls().empty());
    } else {
      EXPECT_EQ(outcome.kind, OutcomeKind::success);
      EXPECT_EQ(a.tool_provider.start_times(), (std::vector<TimePoint>{0, 600 * ms}));
    }
  }
}

TEST(ReflectTest, IncludeAndExcludeToolsChooseWhichToolsReflect) {
  struct Case {
    std::vector<std::string> include;
    std::vector<std::string> exclude;
    bool reflects;
  };
  for (const Case& c : {Case{{"crm_lookup"}, {}, true}, Case{{"send_email"}, {}, false},
                        Case{{}, {"crm_lookup"}, false}, Case{{}, {"send_email"}, true}, Case{{}, {}, true}}) {
    Harness h;
    Agent a(h,
            [](std::size_t i, const Request&) {
              return i == 0 ? Reply{bad_arguments(), 100 * ms} : Reply{tool_ok(), 100 * ms};
            },
            {{completion(157, 40, 0), 500 * ms}});
    ReflectConfig config = reflect_with();
    config.include_tools = c.include;
    config.exclude_tools = c.exclude;
    a.pipeline_of(std::make_unique<ReflectStrategy>(config, a.registry.env()));
    Call call;
    EXPECT_EQ(a.run(h, call).kind, c.reflects ? OutcomeKind::success : OutcomeKind::bad_request);
    EXPECT_EQ(h.log.reflections.size(), c.reflects ? 1U : 0U);
  }
}

TEST(ReflectTest, AFailedReflectionEndsTheCallWithTheToolsError) {
  // The LLM answers 500 at 300 ms: there are no corrected arguments, so the tool is not
  // called again and the call ends with its bad_request.
  Harness h;
  Agent a(h,
          [](std::size_t, const Request&) {
            return Reply{bad_arguments(), 100 * ms};
          },
          {{test::status(500), 200 * ms}});
  a.pipeline_of(std::make_unique<ReflectStrategy>(reflect_with(), a.registry.env()));
  Call call;
  EXPECT_EQ(a.run(h, call).kind, OutcomeKind::bad_request);
  EXPECT_EQ(a.tool_provider.start_times(), (std::vector<TimePoint>{0}));
  EXPECT_EQ(h.log.reflections, (std::vector<std::string>{"100ms-300ms mini #1 on bad_request: server_error"}));
  EXPECT_EQ(call.finished, 300 * ms);
}

TEST(ReflectTest, ErrorTokensAreAQuarterOfTheMessageRoundedUp) {
  Response r;
  ErrorDetails details;
  r.error_details = &details;
  details.error_code = "invalid_arguments";  // 17 bytes
  EXPECT_EQ(error_tokens(r), 5);
  details.error_message = kMessage;  // 28 bytes
  EXPECT_EQ(error_tokens(r), 7);
}

}  // namespace
}  // namespace squall
