// `squall sweep` and `squall merge` as a gate (docs/sweeps.md, "Decision"):
//   --fail-on worse        exit 1 when the candidate's verdict against the baseline is
//                          "worse" on any reported metric (the min_effect applies)
//   --fail-on infeasible   exit 1 when the candidate misses a threshold on more seeds than
//                          the sweep's feasible_pass_rate allows
//   --candidate VARIANT    the variant judged; default: the one variant besides the baseline
// Checked before the sweep runs; a bad value is a usage error (exit 2).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "reports/sweep_decision.hpp"

namespace squall::cli {

struct SweepGateRequest {
  SweepGate gate;
  std::size_t candidate = 0;  // a variant's index
};

// None when --fail-on is not given; else the gate, or the message of a usage error, e.g.
//   --fail-on expects worse or infeasible, got "better"
//   --candidate "pr" is not a variant of the sweep; variants are: main, pr-1
//   --candidate "main" is the sweep's baseline: the gate judges another variant against it
//   --fail-on needs --candidate VARIANT: the sweep has 3 variants besides its baseline
std::variant<std::monostate, SweepGateRequest, std::string> parse_sweep_gate(
    const std::vector<std::string>& fail_on, const std::optional<std::string>& candidate,
    const std::vector<std::string>& variants, std::size_t baseline);

// Prints the verdict (each failure, then one line) and returns 0 or 1.
int judge_sweep_gate(const SweepResult& result, const SweepAnalysis& analysis, const SweepGateRequest& request);

}  // namespace squall::cli
