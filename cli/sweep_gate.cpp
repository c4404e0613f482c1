#include "cli/sweep_gate.hpp"

#include <algorithm>

#include <fmt/core.h>

#include "cli/commands.hpp"
#include "engine/text.hpp"
#include "reports/sweep_stats.hpp"

namespace squall::cli {

std::variant<std::monostate, SweepGateRequest, std::string> parse_sweep_gate(
    const std::vector<std::string>& fail_on, const std::optional<std::string>& candidate,
    const std::vector<std::string>& variants, std::size_t baseline) {
  if (fail_on.empty()) {
    if (candidate) return std::string("--candidate names the variant --fail-on judges: give --fail-on too");
    return std::monostate{};
  }
  SweepGateRequest request;
  for (const std::string& what : fail_on) {
    if (what == "worse") {
      request.gate.worse = true;
    } else if (what == "infeasible") {
      request.gate.infeasible = true;
    } else {
      return fmt::format("--fail-on expects worse or infeasible, got \"{}\"", escape_controls(what));
    }
  }
  if (candidate) {
    const auto it = std::find(variants.begin(), variants.end(), *candidate);
    if (it == variants.end()) {
      constexpr std::size_t kListed = 10;
      std::string names;
      for (std::size_t i = 0; i < std::min(kListed, variants.size()); ++i) {
        names += (i == 0 ? "" : ", ") + variants[i];
      }
      if (variants.size() > kListed) names += fmt::format(" and {} more", variants.size() - kListed);
      return fmt::format("--candidate \"{}\" is not a variant of the sweep; variants are: {}",
                         escape_controls(*candidate), names);
    }
    request.candidate = static_cast<std::size_t>(it - variants.begin());
    if (request.candidate == baseline) {
      return fmt::format("--candidate \"{}\" is the sweep's baseline: the gate judges another variant against it",
                         escape_controls(*candidate));
    }
    return request;
  }
  if (variants.size() != 2) {
    return fmt::format("--fail-on needs --candidate VARIANT: the sweep has {} variants besides its baseline",
                       variants.size() - 1);
  }
  request.candidate = baseline == 0 ? 1 : 0;
  return request;
}

int judge_sweep_gate(const SweepResult& result, const SweepAnalysis& analysis, const SweepGateRequest& request) {
  const std::vector<std::string> failures = gate_failures(result, analysis, request.candidate, request.gate);
  for (const std::string& f : failures) fmt::print("FAIL {}\n", f);
  const std::string& name = result.variants[request.candidate].name;
  if (!failures.empty()) {
    fmt::print("gate: {} fails --fail-on\n", name);
    return kExitThresholdFailed;
  }
  fmt::print("gate: {} passes --fail-on\n", name);
  return kExitOk;
}

}  // namespace squall::cli
