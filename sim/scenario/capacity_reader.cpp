#include "sim/scenario/capacity_reader.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"
#include "sim/scenario/time_window.hpp"

namespace squall {
namespace {

constexpr IntRange kConcurrency{1, kMaxConcurrency};
constexpr IntRange kRequestsPerMinute{1, kMaxRequestsPerMinute};
constexpr IntRange kTokensPerMinute{1, kMaxTokensPerMinute};
constexpr IntRange kQueueSize{0, kMaxQueueSize};

constexpr std::string_view kLimitKeys = "max_concurrency, requests_per_minute or tokens_per_minute";

bool read_limit(const ObjectReader& obj, std::string_view key, IntRange range, std::optional<std::int64_t>& out) {
  std::int64_t value = 0;
  if (!obj.get(key, value, range)) return false;
  out = value;
  return true;
}

// The three limits of `obj`; false when none is present (errors or not).
bool read_limits(const ObjectReader& obj, ProviderType type, std::string_view provider, CapacityLimits& limits) {
  read_limit(obj, "max_concurrency", kConcurrency, limits.max_concurrency);
  read_limit(obj, "requests_per_minute", kRequestsPerMinute, limits.requests_per_minute);
  if (obj.find("tokens_per_minute") != nullptr && type != ProviderType::llm) {
    obj.diag().error(obj.path_of("tokens_per_minute"),
                     fmt::format("applies only to llm providers (only their requests carry tokens); {}",
                                 provider_is(provider, type)));
  } else {
    read_limit(obj, "tokens_per_minute", kTokensPerMinute, limits.tokens_per_minute);
  }
  return obj.find("max_concurrency") != nullptr || obj.find("requests_per_minute") != nullptr ||
         obj.find("tokens_per_minute") != nullptr;
}

std::optional<CapacityDrop> read_drop(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                                      ProviderType type, std::string_view provider, Diagnostics& diag) {
  const ObjectReader obj(value, path, diag,
                         {"from", "to", "max_concurrency", "requests_per_minute", "tokens_per_minute"});
  if (!obj.valid()) return std::nullopt;
  const std::size_t errors_before = diag.count();
  CapacityDrop drop;
  read_window(obj, /*required=*/true, run_end, drop.from, drop.to);
  if (!read_limits(obj, type, provider, drop.limits)) {
    diag.error(path, fmt::format("expected at least one of {} in a drop", kLimitKeys));
  }
  if (diag.count() != errors_before) return std::nullopt;
  return drop;
}

// A drop lowers limits: each limit it sets is at most the base one (any value is lower
// than no limit). A raise is reported at the drop's key; equal is accepted (a no-op).
bool lowers_limits(const CapacityDrop& drop, const CapacityLimits& base, const std::string& drop_path,
                   Diagnostics& diag) {
  bool ok = true;
  const auto check = [&](std::string_view key, const std::optional<std::int64_t>& value,
                         const std::optional<std::int64_t>& base_value) {
    if (!value || !base_value || *value <= *base_value) return;
    diag.error(pointer_append(drop_path, key),
               fmt::format("expected at most the base {} ({}) in a drop, got {}: a drop lowers limits, and a "
                           "raise is not a capacity drop",
                           key, *base_value, *value));
    ok = false;
  };
  check("max_concurrency", drop.limits.max_concurrency, base.max_concurrency);
  check("requests_per_minute", drop.limits.requests_per_minute, base.requests_per_minute);
  check("tokens_per_minute", drop.limits.tokens_per_minute, base.tokens_per_minute);
  return ok;
}

void read_drops(const ObjectReader& obj, std::optional<Nanos> run_end, ProviderType type, std::string_view provider,
                CapacityConfig& config) {
  const Json* list = obj.find("drops");
  if (list == nullptr) return;
  const std::string path = obj.path_of("drops");
  // Non-empty, as the block's "at least one limit, or drops" rule wants: `"drops": []`
  // sets nothing, like `{}`.
  const auto elements = read_array(*list, path, obj.diag(), /*nonempty=*/true);
  // The drops kept so far by start, each with its position in the list. They never
  // overlap one another, so those a new drop overlaps are adjacent in this order: finding
  // them costs O(log n) plus their count, not a scan of every drop kept.
  std::map<Nanos, std::pair<const CapacityDrop*, std::size_t>> kept;
  config.drops.reserve(elements.size());
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::string drop_path = pointer_append(path, i);
    auto drop = read_drop(elements[i], drop_path, run_end, type, provider, obj.diag());
    if (!drop) continue;
    // One drop at a time: which limit would hold where two overlap is not obvious. The
    // error names the overlapping drop listed first.
    auto it = kept.lower_bound(drop->from);
    if (it != kept.begin() && std::prev(it)->second.first->to > drop->from) --it;
    const CapacityDrop* other = nullptr;
    std::size_t other_position = 0;
    for (; it != kept.end() && it->first < drop->to; ++it) {
      if (other == nullptr || it->second.second < other_position) std::tie(other, other_position) = it->second;
    }
    if (other != nullptr) {
      obj.diag().error(pointer_append(drop_path, "from"),
                       fmt::format("overlaps drop {} ([{}, {})); drops must not overlap", other_position,
                                   format_duration(other->from), format_duration(other->to)));
      continue;
    }
    if (!lowers_limits(*drop, config.limits, drop_path, obj.diag())) continue;
    config.drops.push_back(*drop);
    kept.emplace(drop->from, std::pair{&config.drops.back(), i});
  }
  std::sort(config.drops.begin(), config.drops.end(),
            [](const CapacityDrop& a, const CapacityDrop& b) { return a.from < b.from; });
}

// Queue settings that could never act are refused, as the bulkhead refuses its own
// (policy_reader.cpp): requests queue only for a slot, so without max_concurrency (in the
// base limits or any drop) there is no queue, and reject_status is the queue's status
// (rate limits always answer 429); a queue_timeout bounds a wait that queue_size 0 rules out.
void refuse_dead_queue_settings(const ObjectReader& obj, const CapacityConfig& config) {
  const bool has_slots =
      config.limits.max_concurrency || std::any_of(config.drops.begin(), config.drops.end(),
                                                   [](const CapacityDrop& d) { return d.limits.max_concurrency; });
  if (!has_slots) {
    for (const std::string_view key : {"queue_size", "queue_timeout", "reject_status"}) {
      if (obj.find(key) == nullptr) continue;
      obj.diag().error(obj.path_of(key),
                       key == "reject_status"
                           ? "applies only with max_concurrency: it is the status of the slots' queue (rate limits "
                             "answer 429)"
                           : "applies only with max_concurrency: requests queue only for a slot");
    }
    return;
  }
  if (obj.find("queue_timeout") != nullptr && obj.find("queue_size") != nullptr && config.queue_size == 0) {
    obj.diag().error(obj.path_of("queue_timeout"), "applies only when queue_size > 0");
  }
}

}  // namespace

