#include "reports/writers/csv_writer.hpp"

#include <array>
#include <numeric>
#include <vector>

#include <fmt/format.h>

#include "reports/rounding.hpp"

namespace squall {
namespace {

constexpr std::string_view kRecordEnd = "\r\n";

// The capacity columns of one provider, in the header's order (csv_writer.hpp).
constexpr std::array<std::string_view, 8> kCapacityColumns{
    "offered", "goodput", "rate_limited", "rejected", "queue_mean", "queue_max", "in_flight_mean", "in_flight_max"};

void capacity_fields(const CapacityReport& c, std::size_t window, std::vector<std::string>& row) {
  // A layer's windows start at 0 like the time series; one it never reached is all zeros.
  const CapacityWindowRow w = window < c.windows.size() ? c.windows[window] : CapacityWindowRow{};
  row.push_back(std::to_string(w.arrivals));
  row.push_back(std::to_string(w.goodput));
  row.push_back(std::to_string(w.rate_limited));
  row.push_back(std::to_string(w.rejected));
  row.push_back(fmt::format("{}", round_ratio(w.queue_mean)));
  row.push_back(std::to_string(w.queue_max));
  row.push_back(fmt::format("{}", round_ratio(w.in_flight_mean)));
  row.push_back(std::to_string(w.in_flight_max));
}

void record(const std::vector<std::string>& fields, std::string& out) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += csv_field(fields[i]);
  }
  out += kRecordEnd;
}

std::vector<std::string> header(const Report& r) {
  std::vector<std::string> h{"window_start_ms", "window_end_ms"};
  for (std::size_t i = 0; i < kTaskStatusCount; ++i)
    h.push_back(fmt::format("tasks_{}", to_string(static_cast<TaskStatus>(i))));
  for (const ProviderSummary& p : r.providers) {
    h.push_back(fmt::format("calls:{}", p.name));
    for (OutcomeKind kind : all_outcome_kinds()) h.push_back(fmt::format("calls:{}:{}", p.name, to_string(kind)));
  }
  for (const InjectedFaultRow& f : r.injected_faults) h.push_back(fmt::format("faults:{}:{}", f.provider, f.kind));
  for (const CapacityReport& c : r.capacity) {
    for (const std::string_view column : kCapacityColumns)
      h.push_back(fmt::format("capacity:{}:{}", c.provider, column));
  }
  return h;
}

}  // namespace

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string csv_time_series(const Report& r) {
  std::string out;
  record(header(r), out);
  const TimeSeries& ts = r.time_series;
  std::vector<std::string> row;
  for (std::size_t i = 0; i < ts.windows.size(); ++i) {
    const TimeWindow& w = ts.windows[i];
    row.clear();
    row.push_back(fmt::format("{}", round_ms(w.start)));
    row.push_back(fmt::format("{}", round_ms(w.start + ts.window)));
    for (const std::uint64_t n : w.tasks) row.push_back(std::to_string(n));
    for (const OutcomeCounts& calls : w.provider_calls) {
      row.push_back(std::to_string(std::accumulate(calls.begin(), calls.end(), std::uint64_t{0})));
      for (const std::uint64_t n : calls) row.push_back(std::to_string(n));
    }
    for (const std::uint64_t n : w.injected_faults) row.push_back(std::to_string(n));
    for (const CapacityReport& c : r.capacity) capacity_fields(c, i, row);
    record(row, out);
  }
  return out;
}

}  // namespace squall
