// Synthetic inputs with known answers for the fitting tests, drawn from the project's PRNG.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/runtime/rng.hpp"

namespace squall::replay::testing {

inline constexpr std::int64_t kNsPerS = 1'000'000'000;

struct RatePhase {
  double seconds = 0;
  double rate_per_s = 0;
};

// Event times (ns) of a Poisson process whose rate is constant within each phase, from t0.
inline std::vector<std::int64_t> poisson_events(const std::vector<RatePhase>& phases, std::uint64_t seed,
                                                std::int64_t t0_ns = 0) {
  Xoshiro256 rng(seed);
  std::vector<std::int64_t> times;
  double phase_start = 0;
  for (const RatePhase& phase : phases) {
    double t = phase_start;
    const double end = phase_start + phase.seconds;
    for (;;) {
      t += rng.exponential(1.0 / phase.rate_per_s);
      if (t >= end) break;
      times.push_back(t0_ns + static_cast<std::int64_t>(t * 1e9));
    }
    phase_start = end;
  }
  return times;
}

}  // namespace squall::replay::testing
