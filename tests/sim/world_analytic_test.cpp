// An analytic check of the whole stack (workload, chaos decorator, retry, recorder): with
// independent failure probability p per call and n attempts in all, no breaker and a
// deadline that never binds,
//   P(task succeeds)       = 1 - p^n
//   E[calls per task]      = sum_{k=1..n} P(K >= k) = sum_{k=0..n-1} p^k = (1 - p^n) / (1 - p)
// and the observed values must lie within 4 standard errors of them.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <cmath>

#include "tests/sim/world_test_support.hpp"

namespace squall {
namespace {

constexpr std::uint64_t kTasks = 20'000;

std::string scenario_json(double p, int n) {
  return fmt::format(R"({{
    "name": "analytic-p{p}-n{n}",
    "duration": "1h",
    "workload": {{
      "arrivals": {{ "process": "constant", "rate_per_s": 50, "max_tasks": {tasks} }},
      "tasks": [ {{ "name": "lookup", "deadline": "10m",
                    "steps": [ {{ "tool": "search", "query_from": "q" }} ] }} ],
      "queries": {{ "q": [ "Acme Corp" ] }}
    }},
    "providers": {{
      "search": {{ "type": "web_search", "corpus": "corpus.jsonl",
                  "latency": {{ "distribution": "constant", "value": "20ms" }},
                  "faults": [ {{ "kind": "server_error", "probability": {p} }} ] }}
    }},
    "policy": {{
      "search": [ {{ "retry": {{ "max_attempts": {n}, "backoff": "constant", "base_delay": "50ms",
                                "jitter": "none", "retry_on": [ "server_error" ] }} }} ]
    }}
  }})",
                     fmt::arg("p", p), fmt::arg("n", n), fmt::arg("tasks", kTasks));
}

struct Expected {
  double success;
  double success_se;
  double calls;
  double calls_se;
};

// P(K = k) = p^(k-1) (1 - p) for k < n and P(K = n) = p^(n-1): the moments give the
// standard errors of the two sample means over kTasks independent tasks.
Expected expected(double p, int n) {
  const double q = 1 - std::pow(p, n);
  double mean = 0;
  double second = 0;
  for (int k = 1; k <= n; ++k) {
    const double pk = k < n ? std::pow(p, k - 1) * (1 - p) : std::pow(p, n - 1);
    mean += k * pk;
    second += k * k * pk;
  }
  const auto tasks = static_cast<double>(kTasks);
  return {q, std::sqrt(q * (1 - q) / tasks), mean, std::sqrt((second - mean * mean) / tasks)};
}

class AnalyticRetryTest : public ::testing::TestWithParam<std::pair<double, int>> {};

TEST_P(AnalyticRetryTest, SuccessRateAndCallsPerTaskMatchTheory) {
  const auto [p, n] = GetParam();
  const Scenario scenario = test::inline_scenario(scenario_json(p, n));
  const Report report = test::run_world(scenario, 2024);
  ASSERT_EQ(report.tasks.total, kTasks);

  const Expected e = expected(p, n);
  EXPECT_NEAR(e.calls, (1 - std::pow(p, n)) / (1 - p), 1e-12);  // the closed form agrees
  const double tasks = static_cast<double>(report.tasks.total);
  const double success = static_cast<double>(test::count(report, TaskStatus::succeeded)) / tasks;
  const double calls = static_cast<double>(test::provider_calls(report)) / tasks;
  // Every failure is the injected server error, never a timeout or anything else.
  EXPECT_EQ(test::count(report, TaskStatus::failed), report.tasks.total - test::count(report, TaskStatus::succeeded));
  EXPECT_NEAR(success, e.success, 4 * e.success_se + 1e-12) << "p=" << p << " n=" << n;
  EXPECT_NEAR(calls, e.calls, 4 * e.calls_se + 1e-12) << "p=" << p << " n=" << n;
}

INSTANTIATE_TEST_SUITE_P(FailureProbabilityAndAttempts, AnalyticRetryTest,
                         ::testing::Values(std::pair{0.2, 1}, std::pair{0.3, 3}, std::pair{0.5, 4}, std::pair{0.7, 2},
                                           std::pair{0.9, 5}));

}  // namespace
}  // namespace squall
