// One scenario run on many seeds (`run --seeds`, `ci --seeds`): per seed whether it passed
// (every threshold held) and its headline metrics; per threshold the seeds it held on, its
// required pass rate (reports/pass_rate.hpp; none: every seed) and whether that was met;
// pass^k over the seeds (reports/pass_k.hpp), a seed passing when every threshold held on it.
// The verdict: passed when every threshold's requirement is met (exit 0, else 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/report.hpp"
#include "reports/threshold.hpp"

namespace squall {

struct SeedOutcome {
  std::uint64_t seed = 0;
  bool passed = false;                   // every threshold held
  std::vector<std::size_t> failed;       // indices into SeedSummary::thresholds
  std::uint64_t tasks = 0;               // finished tasks
  std::optional<double> task_success;    // (succeeded + degraded) / tasks; none without tasks
  std::optional<double> latency_p99_ms;  // end to end; none without tasks
  double cost_usd = 0;                   // total, failed attempts included
  std::uint64_t fingerprint = 0;
};

struct ThresholdPassRate {
  std::string metric;                           // as written
  std::string expression;                       // as written
  std::optional<PassRateRequirement> required;  // none: every seed
  std::size_t passed = 0;                       // seeds it held on
  bool met = false;
};

struct SeedSummary {
  std::vector<SeedOutcome> seeds;             // in run order
  std::vector<ThresholdPassRate> thresholds;  // in the scenario's order
  std::size_t seeds_passed = 0;
  std::vector<double> pass_k;  // element k-1: pass^k, k = 1..min(seeds, 8)
  bool passed = false;         // every threshold's requirement met

  // Seeds on which threshold `index` failed, in run order.
  std::vector<std::uint64_t> failed_seeds(std::size_t index) const;
  // The seed a repro line runs: the first failed seed of the first threshold whose
  // requirement is not met; the first seed when every requirement is met.
  std::uint64_t repro_seed() const;
};

// One seed's outcome from its report, whose thresholds are the scenario's in order (as
// build_report makes them). Kept instead of the report, so that 10000 seeds hold 10000
// small records, not 10000 reports with their time series.
SeedOutcome seed_outcome(const Report& report);

// `seeds` in run order, each from seed_outcome over the same `thresholds`. Requires at
// least one seed.
SeedSummary summarize_seeds(std::span<const Threshold> thresholds, std::vector<SeedOutcome> seeds);

// The `seeds` section of the JSON report, keys in this order:
//   {count, seeds [s...], passed (bool), seeds_passed,
//    runs [{seed, passed, failed_thresholds [i...], tasks, task_success, latency_ms_p99,
//           cost_usd, fingerprint}],
//    thresholds [{metric, expression, pass_rate_required (">=0.9", or null: every seed),
//                 seeds_passed, pass_rate, met, failed_seeds [s...]}],
//    pass_k [{k, value}]}
// Rates and USD rounded as reports/rounding.hpp says; null where undefined.
nlohmann::ordered_json seed_summary_json(const SeedSummary& summary);

// The JSON report of `run --seeds --out` and `ci --seeds --report json-dir=DIR`: the first
// seed's report (reports/json_writer.hpp) with the `seeds` section last, two-space
// indentation and a final newline.
std::string seeds_report_json_text(const Report& first, const SeedSummary& summary);

}  // namespace squall
