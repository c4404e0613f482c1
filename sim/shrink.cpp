#include "sim/shrink.hpp"

#include <algorithm>
#include <set>

#include "sim/world.hpp"

namespace squall {
namespace {

constexpr int kProbabilityHalvings = 8;
constexpr int kWindowHalvings = 6;

std::string threshold_name(const ThresholdResult& t) { return t.metric + " " + t.expression; }

// The shrinking's state: the original, and its runs under one policy and seed.
class Shrinker {
 public:
  Shrinker(const Scenario& original, const PolicyConfig& policy, const Corpora& corpora, std::uint64_t seed)
      : original_(original), policy_(policy), corpora_(corpora), seed_(seed) {}

  // The thresholds `scenario` fails.
  std::vector<std::string> failed(const Scenario& scenario) {
    ++runs_;
    World world(scenario, policy_, corpora_, seed_, nullptr, RunLimits{});
    const Report report = world.run();
    std::vector<std::string> out;
    for (const ThresholdResult& t : report.thresholds) {
      if (!t.passed) out.push_back(threshold_name(t));
    }
    return out;
  }

  // Whether `scenario` fails every threshold of `target`: the same failure.
  bool fails(const Scenario& scenario, const std::vector<std::string>& target) {
    const std::vector<std::string> now = failed(scenario);
    return std::all_of(target.begin(), target.end(),
                       [&](const std::string& t) { return std::find(now.begin(), now.end(), t) != now.end(); });
  }

  // The original with only `kept` of the declared rules (outage rules stay).
  Scenario with_rules(const std::vector<FaultRuleRef>& declared, const std::vector<FaultRuleRef>& kept) const {
    Scenario s = original_;
    for (std::size_t p = 0; p < s.providers.size(); ++p) {
      std::vector<FaultConfig> rules;
      for (std::size_t r = 0; r < original_.providers[p].faults.size(); ++r) {
        const FaultRuleRef ref{p, r};
        const bool is_declared = std::find(declared.begin(), declared.end(), ref) != declared.end();
        if (!is_declared || std::find(kept.begin(), kept.end(), ref) != kept.end())
          rules.push_back(original_.providers[p].faults[r]);
      }
      s.providers[p].faults = std::move(rules);
    }
    return s;
  }

  std::size_t runs() const { return runs_; }

 private:
  const Scenario& original_;
  const PolicyConfig& policy_;
  const Corpora& corpora_;
  std::uint64_t seed_;
  std::size_t runs_ = 0;
};

// Zeller's ddmin: the smallest subset of `rules` (1-minimal) for which `fails` holds,
// given that it holds for all of them.
template <class Fails>
std::vector<FaultRuleRef> ddmin(std::vector<FaultRuleRef> rules, Fails fails) {
  std::size_t n = 2;
  while (rules.size() >= 2) {
    const std::size_t chunk = (rules.size() + n - 1) / n;
    bool reduced = false;
    for (std::size_t start = 0; start < rules.size() && !reduced; start += chunk) {
      const auto first = rules.begin() + static_cast<std::ptrdiff_t>(start);
      const auto last = rules.begin() + static_cast<std::ptrdiff_t>(std::min(start + chunk, rules.size()));
      std::vector<FaultRuleRef> subset(first, last);
      std::vector<FaultRuleRef> complement(rules.begin(), first);
      complement.insert(complement.end(), last, rules.end());
      if (fails(subset)) {
        rules = std::move(subset);
        n = 2;
        reduced = true;
      } else if (n > 2 && fails(complement)) {
        rules = std::move(complement);
        n = std::max<std::size_t>(n - 1, 2);
        reduced = true;
      }
    }
    if (reduced) continue;
    if (n >= rules.size()) break;
    n = std::min(rules.size(), 2 * n);
  }
  if (rules.size() == 1 && fails(std::vector<FaultRuleRef>{})) rules.clear();
  return rules;
}

// The rule's position in `scenario`, which keeps the original's order without the dropped.
FaultConfig& rule_in(Scenario& scenario, const std::vector<FaultRuleRef>& removed, const FaultRuleRef& ref) {
  std::size_t before = 0;
  for (const FaultRuleRef& r : removed) before += (r.provider == ref.provider && r.rule < ref.rule) ? 1 : 0;
  return scenario.providers[ref.provider].faults[ref.rule - before];
}

// Steps 2 and 3 for one kept rule; records what changed.
void narrow(Shrinker& shrinker, Scenario& current, FaultConfig& rule, const std::vector<std::string>& target,
            RuleChange& change) {
  for (int i = 0; i < kProbabilityHalvings; ++i) {
    const double before = rule.probability;
    rule.probability = before / 2;
    if (!shrinker.fails(current, target)) {
      rule.probability = before;
      break;
    }
  }
  const TimePoint end = rule.to == kNever ? current.duration : rule.to;
  rule.to = std::min(rule.to, end);
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < kWindowHalvings; ++i) {
      const TimePoint from = rule.from;
      const TimePoint to = rule.to;
      const TimePoint half = (to - from) / 2;
      if (half <= 0) break;
      (side == 0 ? rule.from : rule.to) = side == 0 ? from + half : to - half;
      if (!shrinker.fails(current, target)) {
        rule.from = from;
        rule.to = to;
        break;
      }
    }
  }
  if (rule.to == current.duration && change.to_before == kNever) rule.to = kNever;
  change.probability_after = rule.probability;
  change.from_after = rule.from;
  change.to_after = rule.to;
}

}  // namespace

ShrinkResult shrink_faults(const Scenario& scenario, const PolicyConfig& policy, const Corpora& corpora,
                           std::uint64_t seed, const std::vector<std::size_t>& declared,
                           const std::optional<std::string>& metric) {
  Shrinker shrinker(scenario, policy, corpora, seed);
  ShrinkResult result;
  result.original = shrinker.failed(scenario);
  result.failing = result.original;
  if (metric) {
    std::erase_if(result.failing, [&](const std::string& t) { return t.substr(0, t.find(' ')) != *metric; });
  }
  if (result.failing.empty()) {
    result.scenario = scenario;
    result.runs = shrinker.runs();
    return result;
  }
  std::vector<FaultRuleRef> rules;
  for (std::size_t p = 0; p < scenario.providers.size(); ++p) {
    const std::size_t n = p < declared.size() ? std::min(declared[p], scenario.providers[p].faults.size()) : 0;
    for (std::size_t r = 0; r < n; ++r) rules.push_back({p, r});
  }
  result.declared = rules.size();
  for (const ProviderConfig& p : scenario.providers) result.outage_rules += p.faults.size();
  result.outage_rules -= rules.size();
  const std::vector<FaultRuleRef> kept = ddmin(rules, [&](const std::vector<FaultRuleRef>& subset) {
    return shrinker.fails(shrinker.with_rules(rules, subset), result.failing);
  });
  for (const FaultRuleRef& r : rules) {
    if (std::find(kept.begin(), kept.end(), r) == kept.end()) result.removed.push_back(r);
  }
  Scenario current = shrinker.with_rules(rules, kept);
  for (const FaultRuleRef& ref : kept) {
    FaultConfig& rule = rule_in(current, result.removed, ref);
    RuleChange change{ref, rule.probability, rule.probability, rule.from, rule.from, rule.to, rule.to};
    narrow(shrinker, current, rule, result.failing, change);
    if (change.probability_after != change.probability_before || change.from_after != change.from_before ||
        change.to_after != change.to_before)
      result.changed.push_back(change);
  }
  result.still = shrinker.failed(current);
  result.scenario = std::move(current);
  result.runs = shrinker.runs();
  return result;
}

}  // namespace squall
