// The as-deployed policy block (replay/policy_fit.hpp) as YAML, for both files of
// replay/scenario_writer.hpp: tool -> [timeout, fallback, retry, validate], outermost first;
// validate (require: [complete]) only when the trace retried or moved on after a cut answer.
#pragma once

#include <string>
#include <vector>

#include "replay/fitted_emitter.hpp"
#include "replay/policy_fit.hpp"

namespace squall::replay {

// Emits the policy map (the caller has written its key, if any); `root` is its JSON
// Pointer ("" in as-deployed.yaml, "/policy" in scenario.yaml).
void emit_policy(FittedEmitter& e, const std::vector<ToolPolicyFit>& policy, const std::string& root);

}  // namespace squall::replay
