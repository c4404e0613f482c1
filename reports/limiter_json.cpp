#include "reports/limiter_json.hpp"

#include <algorithm>
#include <string>

#include "reports/rounding.hpp"

namespace squall {

using nlohmann::ordered_json;

namespace {

ordered_json dips(const LimiterSummary& l) {
  ordered_json j = ordered_json::array();
  for (std::size_t i = 0; i < std::min(l.dips.size(), kMaxListedDips); ++i) {
    const LimitDip& d = l.dips[i];
    j.push_back({{"at_ms", round_ms(d.started)},
                 {"level", d.level},
                 {"recovery_ms", round_ms(d.recovery)},
                 {"recovered", d.recovered}});
  }
  return j;
}

// Three arrays, one value per window; null before the limiter's first call.
ordered_json by_window(const LimiterSummary& l) {
  ordered_json lowest = ordered_json::array();
  ordered_json highest = ordered_json::array();
  ordered_json last = ordered_json::array();
  for (const LimitRange& w : l.by_window) {
    lowest.push_back(w.seen ? ordered_json(w.lowest) : ordered_json());
    highest.push_back(w.seen ? ordered_json(w.highest) : ordered_json());
    last.push_back(w.seen ? ordered_json(w.last) : ordered_json());
  }
  return {{"lowest", std::move(lowest)}, {"highest", std::move(highest)}, {"last", std::move(last)}};
}

}  // namespace

ordered_json limiters_json(const std::vector<LimiterSummary>& limiters) {
  ordered_json j = ordered_json::object();
  for (const LimiterSummary& l : limiters) {
    ordered_json o = ordered_json::object();
    o["initial_limit"] = l.initial;
    o["final_limit"] = l.final;
    o["lowest_limit"] = l.lowest;
    o["highest_limit"] = l.highest;
    for (LimitAction action : kLimitActions)
      o[std::string(to_string(action))] = l.by_action[static_cast<std::size_t>(action)];
    const auto recovered = std::count_if(l.dips.begin(), l.dips.end(), [](const LimitDip& d) { return d.recovered; });
    o["dips"] = l.dips.size();
    o["dips_recovered"] = recovered;
    o["dip_list"] = dips(l);
    o["limit_by_window"] = by_window(l);
    j[l.tool] = std::move(o);
  }
  return j;
}

}  // namespace squall
