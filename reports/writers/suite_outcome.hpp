// One scenario of a many-scenario run (`squall ci`), as its JUnit test suite and its
// Markdown section render it: the scenario's report, or the reason it has none (an
// invalid scenario file, a corpus that cannot be read, a run past --max-in-flight).
// With `ci --seeds`, also the seed summary the suite and section are made of.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "reports/report.hpp"
#include "reports/seed_summary.hpp"

namespace squall {

// A scenario run on many seeds: its summary (reports/seed_summary.hpp), the seeds as
// --seeds named them ("11..18"), and the repro command of one seed.
struct SeedsOutcome {
  const SeedSummary* summary = nullptr;
  std::string described;
  std::function<std::string(std::uint64_t)> repro;
};

struct SuiteOutcome {
  std::string scenario_file;       // as given (or as found in a directory given)
  const Report* report = nullptr;  // null when the scenario did not run; with seeds, the first seed's
  std::string error;               // why it did not run, one problem a line; empty with a report
  SeedsOutcome seeds = {};         // summary null: one run, the report's own thresholds
};

}  // namespace squall
