#include "reports/client_json.hpp"

#include "reports/rounding.hpp"

namespace squall {
namespace {

using nlohmann::ordered_json;

ordered_json ratio_or_null(std::optional<double> x) { return x ? ordered_json(round_ratio(*x)) : ordered_json(); }

ordered_json amplifications(const std::vector<ClientRow>& rows) {
  ordered_json j = ordered_json::object();
  j["overall"] = ratio_or_null(amplification(rows, std::nullopt));
  for (const RetryLayer layer : kRetryLayers)
    j[std::string(to_string(layer))] = ratio_or_null(amplification(rows, layer));
  return j;
}

template <class T>
ordered_json layers(const ByLayer<T>& values) {
  ordered_json j = ordered_json::object();
  for (const RetryLayer layer : kRetryLayers)
    j[std::string(to_string(layer))] = values[static_cast<std::size_t>(layer)];
  return j;
}

ordered_json against_advice(const ClientRow& row) {
  ByLayer<std::uint64_t> by_layer{};
  std::array<std::uint64_t, kAdviceReasonCount> by_reason{};
  for (std::size_t l = 0; l < kRetryLayerCount; ++l) {
    for (std::size_t r = 0; r < kAdviceReasonCount; ++r) {
      by_layer[l] += row.against_advice[l][r];
      by_reason[r] += row.against_advice[l][r];
    }
  }
  ordered_json reasons = ordered_json::object();
  for (const AdviceReason reason : kAdviceReasons) {
    reasons[std::string(to_string(reason))] = by_reason[static_cast<std::size_t>(reason)];
  }
  ordered_json j = ordered_json::object();
  j["total"] = by_layer[0] + by_layer[1] + by_layer[2];
  j["by_layer"] = layers(by_layer);
  j["by_reason"] = std::move(reasons);
  return j;
}

}  // namespace

ordered_json client_json(const ClientReport& clients) {
  ordered_json by_client = ordered_json::object();
  for (const ClientRow& row : clients.clients) {
    ordered_json o = ordered_json::object();
    o["attempts"] = row.attempts;
    o["logical_requests"] = row.logical;
    o["retry_amplification"] = amplifications({row});
    o["retries"] = layers(row.retries);
    o["early_retries"] = layers(row.early);
    o["retries_against_advice"] = against_advice(row);
    o["loops"] = row.loops;
    o["peak_concurrency"] = row.peak_concurrency;
    o["resent_tokens"] = layers(row.resent_tokens);
    by_client[row.client] = std::move(o);
  }
  ordered_json j = ordered_json::object();
  j["loop_resends"] = clients.loop_resends;
  j["retry_amplification"] = amplifications(clients.clients);
  j["by_client"] = std::move(by_client);
  return j;
}

}  // namespace squall
