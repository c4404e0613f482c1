// retry_breaker_baseline: the hand-inlined baseline (bench/retry_breaker_baseline.hpp) as a
// process of its own, for the whole-process comparison of bench/README.md: `squall run
// bench/scenarios/retry-breaker-1m.json` starts, loads, runs, reports and exits, and so
// does this, so `/usr/bin/time` of each measures the same kind of thing (process start,
// page faults of fresh memory, exit), not a whole process against an in-process loop.
//
// Usage: retry_breaker_baseline [SEED]   (default 1). Prints the model's figures.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include <fmt/core.h>

#include "bench/retry_breaker_baseline.hpp"

int main(int argc, char** argv) {
  std::uint64_t seed = 1;
  if (argc > 2) {
    std::fputs("usage: retry_breaker_baseline [SEED]\n", stderr);
    return 2;
  }
  if (argc == 2) {
    const std::string_view text = argv[1];
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
    if (ec != std::errc{} || end != text.data() + text.size()) {
      fmt::print(stderr, "retry_breaker_baseline: expected a seed (an unsigned 64-bit integer), got \"{}\"\n", text);
      return 2;
    }
  }
  const squall::bench::BaselineModel model;
  const squall::bench::BaselineResult r = squall::bench::run_baseline(model, seed);
  const auto ms = [](squall::Nanos ns) { return static_cast<double>(ns) / 1e6; };
  fmt::print("tasks {}: succeeded {}, failed circuit_open {}, rate_limited {}, overloaded {}\n", model.tasks,
             r.succeeded, r.failed_circuit_open, r.failed_rate_limited, r.failed_overloaded);
  fmt::print("provider calls {}: succeeded {}, rate_limited {}, overloaded {}; breaker opened {} times\n",
             r.provider_calls, r.calls_succeeded, r.calls_rate_limited, r.calls_overloaded, r.breaker_opened);
  fmt::print("task latency p50 {:.1f} ms, p90 {:.1f} ms, p99 {:.1f} ms; peak tasks in flight {}\n",
             ms(r.task_latency_p50), ms(r.task_latency_p90), ms(r.task_latency_p99), r.peak_tasks_in_flight);
  return 0;
}
