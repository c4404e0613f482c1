// Shrinking a failing scenario: the minimal reproduction FoundationDB and TigerBeetle users
// expect of a failing seed, for incidents. Given a scenario whose run under a policy and a
// seed fails thresholds, find a smaller fault schedule that still fails one of them:
//   1. ddmin (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing Input",
//      IEEE TSE 28(2), 2002) over the fault rules the scenario's file declares (the rules an
//      outage adds are kept): the result is 1-minimal, no single rule of it can go;
//   2. each rule kept: its probability halved while the run still fails (at most 8 times);
//   3. then its window [from, to) narrowed by half its length from the start, then from the
//      end, while the run still fails (at most 6 times each).
// A run fails when every threshold the original run failed fails again (the same failure: a
// threshold such as count>=100 on fallbacks fails trivially once the faults that caused
// them are gone), or, given a metric, every failed threshold of that metric. Every run uses the same
// seed, so the search is deterministic: same inputs, same result. Costs one run per
// candidate: O(n log n) runs for n rules in the typical case, n^2 at worst, plus 20 per rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/policy.hpp"
#include "sim/corpora.hpp"
#include "sim/scenario.hpp"

namespace squall {

// A fault rule: Scenario::providers[provider].faults[rule].
struct FaultRuleRef {
  std::size_t provider = 0;
  std::size_t rule = 0;
  friend bool operator==(const FaultRuleRef&, const FaultRuleRef&) = default;
};

// What changed in a kept rule (its indices are the original's).
struct RuleChange {
  FaultRuleRef ref;
  double probability_before = 0;
  double probability_after = 0;
  TimePoint from_before = 0, from_after = 0;
  TimePoint to_before = 0, to_after = 0;  // kNever: the run's end
};

struct ShrinkResult {
  Scenario scenario;                  // the shrunk scenario, rules in their original order
  std::vector<std::string> original;  // "metric expression" of each threshold the original fails
  std::vector<std::string> failing;   // those kept failing; empty: nothing to shrink (scenario unchanged)
  std::vector<std::string> still;     // those the shrunk scenario still fails
  std::vector<FaultRuleRef> removed;  // the original's rules it dropped
  std::vector<RuleChange> changed;    // the kept rules whose probability or window changed
  std::size_t declared = 0;           // rules the search ranged over
  std::size_t outage_rules = 0;       // rules outages add, kept
  std::size_t runs = 0;               // simulations made
};

// `declared[p]`: how many of provider p's first rules the scenario's file declares (the
// rest an outage added). `metric`: keep only thresholds of this metric (as written, tags
// included) failing. `failing` is empty when the run at `seed` fails no threshold (of
// `metric`): nothing was shrunk. `corpora`: the scenario's (load_corpora), read-only.
ShrinkResult shrink_faults(const Scenario& scenario, const PolicyConfig& policy, const Corpora& corpora,
                           std::uint64_t seed, const std::vector<std::size_t>& declared,
                           const std::optional<std::string>& metric = std::nullopt);

}  // namespace squall
