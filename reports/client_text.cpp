#include "reports/client_text.hpp"

#include <fmt/format.h>

#include "reports/rounding.hpp"

namespace squall {
namespace {

std::string times(std::optional<double> x) { return x ? fmt::format("x{}", round_ratio(*x)) : "no requests"; }

template <class T>
std::string per_layer(const ByLayer<T>& values) {
  std::string out;
  for (const RetryLayer layer : kRetryLayers) {
    if (!out.empty()) out += ' ';
    out += fmt::format("{}={}", to_string(layer), values[static_cast<std::size_t>(layer)]);
  }
  return out;
}

std::string advice(const ClientRow& row) {
  std::uint64_t total = 0;
  std::string reasons;
  for (const AdviceReason reason : kAdviceReasons) {
    std::uint64_t n = 0;
    for (const auto& by_reason : row.against_advice) n += by_reason[static_cast<std::size_t>(reason)];
    if (n == 0) continue;
    total += n;
    reasons += fmt::format("{}{}={}", reasons.empty() ? "" : " ", to_string(reason), n);
  }
  return reasons.empty() ? "0" : fmt::format("{} ({})", total, reasons);
}

std::uint64_t sum(const ByLayer<std::uint64_t>& values) { return values[0] + values[1] + values[2]; }

}  // namespace

std::vector<std::pair<std::string, std::string>> client_lines(const ClientReport& c) {
  std::uint64_t attempts = 0;
  std::uint64_t logical = 0;
  ByLayer<std::uint64_t> retries{};
  for (const ClientRow& row : c.clients) {
    attempts += row.attempts;
    logical += row.logical;
    for (std::size_t l = 0; l < kRetryLayerCount; ++l) retries[l] += row.retries[l];
  }
  std::vector<std::pair<std::string, std::string>> lines;
  lines.emplace_back("clients", fmt::format("{} client{}: {} attempts for {} logical requests ({}); retries {}",
                                            c.clients.size(), c.clients.size() == 1 ? "" : "s", attempts, logical,
                                            times(amplification(c.clients, std::nullopt)), per_layer(retries)));
  for (std::size_t i = 0; i < c.clients.size() && i < kClientLines; ++i) {
    const ClientRow& row = c.clients[i];
    lines.emplace_back(
        "client " + row.client,
        fmt::format("{} attempts / {} logical ({}); retries {}; early {}; against advice {}; loops {}; peak "
                    "concurrency {}; re-sent tokens {}",
                    row.attempts, row.logical, times(amplification({row}, std::nullopt)), per_layer(row.retries),
                    sum(row.early), advice(row), row.loops, row.peak_concurrency,
                    row.resent_tokens[0] + row.resent_tokens[1] + row.resent_tokens[2]));
  }
  if (c.clients.size() > kClientLines) {
    lines.emplace_back("clients", fmt::format("{} more in the JSON report", c.clients.size() - kClientLines));
  }
  return lines;
}

}  // namespace squall
