// Writes a ReplayFit (replay/replay_fit.hpp) as files `squall run`, `sweep` and `ci` load as
// they are (docs/scenario-format.md): scenario.yaml (the fitted world, with the as-deployed
// policy as its own policy block, so that `squall run scenario.yaml` is the calibration
// run) and as-deployed.yaml (the same policy alone, for `--policy`). Every fitted number has
// its provenance as a comment beside it and in `provenance`; providers the trace never
// called (a fallback only a new policy uses) get the loader's defaults, flagged PRIOR.
#pragma once

#include <string>
#include <vector>

#include "engine/provider_descriptor.hpp"
#include "replay/provenance.hpp"
#include "replay/replay_fit.hpp"

namespace squall::replay {

// A provider absent from the trace that the scenario must still declare.
struct PriorProvider {
  std::string name;
  ProviderKind kind = ProviderKind::llm;
  std::string why;  // "named by new.yaml's fallback for answer"
};

struct ScenarioText {
  std::string name;                   // the scenario's name
  std::string description;            // what it was fitted from
  std::vector<PriorProvider> priors;  // sorted by name, none of them in the fit
};

std::string scenario_yaml(const ReplayFit& fit, const ScenarioText& text, FitSources& provenance);
std::string policy_yaml(const ReplayFit& fit, FitSources& provenance);

}  // namespace squall::replay
