#include "reports/seed_summary.hpp"

#include <cassert>

#include "reports/fingerprint.hpp"
#include "reports/json_writer.hpp"
#include "reports/pass_k.hpp"
#include "reports/pass_rate.hpp"
#include "reports/rounding.hpp"

namespace squall {
namespace {

using nlohmann::ordered_json;

}  // namespace

SeedOutcome seed_outcome(const Report& report) {
  SeedOutcome o;
  o.seed = report.seed;
  for (std::size_t i = 0; i < report.thresholds.size(); ++i) {
    if (!report.thresholds[i].passed) o.failed.push_back(i);
  }
  o.passed = o.failed.empty();
  o.tasks = report.tasks.total;
  if (o.tasks > 0) {
    const auto& by = report.tasks.by_status;
    const auto ok = by[index_of(TaskStatus::succeeded)] + by[index_of(TaskStatus::degraded)];
    o.task_success = static_cast<double>(ok) / static_cast<double>(o.tasks);
    o.latency_p99_ms = report.latency.p99_ms;
  }
  o.cost_usd = report.cost.total_usd;
  o.fingerprint = report.fingerprint;
  return o;
}

namespace {

ordered_json optional_number(const std::optional<double>& x, double (*round)(double)) {
  return x ? ordered_json(round(*x)) : ordered_json();
}

double rounded_ms(double ms) { return round_ms(ms); }

}  // namespace

std::vector<std::uint64_t> SeedSummary::failed_seeds(std::size_t index) const {
  std::vector<std::uint64_t> result;
  for (const SeedOutcome& s : seeds) {
    for (const std::size_t f : s.failed) {
      if (f == index) result.push_back(s.seed);
    }
  }
  return result;
}

std::uint64_t SeedSummary::repro_seed() const {
  for (std::size_t i = 0; i < thresholds.size(); ++i) {
    if (!thresholds[i].met) return failed_seeds(i).front();
  }
  return seeds.front().seed;
}

SeedSummary summarize_seeds(std::span<const Threshold> thresholds, std::vector<SeedOutcome> seeds) {
  assert(!seeds.empty());
  SeedSummary summary;
  for (const Threshold& t : thresholds) summary.thresholds.push_back({t.metric, t.expression, t.pass_rate, 0, false});
  for (const SeedOutcome& s : seeds) {
    summary.seeds_passed += s.passed ? 1 : 0;
    for (ThresholdPassRate& t : summary.thresholds) ++t.passed;
    for (const std::size_t f : s.failed) --summary.thresholds[f].passed;
  }
  summary.seeds = std::move(seeds);
  const std::size_t n = summary.seeds.size();
  summary.passed = true;
  for (ThresholdPassRate& t : summary.thresholds) {
    t.met = meets(t.required.value_or(PassRateRequirement{}), t.passed, n);
    summary.passed = summary.passed && t.met;
  }
  summary.pass_k = pass_hat_k(n, summary.seeds_passed);
  return summary;
}

ordered_json seed_summary_json(const SeedSummary& summary) {
  ordered_json j;
  j["count"] = summary.seeds.size();
  ordered_json seeds = ordered_json::array();
  for (const SeedOutcome& s : summary.seeds) seeds.push_back(s.seed);
  j["seeds"] = std::move(seeds);
  j["passed"] = summary.passed;
  j["seeds_passed"] = summary.seeds_passed;
  ordered_json runs = ordered_json::array();
  for (const SeedOutcome& s : summary.seeds) {
    ordered_json run;
    run["seed"] = s.seed;
    run["passed"] = s.passed;
    run["failed_thresholds"] = s.failed;
    run["tasks"] = s.tasks;
    run["task_success"] = optional_number(s.task_success, round_ratio);
    run["latency_ms_p99"] = optional_number(s.latency_p99_ms, rounded_ms);
    run["cost_usd"] = round_usd(s.cost_usd);
    run["fingerprint"] = fingerprint_hex(s.fingerprint);
    runs.push_back(std::move(run));
  }
  j["runs"] = std::move(runs);
  ordered_json thresholds = ordered_json::array();
  for (std::size_t i = 0; i < summary.thresholds.size(); ++i) {
    const ThresholdPassRate& t = summary.thresholds[i];
    ordered_json row;
    row["metric"] = t.metric;
    row["expression"] = t.expression;
    row["pass_rate_required"] = t.required ? ordered_json(to_string(*t.required)) : ordered_json();
    row["seeds_passed"] = t.passed;
    row["pass_rate"] = round_ratio(static_cast<double>(t.passed) / static_cast<double>(summary.seeds.size()));
    row["met"] = t.met;
    row["failed_seeds"] = summary.failed_seeds(i);
    thresholds.push_back(std::move(row));
  }
  j["thresholds"] = std::move(thresholds);
  ordered_json pass_k = ordered_json::array();
  for (std::size_t k = 1; k <= summary.pass_k.size(); ++k) {
    pass_k.push_back(ordered_json{{"k", k}, {"value", round_ratio(summary.pass_k[k - 1])}});
  }
  j["pass_k"] = std::move(pass_k);
  return j;
}

std::string seeds_report_json_text(const Report& first, const SeedSummary& summary) {
  ordered_json j = to_json(first);
  j["seeds"] = seed_summary_json(summary);
  return j.dump(2) + "\n";
}

}  // namespace squall
