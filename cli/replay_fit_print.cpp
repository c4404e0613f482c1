#include "cli/replay_fit_print.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "engine/runtime/duration.hpp"
#include "replay/fit_arrivals.hpp"
#include "replay/fit_faults.hpp"
#include "replay/fit_latency.hpp"

namespace squall::cli {
namespace {

// Scenario times are never negative here (the origin is the first task's start, which is
// at or before every attempt's); clamp anyway so a skewed trace prints rather than throws.
std::string at(std::int64_t ns) { return format_duration(std::max<std::int64_t>(ns, 0)); }

void print_arrivals(const replay::ArrivalFit& fit) {
  fmt::print("arrivals (Bayesian Blocks, p0 0.05, ncp_prior {:.3f}): {} tasks, {} blocks{}\n", fit.ncp_prior, fit.tasks,
             fit.blocks.size(), fit.binned ? " (binned form)" : "");
  fmt::print("  poisson at {:.4g}/s\n", fit.arrivals.rate_per_s);
  for (const Burst& b : fit.arrivals.bursts) {
    fmt::print("  burst [{}, {}) at {:.4g}/s\n", at(b.from), at(b.to), b.rate_per_s);
  }
}

void print_faults(const replay::FaultFit& fit) {
  fmt::print("fault windows (PELT, multinomial cost, BIC penalty K ln N, windows of at least 5 attempts):\n");
  if (fit.windows.empty()) fmt::print("  none\n");
  for (const replay::FaultWindowFit& w : fit.windows) {
    fmt::print("  {} [{}, {}): {} attempts{}\n", w.provider, at(w.from_ns), at(w.to_ns), w.attempts,
               w.unmodelled == 0 ? "" : fmt::format(", {} failures without a fault rule", w.unmodelled));
    for (const replay::FittedFaultRule& r : w.rules) {
      std::string retry;
      if (r.fault.retry_after_delay) {
        retry = fmt::format(", retry_after {} (median of {})", format_duration(*r.fault.retry_after_delay),
                            r.retry_after_samples);
      }
      fmt::print("    {} probability {:.4f} ({}/{}, SE {:.4f}){}\n", to_string(r.fault.kind), r.fault.probability,
                 r.failures, w.attempts, r.standard_error, retry);
    }
  }
}

void print_latency(const std::vector<replay::LatencyFit>& fits) {
  fmt::print("latency (lognormal by maximum likelihood on answered attempts):\n");
  for (const replay::LatencyFit& f : fits) {
    const std::string name = f.model.empty() ? f.provider : f.provider + " " + f.model;
    if (!f.latency) {
      fmt::print("  {}: {} samples, too few to fit\n", name, f.samples);
      continue;
    }
    fmt::print("  {}: median {}, p99 {} (mu {:.4f}, sigma {:.4f}, {} samples)\n", name,
               format_duration(f.latency->median), format_duration(f.latency->p99), f.mu_log_s, f.sigma_log, f.samples);
  }
}

}  // namespace

void print_fits(const replay::TraceData& data, const replay::Grouping& grouping) {
  if (grouping.tasks.empty()) return;
  const std::int64_t origin = grouping.tasks.front().start_ns;
  std::int64_t end = origin;
  for (const replay::AttemptRecord& a : data.attempts) end = std::max(end, a.end_ns);
  print_arrivals(replay::fit_arrivals(grouping, origin));
  replay::FitFaultsOptions options;
  options.origin_ns = origin;
  options.end_ns = end;
  print_faults(replay::fit_faults(data.attempts, options));
  print_latency(replay::fit_latency(data.attempts));
}

}  // namespace squall::cli
