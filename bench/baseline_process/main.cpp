// retry_breaker_baseline: the hand-inlined baseline (bench/retry_breaker_baseline.hpp) as a
// process of its own, for the whole-process comparison of bench/README.md: `squall run
// bench/scenarios/retry-breaker-1m.json` starts, loads, runs, reports and exits, and so
// does this, so `/usr/bin/time` of each measures the same kind of thing (process start,
// page faults of fresh memory, exit), not a whole process against an in-process loop.
//
// Usage: retry_breaker_baseline [SEED]   (default 1). Prints the model's figures.
#include <charconv>
#include <cstdint>
#include <string>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "bench/retry_breaker_baseline.hpp"

int main(int argc, char** argv) {
  CLI::App app("The hand-inlined baseline of the retry-breaker-1m model, as a process of its own");
  std::uint64_t seed = 1;
  // Digits that fit in 64 bits: CLI11 alone would wrap "-1" to 2^64 - 1 (as cli/main.cpp
  // notes) and accept a number past 2^64.
  const auto digits = [](const std::string& text) -> std::string {
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (!text.empty() && text.front() != '-' && error == std::errc{} && stop == end) return "";
    return "expected an unsigned 64-bit integer, got \"" + text + "\"";
  };
  app.add_option("seed", seed, "Seed of the model's generator")->check(digits)->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help is 0; a bad argument exits 2, as squall's own commands do.
    return app.exit(e) == 0 ? 0 : 2;
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
