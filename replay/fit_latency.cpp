#include "replay/fit_latency.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace squall::replay {
namespace {

constexpr double kZ99 = 2.3263478740408408;  // the standard normal's 0.99 quantile

Nanos to_nanos(double seconds) {
  const double ns = std::round(seconds * 1e9);
  return static_cast<Nanos>(std::clamp(ns, 1.0, static_cast<double>(kMaxLatency)));
}

void fit_one(LatencyFit& fit, const std::vector<double>& logs) {
  fit.samples = logs.size();
  if (logs.size() < 2) return;
  double sum = 0;
  for (double x : logs) sum += x;
  fit.mu_log_s = sum / static_cast<double>(logs.size());
  double squares = 0;
  for (double x : logs) squares += (x - fit.mu_log_s) * (x - fit.mu_log_s);
  fit.sigma_log = std::sqrt(squares / static_cast<double>(logs.size() - 1));
  LatencyConfig config;
  config.shape = LatencyShape::lognormal;
  config.median = to_nanos(std::exp(fit.mu_log_s));
  config.p99 = std::max(config.median, to_nanos(std::exp(fit.mu_log_s + kZ99 * fit.sigma_log)));
  fit.latency = config;
}

}  // namespace

std::vector<LatencyFit> fit_latency(const std::vector<AttemptRecord>& attempts) {
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::uint64_t>> groups;
  for (const AttemptRecord& a : attempts) {
    if (!answered(a.outcome)) continue;
    auto& [logs, zeros] = groups[{a.provider, a.request_model}];
    const std::int64_t latency_ns = a.end_ns - a.start_ns;
    if (latency_ns <= 0) {
      ++zeros;
      continue;
    }
    logs.push_back(std::log(static_cast<double>(latency_ns) / 1e9));
  }
  std::vector<LatencyFit> out;
  for (const auto& [key, group] : groups) {
    LatencyFit fit;
    fit.provider = key.first;
    fit.model = key.second;
    fit.zero_latency = group.second;
    fit_one(fit, group.first);
    out.push_back(std::move(fit));
  }
  return out;
}

}  // namespace squall::replay
