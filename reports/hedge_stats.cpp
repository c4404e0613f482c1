#include "reports/hedge_stats.hpp"

namespace squall {

void HedgeStats::fold(const HedgeEvent& e) {
  ++actions[static_cast<std::size_t>(e.action)];
  if (e.action == HedgeAction::launched && !e.provider.empty()) {
    // The provider is not folded into the fingerprint: the attempt events the hedge makes
    // carry it already.
    const auto it = launched_to.find(e.provider);
    if (it == launched_to.end()) {
      launched_to.emplace(std::string(e.provider), 1);
    } else {
      ++it->second;
    }
  }
  if (e.action == HedgeAction::loser_cancelled) {
    loser_cost_usd += e.cost_usd;
    loser_tokens += e.input_tokens + e.output_tokens;
  }
}

}  // namespace squall
