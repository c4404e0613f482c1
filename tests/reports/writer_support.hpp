// The sample run (sample_run.hpp) as a finished report for the writer tests: one passing
// and one failing threshold, pinned provenance and fingerprint, so outputs can be compared
// exactly.
#pragma once

#include "reports/report.hpp"
#include "sample_run.hpp"

namespace squall::test_support {

inline Report writer_sample_report() {
  Recorder r;
  feed_sample_run(r);
  const std::vector<Threshold> ts{std::get<Threshold>(parse_threshold("task_success", "rate>=0.5")),
                                  std::get<Threshold>(parse_threshold("task_latency", "p(99)<10s"))};
  Report rep = build_report(r, RunInfo{"sample", 7, 30 * kSecond}, ts);
  rep.fingerprint = 0x0123456789abcdefULL;
  rep.produced_by =
      Provenance{"0.1.0", "scenarios/sample.json", std::nullopt, "squall run scenarios/sample.json --seed 7", {}};
  return rep;
}

}  // namespace squall::test_support
