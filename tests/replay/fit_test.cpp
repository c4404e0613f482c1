#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "engine/runtime/rng.hpp"
#include "replay/fit_arrivals.hpp"
#include "replay/fit_faults.hpp"
#include "replay/fit_latency.hpp"
#include "replay/grouping.hpp"
#include "replay/replay_fit.hpp"
#include "tests/replay/fit_test_data.hpp"

namespace squall::replay {
namespace {

using testing::kNsPerS;
using testing::poisson_events;

constexpr std::int64_t kOrigin = 1'700'000'000 * kNsPerS;

FitFaultsOptions span_of(std::int64_t seconds_long) {
  FitFaultsOptions options;
  options.origin_ns = kOrigin;
  options.end_ns = kOrigin + seconds_long * kNsPerS;
  return options;
}

double seconds(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }

AttemptRecord attempt_at(std::int64_t start_ns, const std::string& provider, OutcomeKind outcome) {
  AttemptRecord a;
  a.provider = provider;
  a.request_model = "m";
  a.start_ns = start_ns;
  a.end_ns = start_ns + 100'000'000;
  a.outcome = outcome;
  return a;
}

// openai: 5 attempts/s for 180 s, 429 with probability 0.3 in [60 s, 120 s) with a
// Retry-After of 2 s on 3 of 4 of them (4 s on the rest); anthropic: 3 attempts/s with
// 5% server errors throughout.
std::vector<AttemptRecord> incident(std::uint64_t seed) {
  Xoshiro256 rng(seed);
  std::vector<AttemptRecord> out;
  for (std::int64_t t : poisson_events({{180, 5}}, seed, kOrigin)) {
    const bool in_window = t >= kOrigin + 60 * kNsPerS && t < kOrigin + 120 * kNsPerS;
    const bool limited = in_window && rng.bernoulli(0.3);
    out.push_back(attempt_at(t, "openai", limited ? OutcomeKind::rate_limited : OutcomeKind::success));
    if (limited) out.back().retry_after_ns = (rng.uniform_int(4) == 0 ? 4 : 2) * kNsPerS;
  }
  for (std::int64_t t : poisson_events({{180, 3}}, seed + 100, kOrigin)) {
    out.push_back(attempt_at(t, "anthropic", rng.bernoulli(0.05) ? OutcomeKind::server_error : OutcomeKind::success));
  }
  return out;
}

TEST(FitFaults, RecoversARateLimitWindow) {
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    const FaultFit fit = fit_faults(incident(seed), span_of(180));
    EXPECT_EQ(fit.providers, (std::vector<std::string>{"anthropic", "openai"}));
    ASSERT_EQ(fit.windows.size(), 2u) << "seed " << seed;
    const FaultWindowFit& steady = fit.windows[0];
    EXPECT_EQ(steady.provider, "anthropic");
    EXPECT_EQ(steady.from_ns, 0);
    EXPECT_EQ(steady.to_ns, 180 * kNsPerS);
    ASSERT_EQ(steady.rules.size(), 1u);
    EXPECT_EQ(steady.rules[0].fault.kind, FaultKind::server_error);
    EXPECT_NEAR(steady.rules[0].fault.probability, 0.05, 4 * steady.rules[0].standard_error) << "seed " << seed;

    const FaultWindowFit& storm = fit.windows[1];
    EXPECT_EQ(storm.provider, "openai");
    EXPECT_NEAR(seconds(storm.from_ns), 60, 5) << "seed " << seed;
    EXPECT_NEAR(seconds(storm.to_ns), 120, 5) << "seed " << seed;
    ASSERT_EQ(storm.rules.size(), 1u);
    const FittedFaultRule& rule = storm.rules[0];
    EXPECT_EQ(rule.fault.kind, FaultKind::rate_limited);
    EXPECT_NEAR(rule.fault.probability, 0.3, 4 * rule.standard_error) << "seed " << seed;
    EXPECT_EQ(rule.fault.from, storm.from_ns);
    EXPECT_EQ(rule.fault.to, storm.to_ns);
    EXPECT_EQ(rule.retry_after_samples, rule.failures);
    EXPECT_EQ(rule.fault.retry_after_delay, 2 * kNsPerS);
    EXPECT_EQ(rule.fault.retry_after, "2");
    EXPECT_DOUBLE_EQ(rule.fault.probability, static_cast<double>(rule.failures) / static_cast<double>(storm.attempts));
  }
}

TEST(FitFaults, KindsWithoutARuleAreCountedNotFitted) {
  std::vector<AttemptRecord> attempts;
  for (int i = 0; i < 20; ++i) {
    const OutcomeKind kind = i % 4 == 0   ? OutcomeKind::content_filter
                             : i % 4 == 1 ? OutcomeKind::auth_error
                                          : OutcomeKind::success;
    attempts.push_back(attempt_at(kOrigin + i * kNsPerS, "p", kind));
  }
  const FaultFit fit = fit_faults(attempts, span_of(20));
  ASSERT_EQ(fit.windows.size(), 1u);
  EXPECT_EQ(fit.windows[0].unmodelled, 5u);
  ASSERT_EQ(fit.windows[0].rules.size(), 1u);
  EXPECT_EQ(fit.windows[0].rules[0].fault.kind, FaultKind::client_error);
  EXPECT_EQ(fit.windows[0].rules[0].fault.status, 401);
  EXPECT_DOUBLE_EQ(fit.windows[0].rules[0].fault.probability, 0.25);
  EXPECT_FALSE(fault_kind_of(OutcomeKind::success).has_value());
}

TEST(FitFaults, ASpentQuotaIsFittedAsA429WithItsCode) {
  // Two outcomes of one status: the fitted rules keep them apart, so the fitted world's
  // quota answers classify quota_exhausted again and its rate limits rate_limited.
  std::vector<AttemptRecord> attempts;
  for (int i = 0; i < 20; ++i) {
    const OutcomeKind kind = i % 4 == 0   ? OutcomeKind::quota_exhausted
                             : i % 4 == 1 ? OutcomeKind::rate_limited
                                          : OutcomeKind::success;
    attempts.push_back(attempt_at(kOrigin + i * kNsPerS, "p", kind));
  }
  const FaultFit fit = fit_faults(attempts, span_of(20));
  ASSERT_EQ(fit.windows.size(), 1u);
  EXPECT_EQ(fit.windows[0].unmodelled, 0u);
  ASSERT_EQ(fit.windows[0].rules.size(), 2u);
  const FaultConfig& limited = fit.windows[0].rules[0].fault;  // in outcome-kind order
  const FaultConfig& quota = fit.windows[0].rules[1].fault;
  EXPECT_EQ(limited.kind, FaultKind::rate_limited);
  EXPECT_FALSE(limited.error_code.has_value());
  EXPECT_EQ(quota.kind, FaultKind::rate_limited);
  EXPECT_EQ(quota.error_code, std::optional<std::string>("insufficient_quota"));
  EXPECT_DOUBLE_EQ(quota.probability, 0.25);
}

TEST(FitLatency, RecoversALognormal) {
  Xoshiro256 rng(21);
  std::vector<AttemptRecord> attempts;
  const double sigma = Rng::lognormal_sigma(0.4, 2.0);  // median 400 ms, p99 2 s
  for (int i = 0; i < 4000; ++i) {
    AttemptRecord a = attempt_at(kOrigin + i * kNsPerS, "openai", OutcomeKind::success);
    a.end_ns = a.start_ns + static_cast<std::int64_t>(rng.lognormal(0.4, sigma) * 1e9);
    attempts.push_back(a);
  }
  attempts.push_back(attempt_at(kOrigin, "openai", OutcomeKind::timeout));  // failures are not fitted
  attempts.push_back(attempt_at(kOrigin, "other", OutcomeKind::success));
  attempts.back().end_ns = attempts.back().start_ns;  // zero latency: counted, left out
  const std::vector<LatencyFit> fits = fit_latency(attempts);
  ASSERT_EQ(fits.size(), 2u);
  EXPECT_EQ(fits[0].provider, "openai");
  EXPECT_EQ(fits[0].samples, 4000u);
  ASSERT_TRUE(fits[0].latency.has_value());
  EXPECT_EQ(fits[0].latency->shape, LatencyShape::lognormal);
  EXPECT_NEAR(seconds(fits[0].latency->median), 0.4, 0.4 * 0.03);
  EXPECT_NEAR(seconds(fits[0].latency->p99), 2.0, 2.0 * 0.06);
  EXPECT_NEAR(fits[0].sigma_log, sigma, sigma * 0.04);
  EXPECT_EQ(fits[1].provider, "other");
  EXPECT_EQ(fits[1].zero_latency, 1u);
  EXPECT_FALSE(fits[1].latency.has_value());
}

Grouping tasks_at(const std::vector<std::int64_t>& starts) {
  Grouping grouping;
  for (std::int64_t t : starts) {
    ReplayTask task;
    task.start_ns = t;
    task.end_ns = t;
    grouping.tasks.push_back(task);
  }
  return grouping;
}

// One task per attempt, each with the given tokens and cost.
ReplayFit fit_costs(const std::vector<std::array<double, 3>>& input_output_cost) {
  TraceData data;
  std::int64_t t = 0;
  for (const auto& [in, out, cost] : input_output_cost) {
    AttemptRecord a;
    a.trace_id = "t" + std::to_string(t);
    a.provider = "gpt";
    a.operation = "chat";
    a.start_ns = t * 1'000'000'000;
    a.end_ns = a.start_ns + 500'000'000;
    a.input_tokens = static_cast<std::int64_t>(in);
    a.output_tokens = static_cast<std::int64_t>(out);
    a.cost_usd = cost;
    data.attempts.push_back(a);
    ++t;
  }
  return fit_replay(data, group_attempts(data));
}

TEST(FitPrice, RecoversPricesPerMillionTokensFromRecordedCosts) {
  // gpt-4o: 2.5 USD in, 10 USD out per million.
  std::vector<std::array<double, 3>> rows;
  for (const auto& [in, out] : std::vector<std::pair<double, double>>{{800, 90}, {1200, 300}, {400, 20}, {2000, 150}})
    rows.push_back({in, out, (in * 2.5 + out * 10.0) / 1e6});
  const ReplayFit fit = fit_costs(rows);
  ASSERT_EQ(fit.providers.size(), 1U);
  ASSERT_TRUE(fit.providers[0].price.has_value());
  EXPECT_NEAR(fit.providers[0].price->input, 2.5, 1e-9);
  EXPECT_NEAR(fit.providers[0].price->output, 10.0, 1e-9);
  EXPECT_EQ(fit.providers[0].price_samples, 4U);
}

TEST(FitPrice, ACostOfOutputAloneKeepsTheInputPriceAtZeroAndOneSampleFitsNothing) {
  // Output billed only, tokens in proportion: the two-price fit is degenerate.
  const ReplayFit output_only = fit_costs({{100, 10, 10 * 4e-6}, {200, 20, 20 * 4e-6}, {300, 30, 30 * 4e-6}});
  ASSERT_TRUE(output_only.providers[0].price.has_value());
  EXPECT_GE(output_only.providers[0].price->input, 0);
  EXPECT_GE(output_only.providers[0].price->output, 0);
  // Whatever the split, the fitted prices bill what was recorded.
  EXPECT_NEAR(100 * output_only.providers[0].price->input + 10 * output_only.providers[0].price->output, 40, 1e-6);
  EXPECT_FALSE(fit_costs({{100, 10, 1e-4}}).providers[0].price.has_value());
}

TEST(FitArrivals, ASurgeIsABurstOverTheBaseRate) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const auto starts = poisson_events({{60, 2}, {30, 10}, {60, 2}}, seed, kOrigin);
    const ArrivalFit fit = fit_arrivals(tasks_at(starts), kOrigin);
    EXPECT_EQ(fit.tasks, starts.size());
    EXPECT_EQ(fit.arrivals.process, ArrivalProcess::poisson);
    EXPECT_NEAR(fit.arrivals.rate_per_s, 2, 0.4) << "seed " << seed;
    // The surge, and the other 2/s stretch at its own (near) rate.
    ASSERT_EQ(fit.arrivals.bursts.size(), 2u) << "seed " << seed;
    const Burst& surge = fit.arrivals.bursts[0].rate_per_s > 5 ? fit.arrivals.bursts[0] : fit.arrivals.bursts[1];
    EXPECT_NEAR(seconds(surge.from), 60, 3) << "seed " << seed;
    EXPECT_NEAR(seconds(surge.to), 90, 3) << "seed " << seed;
    EXPECT_NEAR(surge.rate_per_s, 10, 2) << "seed " << seed;
  }
}

TEST(FitArrivals, ASteadyStreamHasNoBurst) {
  const ArrivalFit fit = fit_arrivals(tasks_at(poisson_events({{300, 4}}, 8, kOrigin)), kOrigin);
  EXPECT_NEAR(fit.arrivals.rate_per_s, 4, 0.4);
  EXPECT_TRUE(fit.arrivals.bursts.empty());
  EXPECT_TRUE(fit_arrivals(tasks_at({}), kOrigin).arrivals.bursts.empty());
}

}  // namespace
}  // namespace squall::replay
