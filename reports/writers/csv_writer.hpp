// CSV of the report's per-window time series (Report::time_series), for spreadsheets and
// plotting: one header row, then one row per window in time order, RFC 4180 (fields
// separated by commas, records ended by CRLF, a field quoted when it holds a comma, a
// double quote, CR or LF, with its double quotes doubled).
//
// Columns, in order (docs/ci.md):
//   window_start_ms, window_end_ms        the window [start, end) in virtual milliseconds
//   tasks_succeeded, tasks_degraded,      tasks that finished in the window, by status
//   tasks_safe_failed, tasks_failed
//   then for each provider, by name:
//     calls:PROVIDER                      its attempts that ended in the window
//     calls:PROVIDER:KIND                 of them, those whose outcome was KIND, for every
//                                         outcome kind in declaration order (success,
//                                         empty, timeout, ...)
//   then for each fault kind that can be injected into a provider (Report::
//   injected_faults' rows: providers by name, kinds by name):
//     faults:PROVIDER:KIND                the faults of KIND the chaos layer decided for
//                                         PROVIDER in the window; the column sums to the
//                                         report's injected_faults count
//   then, for each provider with a capacity block, by name (Report::capacity, the
//   capacity layer's own windows, reports/capacity_report.hpp):
//     capacity:PROVIDER:offered           requests that reached the server in the window
//     capacity:PROVIDER:goodput           2xx answers delivered before the client gave up
//     capacity:PROVIDER:rate_limited      429s from the request or token bucket
//     capacity:PROVIDER:rejected          queue full or queue timeout
//     capacity:PROVIDER:queue_mean        time-weighted mean queue length (6 decimals)
//     capacity:PROVIDER:queue_max         longest queue
//     capacity:PROVIDER:in_flight_mean    time-weighted mean of requests in service
//     capacity:PROVIDER:in_flight_max     most requests in service
//   (counts per window, where the JSON report gives offered and goodput per second).
// Every column is present in every row (zeros included), so the header of a scenario
// does not depend on what happened in the run: only on its providers and their types.
#pragma once

#include <string>
#include <string_view>

#include "reports/report.hpp"

namespace squall {

// The time series as CSV text, every record ended by CRLF.
std::string csv_time_series(const Report& report);

// One RFC 4180 field: `text` itself, or in double quotes with each " doubled when it
// holds a comma, a double quote, CR or LF.
std::string csv_field(std::string_view text);

}  // namespace squall
