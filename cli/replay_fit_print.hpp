// What `squall replay` prints of the fits (replay/fit_*.hpp, docs/replay.md section 6):
// the arrival rate and its bursts, each provider's fault windows with their rules, and
// latency per provider and model, every figure with its method and the sample it rests
// on. Scenario time 0 is the first task's start; the end is the last attempt's end.
#pragma once

#include "replay/attempt_record.hpp"
#include "replay/grouping.hpp"

namespace squall::cli {

void print_fits(const replay::TraceData& data, const replay::Grouping& grouping);

}  // namespace squall::cli
