#include "bench/retry_breaker_baseline.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <vector>

#include "engine/runtime/rng.hpp"
#include "engine/runtime/time.hpp"

namespace squall::bench {
namespace {

enum class EventType : std::uint8_t { arrival, attempt, response };

struct Event {
  TimePoint at;
  std::uint64_t seq;
  std::uint32_t task;
  EventType type;
  bool failed;  // response events: the call's outcome
};

struct Later {
  bool operator()(const Event& a, const Event& b) const { return a.at != b.at ? a.at > b.at : a.seq > b.seq; }
};

struct Breaker {
  enum State : std::uint8_t { closed, open, half_open } state = closed;
  std::int32_t consecutive_failures = 0;
  TimePoint open_until = 0;
  std::int32_t probes = 0;
};

}  // namespace

BaselineResult run_baseline(const BaselineModel& m, std::uint64_t seed) {
  Xoshiro256 rng(seed);
  BaselineResult result;
  std::vector<std::int32_t> attempts(static_cast<std::size_t>(m.tasks), 0);
  std::vector<Event> storage;
  storage.reserve(1 << 16);
  std::priority_queue<Event, std::vector<Event>, Later> queue(Later{}, std::move(storage));
  std::uint64_t seq = 0;
  Breaker breaker;
  const double mean_gap_ns = 1e9 / m.arrivals_per_s;

  auto push = [&](TimePoint at, std::uint32_t task, EventType type, bool failed = false) {
    queue.push(Event{at, seq++, task, type, failed});
  };
  auto open_breaker = [&](TimePoint now) {
    breaker.state = Breaker::open;
    breaker.open_until = now + static_cast<Nanos>(m.open_duration_ms * 1e6);
    breaker.consecutive_failures = 0;
    breaker.probes = 0;
    ++result.breaker_opened;
  };

  TimePoint next_arrival = std::llround(rng.exponential(mean_gap_ns));
  std::uint32_t arrived = 0;
  push(next_arrival, 0, EventType::arrival);

  while (!queue.empty()) {
    const Event e = queue.top();
    queue.pop();
    const TimePoint now = e.at;
    switch (e.type) {
      case EventType::arrival: {
        push(now, e.task, EventType::attempt);
        if (++arrived < m.tasks) push(now + std::llround(rng.exponential(mean_gap_ns)), arrived, EventType::arrival);
        break;
      }
      case EventType::attempt: {
        if (breaker.state == Breaker::open && now >= breaker.open_until) breaker.state = Breaker::half_open;
        const bool admitted = breaker.state == Breaker::closed ||
                              (breaker.state == Breaker::half_open && breaker.probes < m.half_open_probes);
        if (!admitted) {  // circuit_open is not retried: the task fails fast
          ++result.failed;
          break;
        }
        if (breaker.state == Breaker::half_open) ++breaker.probes;
        ++attempts[e.task];
        ++result.provider_calls;
        const Nanos latency = std::llround(rng.exponential(m.mean_latency_ms * 1e6));
        push(now + latency, e.task, EventType::response, rng.uniform01() < m.failure_probability);
        break;
      }
      case EventType::response: {
        const bool probe = breaker.state == Breaker::half_open;
        if (!e.failed) {
          if (probe) breaker.state = Breaker::closed;
          breaker.consecutive_failures = 0;
          ++result.succeeded;
          break;
        }
        if (probe) {
          open_breaker(now);
        } else if (breaker.state == Breaker::closed && ++breaker.consecutive_failures >= m.failure_threshold) {
          open_breaker(now);
        }
        const std::int32_t n = attempts[e.task];
        if (n >= m.max_attempts) {
          ++result.failed;
          break;
        }
        const double capped = std::min(m.max_delay_ms, m.base_delay_ms * std::pow(2.0, n - 1));
        push(now + std::llround(rng.uniform01() * capped * 1e6), e.task, EventType::attempt);
        break;
      }
    }
  }
  return result;
}

}  // namespace squall::bench
