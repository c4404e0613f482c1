// `squall replay TRACE... --out-dir DIR`: fits the grouped trace (replay/replay_fit.hpp) and
// writes DIR/scenario.yaml, DIR/as-deployed.yaml, DIR/calibration.json and
// DIR/calibration.md, all or none (AtomicFileBatch). DIR is created when missing (its
// parent must exist); in an existing DIR these four files are replaced, as `run --out`
// replaces its report, and nothing else in it is touched. Both YAML files are loaded back
// with the scenario loader before anything is written: a file the loader refuses is an
// internal error (exit 70), never published.
#pragma once

#include "cli/replay_command.hpp"
#include "replay/attempt_record.hpp"
#include "replay/grouping.hpp"

namespace squall::cli {

// Whether --out-dir or --policy cannot be used, found before any trace is read (printed on
// stderr): a DIR that is a file, a missing parent, a file in DIR that is an input, a policy
// file that does not load. Creates nothing.
bool outputs_refused(const ReplayOptions& options);

// Exit 0, 1 (calibration failed), 2 (a bad --out-dir, no tasks, an unwritable file) or 70.
int replay_out_dir(const ReplayOptions& options, const replay::TraceData& data, const replay::Grouping& grouping);

}  // namespace squall::cli
