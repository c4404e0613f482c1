#include "reports/writers/csv_writer.hpp"

#include <numeric>
#include <vector>

#include <fmt/format.h>

#include "reports/rounding.hpp"

namespace squall {
namespace {

constexpr std::string_view kRecordEnd = "\r\n";

void record(const std::vector<std::string>& fields, std::string& out) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += csv_field(fields[i]);
  }
  out += kRecordEnd;
}

std::vector<std::string> header(const Report& r) {
  std::vector<std::string> h{"window_start_ms", "window_end_ms"};
  for (std::size_t i = 0; i < kTaskStatusCount; ++i) h.push_back(fmt::format("tasks_{}", to_string(static_cast<TaskStatus>(i))));
  for (const ProviderSummary& p : r.providers) {
    h.push_back(fmt::format("calls:{}", p.name));
    for (OutcomeKind kind : all_outcome_kinds()) h.push_back(fmt::format("calls:{}:{}", p.name, to_string(kind)));
  }
  for (const InjectedFaultRow& f : r.injected_faults) h.push_back(fmt::format("faults:{}:{}", f.provider, f.kind));
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
  for (const TimeWindow& w : ts.windows) {
    row.clear();
    row.push_back(fmt::format("{}", round_ms(w.start)));
    row.push_back(fmt::format("{}", round_ms(w.start + ts.window)));
    for (const std::uint64_t n : w.tasks) row.push_back(std::to_string(n));
    for (const OutcomeCounts& calls : w.provider_calls) {
      row.push_back(std::to_string(std::accumulate(calls.begin(), calls.end(), std::uint64_t{0})));
      for (const std::uint64_t n : calls) row.push_back(std::to_string(n));
    }
    for (const std::uint64_t n : w.injected_faults) row.push_back(std::to_string(n));
    record(row, out);
  }
  return out;
}

}  // namespace squall
