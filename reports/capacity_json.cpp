#include "reports/capacity_json.hpp"

#include "reports/rounding.hpp"

namespace squall {

using nlohmann::ordered_json;

ordered_json capacity_json(const std::vector<CapacityReport>& capacity, Nanos window) {
  ordered_json j = ordered_json::array();
  const double window_s = static_cast<double>(window) / 1e9;
  for (const CapacityReport& c : capacity) {
    ordered_json o = ordered_json::object();
    o["provider"] = c.provider;
    o["arrivals"] = c.arrivals;
    o["goodput"] = c.goodput;
    o["served"] = c.served;
    o["queued"] = c.queued;
    o["rate_limited"] = {{"requests", c.rate_limited_requests}, {"tokens", c.rate_limited_tokens}};
    o["rejected"] = {{"queue_full", c.queue_full}, {"queue_timeout", c.queue_timeouts}};
    o["abandoned"] = c.abandoned;
    o["wasted"] = {{"requests", c.wasted_requests}, {"service_ms", round_ms(c.wasted_service)}};
    o["max_queue"] = c.max_queue;
    o["max_in_flight"] = c.max_in_flight;
    if (c.recovery) {
      o["recovery"] = {{"time_ms", round_ms(c.recovery->time)}, {"recovered", c.recovery->recovered}};
    }
    ordered_json windows = ordered_json::array();
    for (const CapacityWindowRow& w : c.windows) {
      ordered_json row = ordered_json::object();
      row["offered_per_s"] = round_ratio(static_cast<double>(w.arrivals) / window_s);
      row["goodput_per_s"] = round_ratio(static_cast<double>(w.goodput) / window_s);
      row["rate_limited"] = w.rate_limited;
      row["rejected"] = w.rejected;
      row["queue_mean"] = round_ratio(w.queue_mean);
      row["queue_max"] = w.queue_max;
      row["in_flight_mean"] = round_ratio(w.in_flight_mean);
      row["in_flight_max"] = w.in_flight_max;
      windows.push_back(std::move(row));
    }
    o["windows"] = std::move(windows);
    j.push_back(std::move(o));
  }
  return j;
}

}  // namespace squall
