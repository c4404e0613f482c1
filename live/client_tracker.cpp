#include "live/client_tracker.hpp"

#include <charconv>
#include <cmath>
#include <functional>

#include <nlohmann/json.hpp>

namespace squall::live {
namespace {

constexpr std::string_view kOtherClients = "(other clients)";

// A header's non-negative integer value, none when absent or not one.
std::optional<long long> header_count(std::string_view value) {
  long long n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || n < 0) return std::nullopt;
  return n;
}

// A delay header's value in `unit`s (a decimal number), none when absent or not a number
// (an HTTP-date Retry-After is not read).
std::optional<Nanos> delay(std::string_view value, Nanos unit) {
  double amount = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), amount);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || !(amount >= 0) || amount > 1e9) {
    return std::nullopt;
  }
  return static_cast<Nanos>(std::llround(amount * static_cast<double>(unit)));
}

std::string error_code(std::string_view body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return {};
  const auto error = j.find("error");
  if (error == j.end() || !error->is_object()) return {};
  const auto code = error->find("code");
  return code != error->end() && code->is_string() ? code->get<std::string>() : std::string();
}

// Why an error answer said not to retry it, if it did.
std::optional<AdviceReason> advice_of(const ClientAnswer& a) {
  if (a.should_retry_true) return std::nullopt;  // the server's word wins over the status, as in the SDKs
  if (a.should_retry_false) return AdviceReason::should_retry_false;
  if (a.error_code == "insufficient_quota") return AdviceReason::insufficient_quota;
  if (a.error_code == "context_length_exceeded") return AdviceReason::context_length_exceeded;
  switch (a.status) {
    case 400: return AdviceReason::status_400;
    case 401: return AdviceReason::status_401;
    case 403: return AdviceReason::status_403;
    case 404: return AdviceReason::status_404;
    default: return std::nullopt;
  }
}

std::size_t index(RetryLayer layer) { return static_cast<std::size_t>(layer); }

}  // namespace

ClientAnswer read_answer(int status, std::string_view retry_after, std::string_view retry_after_ms,
                         std::string_view should_retry, std::string_view body, Nanos at) {
  ClientAnswer answer;
  answer.status = status;
  answer.at = at;
  answer.retry_after = delay(retry_after_ms, kMillisecond);
  if (!answer.retry_after) answer.retry_after = delay(retry_after, kSecond);
  answer.should_retry_false = should_retry == "false";
  answer.should_retry_true = should_retry == "true";
  if (status >= 400) answer.error_code = error_code(body);
  return answer;
}

ClientTracker::Client& ClientTracker::client(std::string_view name) {
  if (const auto it = clients_.find(name); it != clients_.end()) return it->second;
  if (clients_.size() >= kMaxClients) name = kOtherClients;
  Client& c = clients_[std::string(name)];
  c.row.client = std::string(name);
  return c;
}

ClientTracker::Payload& ClientTracker::payload(Client& c, std::uint64_t digest) {
  const auto [it, inserted] = c.payloads.try_emplace(digest);
  if (inserted) {
    c.order.push_back(digest);
    if (c.order.size() > kMaxPayloads) {
      c.payloads.erase(c.order.front());
      c.order.pop_front();
    }
  }
  return c.payloads.at(digest);
}

std::uint64_t ClientTracker::arrive(const ClientRequest& request) {
  Client& c = client(request.client);
  std::string key(request.endpoint);
  key += '\n';
  key += request.body;
  const std::uint64_t digest = std::hash<std::string>{}(key);
  const auto known = c.payloads.find(digest);
  Payload* earlier = known == c.payloads.end() ? nullptr : &known->second;
  std::optional<RetryLayer> layer;
  if (header_count(request.envoy_attempt_count).value_or(0) >= 2) {
    layer = RetryLayer::gateway;
  } else if (header_count(request.stainless_retry_count).value_or(0) >= 1) {
    layer = RetryLayer::sdk;
  } else if (earlier != nullptr && earlier->errored) {
    layer = RetryLayer::application;
  }
  ++c.row.attempts;
  c.row.peak_concurrency = std::max(c.row.peak_concurrency, ++c.in_flight);
  if (layer) {
    count_retry(c, earlier, *layer, request.at);
  } else {
    ++c.row.logical;
    c.logical.emplace_back();
  }
  Payload& p = payload(c, digest);
  if (!layer || earlier == nullptr) p.logical = c.logical.size() - 1;
  if (++p.sends == std::uint64_t{loop_resends_} + 1) ++c.row.loops;
  const std::uint64_t id = next_id_++;
  in_flight_[id] = InFlight{&c, digest, layer, false};
  return id;
}

