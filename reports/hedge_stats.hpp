// What a hedging strategy (engine/strategies/hedging.hpp) did, per tool or provider whose
// pipeline holds it, folded from its HedgeEvents.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "engine/events.hpp"

namespace squall {

struct HedgeStats {
  std::string name;
  std::array<std::uint64_t, kHedgeActionCount> actions{};  // events by HedgeAction
  double loser_cost_usd = 0;                               // what cancelled losers billed (loser_cancelled events)
  std::int64_t loser_tokens = 0;                           // their input + output tokens
  // Hedges launched, by the provider they went to (HedgeEvent::provider; hedging's
  // `providers` may send them to another provider than the call's).
  std::map<std::string, std::uint64_t, std::less<>> launched_to;

  void fold(const HedgeEvent& e);
};

}  // namespace squall
