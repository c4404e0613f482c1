// Valid scenarios: every key reaches its field, and absent keys take the documented
// defaults of the config structs.
#include <gtest/gtest.h>

#include "sim/corpora.hpp"
#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

Scenario load_ok(const std::string& file) {
  LoadResult result = load_scenario(file);
  EXPECT_EQ(result.errors, std::vector<ValidationError>{});
  EXPECT_TRUE(result.scenario.has_value());
  return result.scenario ? std::move(*result.scenario) : Scenario{};
}

void expect_same_latency(const LatencyConfig& actual, const LatencyConfig& expected) {
  EXPECT_EQ(actual.shape, expected.shape);
  EXPECT_EQ(actual.value, expected.value);
  EXPECT_EQ(actual.mean, expected.mean);
  EXPECT_EQ(actual.median, expected.median);
  EXPECT_EQ(actual.p99, expected.p99);
}

TEST(ScenarioLoaderTest, MinimalScenarioTakesEveryDefault) {
  const std::string file = test::data_path("minimal.json");
  const Scenario s = load_ok(file);
  EXPECT_EQ(s.name, "minimal");
  EXPECT_EQ(s.description, "");
  EXPECT_EQ(s.seed, 1u);
  EXPECT_EQ(s.duration, kMinute);
  EXPECT_EQ(s.source, file);

  const ArrivalConfig arrivals;
  EXPECT_EQ(s.workload.arrivals.process, arrivals.process);
  EXPECT_EQ(s.workload.arrivals.rate_per_s, arrivals.rate_per_s);
  EXPECT_TRUE(s.workload.arrivals.bursts.empty());
  EXPECT_FALSE(s.workload.arrivals.max_tasks.has_value());
  ASSERT_EQ(s.workload.tasks.size(), 1u);
  const TaskTemplate task;
  EXPECT_EQ(s.workload.tasks[0].weight, task.weight);
  EXPECT_EQ(s.workload.tasks[0].deadline, task.deadline);
  ASSERT_EQ(s.workload.tasks[0].steps.size(), 1u);
  const StepConfig& step = s.workload.tasks[0].steps[0];
  EXPECT_EQ(step.tool, "llm");
  EXPECT_FALSE(step.query_from.has_value());
  EXPECT_EQ(step.prompt_tokens, StepConfig{}.prompt_tokens);
  EXPECT_EQ(step.max_output_tokens, StepConfig{}.max_output_tokens);
  EXPECT_TRUE(s.workload.queries.empty());

  ASSERT_EQ(s.providers.size(), 1u);
  EXPECT_EQ(s.providers[0].name, "llm");
  EXPECT_TRUE(s.providers[0].faults.empty());
  const auto& llm = std::get<LlmConfig>(s.providers[0].spec);
  const LlmConfig defaults;
  EXPECT_EQ(llm.model, "llm");  // defaults to the provider's name
  EXPECT_EQ(llm.price_per_mtok.input, defaults.price_per_mtok.input);
  EXPECT_EQ(llm.price_per_mtok.output, defaults.price_per_mtok.output);
  EXPECT_EQ(llm.context_window, defaults.context_window);
  expect_same_latency(llm.time_to_first_token, defaults.time_to_first_token);
  EXPECT_EQ(llm.tokens_per_second, defaults.tokens_per_second);
  EXPECT_EQ(llm.mean_output_tokens, defaults.mean_output_tokens);
  EXPECT_TRUE(s.policy.empty());
  EXPECT_TRUE(s.thresholds.empty());
}

TEST(ScenarioLoaderTest, FullScenariosPassTheCorpusChecksToo) {
  // What `squall validate` runs after the loader: the corpora load and every query's
  // ground truth names a document of them. The fixtures that set every key must be valid
  // scenarios, not only loadable ones.
  for (const char* name : {"full.json", "full-tools.json"}) {
    SCOPED_TRACE(name);
    const Scenario s = load_ok(test::data_path(name));
    EXPECT_NO_THROW(check_ground_truth(s, load_corpora(s)));
  }
}

TEST(ScenarioLoaderTest, FullToolsScenarioRelaxesTheVectorSearch) {
  // relax_threshold applies to vector_search providers only, so its every key is set on
  // full-tools.json's vector tool.
  const Scenario s = load_ok(test::data_path("full-tools.json"));
  const auto& relax = std::get<RelaxThresholdConfig>(s.policy.at("kb").at(0));
  EXPECT_EQ(relax.initial, 0.9);
  EXPECT_EQ(relax.step, 0.05);
  EXPECT_EQ(relax.floor, 0.6);
  EXPECT_FALSE(relax.keyword);
}