void ClientTracker::count_retry(Client& c, Payload* earlier, RetryLayer layer, Nanos at) {
  const std::size_t l = index(layer);
  ++c.row.retries[l];
  if (earlier == nullptr) {  // its first attempt was not seen: a logical request of its own
    ++c.row.logical;
    c.logical.emplace_back();
    ++c.logical.back()[l];
    return;
  }
  ++c.logical[earlier->logical][l];
  if (earlier->retry_at && at + kEarlySlack < *earlier->retry_at) ++c.row.early[l];
  if (earlier->advice) ++c.row.against_advice[l][static_cast<std::size_t>(*earlier->advice)];
}

void ClientTracker::input_tokens(std::uint64_t id, std::int64_t tokens) {
  const auto it = in_flight_.find(id);
  if (it == in_flight_.end() || !it->second.layer) return;
  it->second.client->row.resent_tokens[index(*it->second.layer)] += tokens;
}

void ClientTracker::settle(const InFlight& request, bool error, std::optional<AdviceReason> advice,
                           std::optional<Nanos> retry_at) {
  const auto it = request.client->payloads.find(request.digest);
  if (it == request.client->payloads.end()) return;  // forgotten meanwhile
  it->second.errored = error;
  it->second.advice = error ? advice : std::nullopt;
  it->second.retry_at = retry_at;
}

void ClientTracker::answered(std::uint64_t id, const ClientAnswer& answer) {
  const auto it = in_flight_.find(id);
  if (it == in_flight_.end()) return;
  it->second.answered = true;
  const bool error = answer.status >= 400;
  std::optional<Nanos> retry_at;
  if (answer.retry_after) retry_at = answer.at + *answer.retry_after;
  settle(it->second, error, error ? advice_of(answer) : std::nullopt, retry_at);
}

void ClientTracker::stream_failed(std::uint64_t id) {
  const auto it = in_flight_.find(id);
  if (it != in_flight_.end()) settle(it->second, true, std::nullopt, std::nullopt);
}

void ClientTracker::ended(std::uint64_t id) {
  const auto it = in_flight_.find(id);
  if (it == in_flight_.end()) return;
  if (!it->second.answered) settle(it->second, true, std::nullopt, std::nullopt);
  --it->second.client->in_flight;
  in_flight_.erase(it);
}

std::optional<RetryLayer> ClientTracker::layer(std::uint64_t id) const {
  const auto it = in_flight_.find(id);
  return it == in_flight_.end() ? std::nullopt : it->second.layer;
}

ClientReport ClientTracker::report() const {
  ClientReport report;
  report.loop_resends = loop_resends_;
  for (const auto& [name, c] : clients_) {
    ClientRow row = c.row;
    for (const ByLayer<std::uint32_t>& retries : c.logical) {
      std::uint32_t all = 1;
      for (const RetryLayer layer : kRetryLayers) {
        std::vector<std::uint64_t>& counts = row.by_attempts[index(layer)];
        const std::uint32_t attempts = 1 + retries[index(layer)];
        if (counts.size() <= attempts) counts.resize(attempts + 1);
        ++counts[attempts];
        all += retries[index(layer)];
      }
      std::vector<std::uint64_t>& counts = row.by_attempts[kRetryLayerCount];
      if (counts.size() <= all) counts.resize(all + 1);
      ++counts[all];
    }
    report.clients.push_back(std::move(row));
  }
  return report;
}

}  // namespace squall::live
