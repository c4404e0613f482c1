// Where a fitted number came from: every number replay writes into a scenario or policy
// file carries one, as a YAML comment beside it and as an entry of the calibration
// report's `provenance` list (docs/replay.md, "What replay writes").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace squall::replay {

struct FitSource {
  std::string path;           // JSON Pointer of the number in its file ("/providers/llm/faults/0/probability")
  std::string file;           // "scenario.yaml" or "as-deployed.yaml"
  std::string value;          // the value as written
  std::string window;         // scenario-time window it was fitted on ("[4m, 4m30s)"), or "whole trace"
  std::uint64_t samples = 0;  // the records it rests on (attempts, tasks, gaps)
  std::string method;         // how: "failures / attempts", "Bayesian Blocks", "declared prior (not in the trace)"
  bool prior = false;         // not fitted: a declared prior the trace could not inform (flagged)
};

using FitSources = std::vector<FitSource>;

// A name as one JSON Pointer reference token (RFC 6901: "~" as "~0", "/" as "~1").
inline std::string pointer_token(const std::string& name) {
  std::string out;
  for (char c : name) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return out;
}

}  // namespace squall::replay