TEST(ScenarioLoaderTest, FullScenarioSetsEveryField) {
  const Scenario s = load_ok(test::data_path("full.json"));
  EXPECT_EQ(s.name, "full");
  EXPECT_EQ(s.description, "Every field set.");
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.duration, 15 * kMinute);
  ASSERT_EQ(s.quota_groups.size(), 1u);
  EXPECT_EQ(s.quota_groups[0].name, "openai-key");
  EXPECT_EQ(s.quota_groups[0].requests_per_minute, 100000);
  EXPECT_EQ(s.quota_groups[0].tokens_per_minute, 100000000);
  EXPECT_TRUE(s.quota_groups[0].rejected_requests_count);

  const ArrivalConfig& arrivals = s.workload.arrivals;
  EXPECT_EQ(arrivals.process, ArrivalProcess::constant);
  EXPECT_EQ(arrivals.rate_per_s, 2.5);
  ASSERT_EQ(arrivals.bursts.size(), 2u);
  EXPECT_EQ(arrivals.bursts[0].from, 2 * kMinute);
  EXPECT_EQ(arrivals.bursts[0].to, 6 * kMinute);
  EXPECT_EQ(arrivals.bursts[0].rate_per_s, 6.0);
  EXPECT_EQ(arrivals.bursts[1].to, 450 * kSecond);  // "7.5m"
  EXPECT_EQ(arrivals.max_tasks, 500);

  ASSERT_EQ(s.workload.tasks.size(), 2u);
  const TaskTemplate& research = s.workload.tasks[0];
  EXPECT_EQ(research.name, "research");
  EXPECT_EQ(research.weight, 3.0);
  EXPECT_EQ(research.deadline, 30 * kSecond);
  ASSERT_EQ(research.steps.size(), 2u);
  EXPECT_EQ(research.steps[0].tool, "search");
  EXPECT_EQ(research.steps[0].query_from, "companies");
  EXPECT_EQ(research.steps[1].tool, "gpt");
  EXPECT_EQ(research.steps[1].prompt_tokens, 1200);
  EXPECT_EQ(research.steps[1].max_output_tokens, 400);
  const std::vector<PoolQuery>& companies = s.workload.queries.at("companies");
  ASSERT_EQ(companies.size(), 2u);
  EXPECT_EQ(companies[0].text, "\"Acme Corp\" annual report 2023");
  EXPECT_EQ(companies[0].paraphrase, "2023 report annual corp acme");
  EXPECT_FALSE(companies[0].has_ground_truth());
  EXPECT_EQ(companies[1].text, "Acme leadership");
  EXPECT_EQ(companies[1].rewrite, "Acme Corp executive team");
  EXPECT_EQ(companies[1].paraphrase, "leadership acme");
  EXPECT_EQ(companies[1].relevant, std::vector<std::string>{"https://example.com/acme-team"});

  // Sorted by name, whatever the file's order ("search" comes first there).
  ASSERT_EQ(s.providers.size(), 2u);
  EXPECT_EQ(s.providers[0].name, "gpt");
  EXPECT_EQ(s.providers[1].name, "search");

  const auto& llm = std::get<LlmConfig>(s.providers[0].spec);
  EXPECT_EQ(llm.model, "gpt-4.1");
  EXPECT_EQ(llm.price_per_mtok.input, 2.0);
  EXPECT_EQ(llm.price_per_mtok.output, 8.0);
  EXPECT_EQ(llm.context_window, 1'000'000);
  EXPECT_EQ(llm.time_to_first_token.shape, LatencyShape::exponential);
  EXPECT_EQ(llm.time_to_first_token.mean, 400 * kMillisecond);
  EXPECT_EQ(llm.tokens_per_second, 120.5);
  EXPECT_EQ(llm.mean_output_tokens, 250);
  EXPECT_EQ(llm.rewrite_success_rate, 0.8);

  const auto& search = std::get<WebSearchConfig>(s.providers[1].spec);
  EXPECT_EQ(search.corpus, "corpus.jsonl");  // as written; sim::World resolves it
  EXPECT_EQ(search.latency.shape, LatencyShape::lognormal);
  EXPECT_EQ(search.latency.median, 180 * kMillisecond);
  EXPECT_EQ(search.latency.p99, 1'200 * kMillisecond);
  EXPECT_EQ(search.max_results, 5);

  const auto& faults = s.providers[1].faults;
  ASSERT_EQ(faults.size(), 13u);  // 12 of its own, then the outage's
  EXPECT_EQ(faults[0].kind, FaultKind::rate_limited);
  EXPECT_EQ(faults[0].probability, 0.3);
  EXPECT_EQ(faults[0].from, 2 * kMinute);
  EXPECT_EQ(faults[0].to, 6 * kMinute);
  EXPECT_EQ(faults[0].retry_after, "1.5");  // "1.5s" as delta-seconds
  EXPECT_EQ(faults[0].first_call, 1u);
  EXPECT_EQ(faults[0].last_call, UINT64_MAX);
  EXPECT_EQ(faults[1].first_call, 3u);
  EXPECT_EQ(faults[1].last_call, 7u);
  EXPECT_EQ(faults[1].retry_after, "soon");  // the raw header, verbatim
  EXPECT_EQ(faults[1].from, 0);
  EXPECT_EQ(faults[1].to, kNever);
  EXPECT_EQ(faults[2].kind, FaultKind::overloaded);
  EXPECT_EQ(faults[2].status, 503);
  ASSERT_TRUE(faults[2].latency.has_value());
  EXPECT_EQ(faults[2].latency->shape, LatencyShape::constant);
  EXPECT_EQ(faults[2].latency->value, 2 * kMillisecond);
  EXPECT_EQ(faults[3].kind, FaultKind::server_error);
  EXPECT_EQ(faults[3].status, 502);
  EXPECT_FALSE(faults[3].latency.has_value());
  EXPECT_EQ(faults[4].kind, FaultKind::timeout);
  EXPECT_EQ(faults[4].to, kMinute);
  EXPECT_FALSE(faults[4].status.has_value());
  EXPECT_EQ(faults[5].kind, FaultKind::empty);
  EXPECT_EQ(faults[5].from, 10 * kMinute);
  EXPECT_FALSE(faults[5].retry_after.has_value());
  EXPECT_EQ(faults[6].kind, FaultKind::client_error);
  EXPECT_EQ(faults[6].status, 422);
  EXPECT_EQ(faults[7].kind, FaultKind::throttled_empty);
  EXPECT_EQ(faults[7].flap_period, 10 * kSecond);
  EXPECT_EQ(faults[7].flap_on, 5 * kSecond);
  EXPECT_EQ(faults[8].retry_after_form, RetryAfterForm::http_date);
  EXPECT_EQ(faults[8].retry_after_delay, 2 * kSecond);
  EXPECT_FALSE(faults[8].retry_after.has_value());  // written per answer, as a date
  EXPECT_EQ(faults[9].kind, FaultKind::masked_error);
  EXPECT_EQ(faults[10].kind, FaultKind::latency_spike);
  EXPECT_EQ(faults[11].kind, FaultKind::brownout);
  EXPECT_EQ(faults[11].multiplier, 3);
  EXPECT_EQ(faults[12].kind, FaultKind::overloaded);
  EXPECT_EQ(faults[12].outage, "us-east-1");
  EXPECT_EQ(faults[12].from, 3 * kMinute);
  EXPECT_EQ(s.providers[0].faults.size(), 2u);  // gpt: its stream_cut, then the outage
  EXPECT_EQ(s.providers[0].faults[0].after_tokens, 40);
  EXPECT_EQ(s.providers[0].faults[1].outage, "us-east-1");
  EXPECT_EQ(s.start_unix_seconds, 1'638'891'000);  // 2021-12-07T15:30:00Z

  const auto& search_policy = s.policy.at("search");
  ASSERT_EQ(search_policy.size(), 9u);
  const auto& timeout = std::get<TimeoutConfig>(search_policy[0]);
  EXPECT_EQ(timeout.per_attempt, 10 * kSecond);
  EXPECT_EQ(timeout.total, 25 * kSecond);
  const auto& retry = std::get<RetryConfig>(search_policy[1]);
  EXPECT_EQ(retry.max_attempts, 4);
  EXPECT_EQ(retry.retry_on, (std::vector{OutcomeKind::timeout, OutcomeKind::rate_limited}));
  EXPECT_EQ(retry.backoff, Backoff::exponential);
  EXPECT_EQ(retry.base_delay, 100 * kMillisecond);
  EXPECT_EQ(retry.multiplier, 3.0);
  EXPECT_EQ(retry.max_delay, 2 * kSecond);
  EXPECT_EQ(retry.jitter, Jitter::equal);
  EXPECT_TRUE(retry.honour_retry_after);
  EXPECT_EQ(retry.max_retry_after, 30 * kSecond);
  const auto& breaker = std::get<CircuitBreakerConfig>(search_policy[2]);
  EXPECT_EQ(breaker.failure_threshold, 7);
  EXPECT_EQ(breaker.open_duration, 45 * kSecond);
  EXPECT_EQ(breaker.half_open_probes, 2);
  EXPECT_EQ(breaker.failure_on, (std::vector{OutcomeKind::server_error, OutcomeKind::overloaded}));
  const auto& windowed = std::get<CircuitBreakerConfig>(search_policy[8]);
  ASSERT_TRUE(windowed.sliding_window.has_value());
  EXPECT_EQ(windowed.sliding_window->type, SlidingWindowType::count_based);
  EXPECT_EQ(windowed.sliding_window->size, 50);
  EXPECT_EQ(windowed.failure_rate_threshold_ppm, 400'000);
  EXPECT_EQ(windowed.minimum_number_of_calls, 20);
  EXPECT_EQ(windowed.slow_call_rate_threshold_ppm, 800'000);
  EXPECT_EQ(windowed.slow_call_duration_threshold, 5 * kSecond);
  EXPECT_EQ(windowed.open_duration_multiplier, 2.0);
  EXPECT_EQ(windowed.max_open_duration, 5 * kMinute);
  const auto& simplify = std::get<SimplifyQueryConfig>(search_policy[3]);
  EXPECT_EQ(simplify.steps, (std::vector{SimplifyStep::drop_years, SimplifyStep::drop_filler_words}));
  EXPECT_EQ(simplify.filler_words, (std::vector<std::string>{"annual", "report"}));
  const auto& cache = std::get<CacheConfig>(search_policy[4]);
  EXPECT_EQ(cache.ttl, 5 * kMinute);
  EXPECT_EQ(cache.max_entries, 50);
  EXPECT_EQ(cache.stale_if_error, kHour);
  EXPECT_EQ(cache.stale_on, (std::vector{OutcomeKind::timeout, OutcomeKind::server_error}));
  EXPECT_EQ(cache.cache_empty, 30 * kSecond);
  const auto& rewrite = std::get<RewriteQueryConfig>(search_policy[5]);
  EXPECT_EQ(rewrite.provider, "gpt");
  EXPECT_EQ(rewrite.prompt_tokens, 150);
  EXPECT_EQ(rewrite.max_output_tokens, 60);
  EXPECT_EQ(rewrite.max_rewrites, 2);
  const auto& budget = std::get<BudgetConfig>(s.policy.at("gpt").at(0));
  EXPECT_EQ(budget.max_tokens, 20'000);
  EXPECT_EQ(budget.max_cost_usd, 0.25);
  const auto& fibonacci = std::get<RetryConfig>(s.policy.at("gpt").at(1));
  EXPECT_EQ(fibonacci.backoff, Backoff::fibonacci);
  EXPECT_EQ(fibonacci.jitter, Jitter::proportional);
  EXPECT_EQ(fibonacci.jitter_range, (JitterRange{0.5, 1.5}));
  const auto& grpc = std::get<RetryBudgetConfig>(search_policy[6]);
  EXPECT_EQ(grpc.mode, RetryBudgetMode::grpc);
  EXPECT_EQ(grpc.max_milli_tokens, 5000);
  EXPECT_EQ(grpc.token_ratio_milli, 200);
  EXPECT_EQ(grpc.failure_on, std::vector<OutcomeKind>{OutcomeKind::timeout});
  const auto& throttling = std::get<AdaptiveThrottlingConfig>(search_policy[7]);
  EXPECT_EQ(throttling.window, 90 * kSecond);
  EXPECT_EQ(throttling.k, 1.5);
  EXPECT_EQ(throttling.reject_on, std::vector<OutcomeKind>{OutcomeKind::rate_limited});
  const auto& envoy = std::get<RetryBudgetConfig>(s.policy.at("gpt").at(2));
  EXPECT_EQ(envoy.mode, RetryBudgetMode::envoy);
  EXPECT_EQ(envoy.budget_percent, 25.0);
  EXPECT_EQ(envoy.min_retry_concurrency, 2);

  ASSERT_EQ(s.thresholds.size(), 5u);
  EXPECT_FALSE(s.thresholds[0].pass_rate);
  EXPECT_EQ(s.thresholds[1].expression, "rate>=0.9");  // k6's object form, with a pass rate
  ASSERT_TRUE(s.thresholds[1].pass_rate);
  EXPECT_EQ(s.thresholds[1].pass_rate->rate, 0.8);
  EXPECT_EQ(s.thresholds[2].metric, "task_latency");
  EXPECT_EQ(s.thresholds[2].expression, "p(99)<20s");
}

TEST(ScenarioLoaderTest, AbsentStrategyFieldsTakeTheirDefaults) {
  Json doc = test::with(test::base_scenario(), "/policy/search",
                        Json::array({Json{{"timeout", Json::object()}}, Json{{"retry", Json::object()}},
                                     Json{{"circuit_breaker", Json::object()}},
                                     Json{{"simplify_query", Json::object()}}, Json{{"cache", Json::object()}}}));
  const LoadResult result = load_scenario_text(doc.dump(), test::kBaseFile);
  ASSERT_EQ(result.errors, std::vector<ValidationError>{});
  const auto& strategies = result.scenario->policy.at("search");
  const TimeoutConfig timeout;
  EXPECT_EQ(std::get<TimeoutConfig>(strategies[0]).per_attempt, timeout.per_attempt);
  EXPECT_EQ(std::get<TimeoutConfig>(strategies[0]).total, timeout.total);
  const RetryConfig retry;
  const auto& r = std::get<RetryConfig>(strategies[1]);
  EXPECT_EQ(r.max_attempts, retry.max_attempts);
  EXPECT_EQ(r.retry_on, retry.retry_on);
  EXPECT_EQ(r.backoff, retry.backoff);
  EXPECT_EQ(r.base_delay, retry.base_delay);
  EXPECT_EQ(r.multiplier, retry.multiplier);
  EXPECT_EQ(r.max_delay, retry.max_delay);
  EXPECT_EQ(r.jitter, retry.jitter);
  EXPECT_EQ(r.honour_retry_after, retry.honour_retry_after);
  EXPECT_EQ(r.max_retry_after, retry.max_retry_after);
  const CircuitBreakerConfig breaker;
  const auto& b = std::get<CircuitBreakerConfig>(strategies[2]);
  EXPECT_EQ(b.failure_threshold, breaker.failure_threshold);
  EXPECT_EQ(b.open_duration, breaker.open_duration);
  EXPECT_EQ(b.half_open_probes, breaker.half_open_probes);
  EXPECT_EQ(b.failure_on, breaker.failure_on);
  const SimplifyQueryConfig simplify;
  EXPECT_EQ(std::get<SimplifyQueryConfig>(strategies[3]).steps, simplify.steps);
  EXPECT_EQ(std::get<SimplifyQueryConfig>(strategies[3]).filler_words, simplify.filler_words);
  const CacheConfig cache;
  const auto& c = std::get<CacheConfig>(strategies[4]);
  EXPECT_EQ(c.ttl, cache.ttl);
  EXPECT_EQ(c.max_entries, cache.max_entries);
  EXPECT_EQ(c.stale_if_error, std::nullopt);
  EXPECT_EQ(c.stale_on, cache.stale_on);
  EXPECT_EQ(c.cache_empty, std::nullopt);
}

TEST(ScenarioLoaderTest, AbsentSearchFieldsAndFaultFieldsTakeTheirDefaults) {
  const LoadResult result = load_scenario_text(test::base_scenario().dump(), test::kBaseFile);
  ASSERT_TRUE(result.scenario.has_value());
  const ProviderConfig& search = result.scenario->providers.at(1);
  const WebSearchConfig defaults;
  expect_same_latency(std::get<WebSearchConfig>(search.spec).latency, defaults.latency);
  EXPECT_EQ(std::get<WebSearchConfig>(search.spec).max_results, defaults.max_results);
  const FaultConfig fault;
  ASSERT_EQ(search.faults.size(), 1u);
  EXPECT_EQ(search.faults[0].from, fault.from);
  EXPECT_EQ(search.faults[0].to, fault.to);
  EXPECT_EQ(search.faults[0].first_call, fault.first_call);
  EXPECT_EQ(search.faults[0].last_call, fault.last_call);
  EXPECT_FALSE(search.faults[0].retry_after.has_value());
  EXPECT_FALSE(search.faults[0].status.has_value());
  EXPECT_FALSE(search.faults[0].latency.has_value());
}

TEST(ScenarioLoaderTest, IntegersMayBeWrittenWithAZeroFraction) {
  // JSON Schema's "integer" accepts 3.0; so does the loader.
  const LoadResult result = load_scenario_text(test::with(test::base_scenario(), "/seed", 7.0).dump(), test::kBaseFile);
  ASSERT_TRUE(result.scenario.has_value());
  EXPECT_EQ(result.scenario->seed, 7u);
}

}  // namespace
}  // namespace squall
