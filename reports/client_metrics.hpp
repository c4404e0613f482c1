// The values of the client_* metrics (reports/metric_catalogue.hpp) over a live run's
// ClientReport, with the tags `client` (x-squall-client or the peer IP), `layer` (gateway,
// sdk, application) and `reason` (client_retries_against_advice).
//
//   client_retry_amplification  trend, one sample per logical request of the selected
//                               clients: its attempts (with layer: 1 + that layer's retries)
//   client_peak_concurrency     trend, one sample per selected client: its peak
//   the others                  counters; avg is per logical request of the selected clients
// None when undefined (a trend without samples), as reports/metric_values.hpp says.
#pragma once

#include <optional>

#include "engine/runtime/time.hpp"
#include "reports/client_report.hpp"
#include "reports/threshold.hpp"

namespace squall {

std::optional<double> observe_clients(const ClientReport& clients, const Threshold& threshold, Nanos duration);

}  // namespace squall
