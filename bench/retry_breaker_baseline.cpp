#include "bench/retry_breaker_baseline.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <vector>

#include "engine/runtime/rng.hpp"

namespace squall::bench {
namespace {

enum class EventType : std::uint8_t { arrival, attempt, response };
enum class CallOutcome : std::uint8_t { success, rate_limited, overloaded };

struct Event {
  TimePoint at;
  std::uint64_t seq;
  TimePoint task_started;  // when the event's task arrived, for its end-to-end latency
  std::uint32_t task;
  EventType type;
  CallOutcome outcome;  // response events: the call's outcome
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

// Nearest rank (reports/trend.hpp) of an integer percentile among n samples:
// max(1, ceil(p * n / 100)).
std::size_t rank_of(std::size_t p, std::size_t n) { return std::max<std::size_t>(1, (p * n + 99) / 100); }

}  // namespace

BaselineResult run_baseline(const BaselineModel& m, std::uint64_t seed) {
  Xoshiro256 rng(seed);
  BaselineResult result;
  std::vector<std::int32_t> attempts(static_cast<std::size_t>(m.tasks), 0);
  std::vector<Nanos> latency;
  latency.reserve(attempts.size());
  std::vector<Event> storage;
  storage.reserve(1 << 16);
  std::priority_queue<Event, std::vector<Event>, Later> queue(Later{}, std::move(storage));
  std::uint64_t seq = 0;
  Breaker breaker;
  const double mean_gap_ns = 1e9 / m.arrivals_per_s;

  auto push = [&](TimePoint at, TimePoint task_started, std::uint32_t task, EventType type,
                  CallOutcome outcome = CallOutcome::success) {
    queue.push(Event{at, seq++, task_started, task, type, outcome});
  };
  auto open_breaker = [&](TimePoint now) {
    breaker.state = Breaker::open;
    breaker.open_until = now + static_cast<Nanos>(m.open_duration_ms * 1e6);
    breaker.consecutive_failures = 0;
    breaker.probes = 0;
    ++result.breaker_opened;
  };
  auto finish = [&](const Event& e) { latency.push_back(e.at - e.task_started); };
  const bool breaker_on = m.circuit_breaker;

  TimePoint next_arrival = std::llround(rng.exponential(mean_gap_ns));
  std::uint32_t arrived = 0;
  push(next_arrival, next_arrival, 0, EventType::arrival);

  while (!queue.empty()) {
    const Event e = queue.top();
    queue.pop();
    const TimePoint now = e.at;
    switch (e.type) {
      case EventType::arrival: {
        push(now, now, e.task, EventType::attempt);
        ++arrived;
        result.peak_tasks_in_flight = std::max<std::uint64_t>(result.peak_tasks_in_flight, arrived - latency.size());
        if (arrived < m.tasks) {
          const TimePoint at = now + std::llround(rng.exponential(mean_gap_ns));
          push(at, at, arrived, EventType::arrival);
        }
        break;
      }
      case EventType::attempt: {
        if (breaker_on && breaker.state == Breaker::open && now >= breaker.open_until)
          breaker.state = Breaker::half_open;
        const bool admitted = breaker.state == Breaker::closed ||
                              (breaker.state == Breaker::half_open && breaker.probes < m.half_open_probes);
        if (!admitted) {  // circuit_open is not retried: the task fails fast
          ++result.failed_circuit_open;
          finish(e);
          break;
        }
        if (breaker.state == Breaker::half_open) ++breaker.probes;
        ++attempts[e.task];
        ++result.provider_calls;
        const Nanos call_latency = std::llround(rng.exponential(m.mean_latency_ms * 1e6));
        const double u = rng.uniform01();
        const CallOutcome outcome = u < m.rate_limited_probability ? CallOutcome::rate_limited
                                    : u < m.rate_limited_probability + m.overloaded_probability
                                        ? CallOutcome::overloaded
                                        : CallOutcome::success;
        push(now + call_latency, e.task_started, e.task, EventType::response, outcome);
        break;
      }
      case EventType::response: {
        const bool probe = breaker_on && breaker.state == Breaker::half_open;
        if (e.outcome == CallOutcome::success) {
          if (probe) breaker.state = Breaker::closed;
          breaker.consecutive_failures = 0;
          ++result.calls_succeeded;
          ++result.succeeded;
          finish(e);
          break;
        }
        const bool rate_limited = e.outcome == CallOutcome::rate_limited;
        ++(rate_limited ? result.calls_rate_limited : result.calls_overloaded);
        if (!breaker_on) {
          // no breaker: failures only count toward the task's attempts
        } else if (probe) {
          open_breaker(now);
        } else if (breaker.state == Breaker::closed && ++breaker.consecutive_failures >= m.failure_threshold) {
          open_breaker(now);
        }
        const std::int32_t n = attempts[e.task];
        if (n >= m.max_attempts) {
          ++(rate_limited ? result.failed_rate_limited : result.failed_overloaded);
          finish(e);
          break;
        }
        const double capped = std::min(m.max_delay_ms, m.base_delay_ms * std::pow(2.0, n - 1));
        push(now + std::llround(rng.uniform01() * capped * 1e6), e.task_started, e.task, EventType::attempt);
        break;
      }
    }
  }

  // p50, p90, p99 in ascending order, each selected above the previous one.
  const std::size_t n = latency.size();
  if (n > 0) {
    const auto select = [&](std::size_t placed_rank, std::size_t rank) {
      if (rank > placed_rank) {  // else that rank is placed already
        std::nth_element(latency.begin() + static_cast<std::ptrdiff_t>(placed_rank),
                         latency.begin() + static_cast<std::ptrdiff_t>(rank - 1), latency.end());
      }
      return latency[rank - 1];
    };
    const std::size_t r50 = rank_of(50, n);
    const std::size_t r90 = rank_of(90, n);
    const std::size_t r99 = rank_of(99, n);
    result.task_latency_p50 = select(0, r50);
    result.task_latency_p90 = select(r50, r90);
    result.task_latency_p99 = select(r90, r99);
  }
  return result;
}

}  // namespace squall::bench
