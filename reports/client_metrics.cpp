#include "reports/client_metrics.hpp"

#include <cstdint>
#include <vector>

#include "reports/metric_aggregations.hpp"

namespace squall {
namespace {

// The sum of `field(row, layer)` over the admitted clients and layers.
template <class Field>
double by_layer(const ClientReport& c, const Threshold& t, Field field) {
  double n = 0;
  for (const ClientRow& row : c.clients) {
    if (!admits(t, "client", row.client)) continue;
    for (const RetryLayer layer : kRetryLayers) {
      if (admits(t, "layer", to_string(layer))) n += static_cast<double>(field(row, static_cast<std::size_t>(layer)));
    }
  }
  return n;
}

double against_advice(const ClientReport& c, const Threshold& t) {
  return by_layer(c, t, [&t](const ClientRow& row, std::size_t layer) {
    std::uint64_t n = 0;
    for (const AdviceReason reason : kAdviceReasons) {
      if (admits(t, "reason", to_string(reason))) n += row.against_advice[layer][static_cast<std::size_t>(reason)];
    }
    return n;
  });
}

// Logical requests by attempts over the admitted clients, for the `layer` tag's layer
// (every attempt without one).
std::vector<std::uint64_t> by_attempts(const ClientReport& c, const Threshold& t) {
  std::size_t column = kRetryLayerCount;
  if (const auto it = t.tags.find("layer"); it != t.tags.end()) {
    for (const RetryLayer layer : kRetryLayers) {
      if (to_string(layer) == it->second) column = static_cast<std::size_t>(layer);
    }
  }
  std::vector<std::uint64_t> counts;
  for (const ClientRow& row : c.clients) {
    if (!admits(t, "client", row.client)) continue;
    const std::vector<std::uint64_t>& mine = row.by_attempts[column];
    if (counts.size() < mine.size()) counts.resize(mine.size());
    for (std::size_t n = 0; n < mine.size(); ++n) counts[n] += mine[n];
  }
  return counts;
}

}  // namespace

std::optional<double> observe_clients(const ClientReport& c, const Threshold& t, Nanos duration) {
  const MetricInfo* info = find_metric(t.metric_name);
  if (info == nullptr) return std::nullopt;
  const ThresholdExpression& e = t.parsed;
  std::uint64_t logical = 0;
  for (const ClientRow& row : c.clients) logical += admits(t, "client", row.client) ? row.logical : 0;
  const auto counter = [&](double total) { return counter_value(total, e, duration, logical); };
  switch (info->id) {
    case MetricId::client_retry_amplification: return counted_value(by_attempts(c, t), e);
    case MetricId::client_retries:
      return counter(by_layer(c, t, [](const ClientRow& row, std::size_t layer) { return row.retries[layer]; }));
    case MetricId::client_early_retries:
      return counter(by_layer(c, t, [](const ClientRow& row, std::size_t layer) { return row.early[layer]; }));
    case MetricId::client_retries_against_advice: return counter(against_advice(c, t));
    case MetricId::client_resent_tokens:
      return counter(by_layer(c, t, [](const ClientRow& row, std::size_t layer) { return row.resent_tokens[layer]; }));
    case MetricId::client_loops: {
      std::uint64_t loops = 0;
      for (const ClientRow& row : c.clients) loops += admits(t, "client", row.client) ? row.loops : 0;
      return counter(static_cast<double>(loops));
    }
    case MetricId::client_peak_concurrency: {
      std::vector<std::int64_t> peaks;
      for (const ClientRow& row : c.clients) {
        if (admits(t, "client", row.client)) peaks.push_back(static_cast<std::int64_t>(row.peak_concurrency));
      }
      return trend_value({Trend::Part(peaks)}, e, 1);
    }
    default: return std::nullopt;  // not a client metric: reports/metric_values.hpp
  }
}

}  // namespace squall
