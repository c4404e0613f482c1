// WindowSample: the task latencies of one time window (reports/report.hpp, TimeWindow),
// for per-window percentiles in memory bounded by the number of windows, not of tasks.
//
// A window keeps every sample while it has at most kKept of them, and its percentiles
// are then exact. Past that it keeps a bottom-k sample (Cohen and Kaplan, "Summarizing
// data using bottom-k sketches", PODC 2007): the kKept samples whose key hashes lowest,
// keys being task ids hashed by splitmix64. The hash does not depend on the latency, so
// the kept samples are a uniform sample without replacement of the window's; which
// samples are kept depends only on the set of keys, never on their order, so the result
// is deterministic. The p-quantile of such a sample is the window's quantile of a rank
// within about 2*sqrt(p*(1-p)/kKept) of p with 95% confidence: +-3.1 points at the
// median, +-0.6 at p99 for kKept = 1024. The count, max and mean stay exact.
//
// Memory: at most kKept * 16 bytes = 16 KiB a window (24 hours of 10 s windows: at most
// 135 MiB, however many tasks ran); the run-wide latency trends are bounded separately
// (reports/sample_log.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "reports/trend.hpp"

namespace squall {

class WindowSample {
 public:
  static constexpr std::size_t kKept = 1024;

  // Adds the sample of key `key` (a task id: distinct keys, or the sample is no longer
  // uniform). Inline while the window holds at most kKept samples: that is every window
  // of most runs (10 s at 100 tasks per second is 1,000), and such a window needs no
  // hash (see kept_).
  void add(std::uint64_t key, std::int64_t sample) {
    max_ = count_ == 0 ? sample : std::max(max_, sample);
    ++count_;
    sum_ += sample;
    if (kept_.size() < kKept) [[likely]] {
      kept_.emplace_back(key, sample);
      return;
    }
    add_past_bound(key, sample);
  }

  // Room for about `n` samples (at most kKept) before the first add: the recorder
  // expects a window to hold about as many tasks as the one before, and growing a vector
  // from one element by doubling copied each window's samples nine times
  // (bench/README.md). With an eighth more and 32 spare: at a steady Poisson rate a
  // window's count exceeds the one before in about half the windows, which then grew by
  // doubling (a copy of its samples and a block twice the size, 3% of retry-breaker-1m's
  // samples), and exceeds it by more than n/8 + 32 in fewer than 1 in 400 windows for any
  // mean n (the difference of two counts has standard deviation sqrt(2n); the margin is
  // smallest, 2.83 of them, at n = 256).
  void reserve(std::uint64_t n) {
    kept_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n == 0 ? 0 : n + n / 8 + 32, kKept)));
  }

  std::uint64_t count() const { return count_; }
  bool exact() const { return count_ <= kKept; }
  std::int64_t max() const { return max_; }
  // The exact sum of every sample added.
  __extension__ __int128 sum() const { return sum_; }
  // The kept samples, in no particular order.
  std::vector<std::int64_t> kept() const;

 private:
  // The first add past kKept samples: hashes the keys held, then keeps the bottom k.
  void add_past_bound(std::uint64_t key, std::int64_t sample);

  // (key, sample) while at most kKept samples were added: all of them are kept, so which
  // would be kept does not matter yet, and no key is hashed (a splitmix64 per task was
  // most of the cost of add). Past that, (hash of key, sample), a max-heap on the hash.
  std::vector<std::pair<std::uint64_t, std::int64_t>> kept_;
  std::uint64_t count_ = 0;
  std::int64_t max_ = 0;
  __extension__ __int128 sum_ = 0;
};

}  // namespace squall
