// Latency per provider and model from the answered attempts (successful or truncated): a lognormal fitted by
// maximum likelihood (mu and sigma the mean and the sample standard deviation of ln
// latency), written as the loader's lognormal shape (mocks/latency.hpp, sim/scenario/
// latency_reader.hpp): median = exp(mu), p99 = exp(mu + z_0.99 sigma), z_0.99 =
// 2.3263478740408408, the inverse of Rng::lognormal_median_p99. Latency is an attempt's
// end minus its start; an attempt of zero latency has no logarithm and is counted in
// `zero_latency`, not fitted. A provider and model with fewer than 2 fitted samples gets
// no fit (its count is still reported).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mocks/latency.hpp"
#include "replay/attempt_record.hpp"

namespace squall::replay {

struct LatencyFit {
  std::string provider;
  std::string model;                     // the request model; empty when the trace has none
  std::uint64_t samples = 0;             // answered attempts fitted
  std::uint64_t zero_latency = 0;        // answered attempts of zero latency, left out
  double mu_log_s = 0;                   // mean of ln(latency in seconds)
  double sigma_log = 0;                  // sample standard deviation of ln latency
  std::optional<LatencyConfig> latency;  // lognormal median and p99; absent below 2 samples
};

// One fit per (provider, request model) with at least one successful attempt, sorted.
std::vector<LatencyFit> fit_latency(const std::vector<AttemptRecord>& attempts);

}  // namespace squall::replay