std::optional<CapacityConfig> read_capacity(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                                            ProviderType type, std::string_view provider, Diagnostics& diag) {
  const ObjectReader obj(value, path, diag,
                         {"max_concurrency", "requests_per_minute", "tokens_per_minute", "queue_size", "queue_timeout",
                          "reject_status", "drops"});
  if (!obj.valid()) return std::nullopt;
  const std::size_t errors_before = diag.count();
  CapacityConfig config;
  const bool has_limits = read_limits(obj, type, provider, config.limits);
  if (!has_limits && obj.find("drops") == nullptr) {
    diag.error(path, fmt::format("expected at least one of {}, or drops", kLimitKeys));
  }
  obj.get("queue_size", config.queue_size, kQueueSize);
  obj.get_duration("queue_timeout", config.queue_timeout, DurationMin::positive);
  if (const Json* status = obj.find("reject_status")) {
    const auto code = status->is_number_integer() ? status->get<std::int64_t>() : 0;
    if (code != 429 && code != 503 && code != 529) {
      diag.error(obj.path_of("reject_status"), fmt::format("expected 429, 503 or 529, got {}", describe(*status)));
    } else {
      config.reject_status = static_cast<int>(code);
    }
  }
  read_drops(obj, run_end, type, provider, config);
  if (has_limits || obj.find("drops") != nullptr) refuse_dead_queue_settings(obj, config);
  if (diag.count() != errors_before) return std::nullopt;
  return config;
}

}  // namespace squall
