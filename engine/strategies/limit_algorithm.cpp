#include "engine/strategies/limit_algorithm.hpp"

#include <algorithm>
#include <cmath>

namespace squall {

LimitAlgorithm::LimitAlgorithm(const AdaptiveConcurrencyConfig& config, Rng& rng)
    : config_(config), rng_(rng), estimate_(config.initial_limit), slow_start_(config.slow_start) {
  if (config_.algorithm == LimitAlgorithmKind::vegas) reset_probe_jitter();
}

std::int32_t LimitAlgorithm::log10_root(std::int32_t limit) {
  return std::max<std::int32_t>(1, static_cast<std::int32_t>(std::log10(std::max(limit, 1))));
}

double LimitAlgorithm::clamp(double limit) const {
  return std::clamp(limit, static_cast<double>(config_.min_limit), static_cast<double>(config_.max_limit));
}

void LimitAlgorithm::reset_probe_jitter() { probe_jitter_ = 0.5 + 0.5 * rng_.uniform01(); }

bool LimitAlgorithm::update(const LimitSample& sample, bool may_grow) {
  return config_.algorithm == LimitAlgorithmKind::aimd ? aimd(sample, may_grow) : vegas(sample, may_grow);
}

bool LimitAlgorithm::aimd(const LimitSample& s, bool may_grow) {
  const std::int32_t current = limit();
  if (s.dropped || s.rtt > config_.timeout) {
    // AIMDLimit: at least 1 down, so a ratio close to 1 still decreases a small limit.
    const auto scaled = static_cast<std::int32_t>(current * config_.backoff_ratio);
    estimate_ = std::max(config_.min_limit, std::min(current - 1, scaled));
    growth_credit_ = 0;
    slow_start_ = false;
    return true;
  }
  if (!may_grow || s.in_flight * 2 < current) return false;  // cooling down, or app-limited
  if (config_.growth == LimitGrowth::per_limit && !slow_start_ && ++growth_credit_ < current) return false;
  growth_credit_ = 0;
  estimate_ = std::min(config_.max_limit, current + 1);
  return false;
}

bool LimitAlgorithm::vegas(const LimitSample& s, bool may_grow) {
  const Nanos rtt = std::max<Nanos>(s.rtt, 1);  // VegasLimit requires rtt > 0
  if (probe_jitter_ * config_.probe_multiplier * estimate_ <= static_cast<double>(++probe_count_)) {
    reset_probe_jitter();
    probe_count_ = 0;
    rtt_noload_ = rtt;
    return false;
  }
  if (rtt_noload_ == 0 || rtt < rtt_noload_) {
    rtt_noload_ = rtt;
    return false;
  }
  const std::int32_t lg = log10_root(limit());
  const double queue = std::ceil(estimate_ * (1 - static_cast<double>(rtt_noload_) / static_cast<double>(rtt)));
  double next = estimate_;
  bool decrease = false;
  if (s.dropped) {
    next = estimate_ - lg;
    decrease = true;
  } else if (s.in_flight * 2 < estimate_) {
    return false;  // app-limited: no upward drift
  } else if (queue <= lg) {
    next = may_grow ? estimate_ + 6 * lg : estimate_;
  } else if (queue < 3 * lg) {
    next = may_grow ? estimate_ + lg : estimate_;
  } else if (queue > 6 * lg) {
    next = estimate_ - lg;
    decrease = true;
  }
  estimate_ = (1 - config_.smoothing) * estimate_ + config_.smoothing * clamp(next);
  return decrease;
}

}  // namespace squall
