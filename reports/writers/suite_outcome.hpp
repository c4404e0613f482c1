// One scenario of a many-scenario run (`squall ci`), as its JUnit test suite and its
// Markdown section render it: the scenario's report, or the reason it has none (an
// invalid scenario file, a corpus that cannot be read, a run past --max-in-flight).
#pragma once

#include <string>

#include "reports/report.hpp"

namespace squall {

struct SuiteOutcome {
  std::string scenario_file;       // as given (or as found in a directory given)
  const Report* report = nullptr;  // null when the scenario did not run
  std::string error;               // why it did not run, one problem a line; empty with a report
};

}  // namespace squall
