#include "tests/sim/random_scenario.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "engine/strategies/strategy_list.hpp"
#include "mocks/chaos/fault.hpp"
#include "sim/scenario/config_values.hpp"

namespace squall::test {
namespace {

using Json = nlohmann::json;

// The fixed world: each provider is also the tool of the same name.
struct WorldProvider {
  const char* name;
  ProviderKind kind;
};
constexpr std::array<WorldProvider, 5> kProviders{{{"search", ProviderKind::web_search},
                                                   {"kb", ProviderKind::vector_search},
                                                   {"gpt", ProviderKind::llm},
                                                   {"claude", ProviderKind::llm},
                                                   {"crm", ProviderKind::tool}}};
constexpr std::array<const char*, 10> kDurations{"0s", "1ms", "20ms", "100ms", "500ms", "1s", "3s", "10s", "45s", "2m"};

bool coin(Rng& rng, double p) { return rng.uniform01() < p; }

template <class T, std::size_t N>
const T& pick(Rng& rng, const std::array<T, N>& from) {
  return from[rng.uniform_int(N)];
}

// A non-empty random subset of `names`, in their order.
template <class Names>
Json some_of(Rng& rng, const Names& names) {
  Json out = Json::array();
  while (out.empty()) {
    for (const auto& name : names) {
      if (coin(rng, 2.0 / static_cast<double>(std::size(names)))) out.push_back(std::string(name));
    }
  }
  return out;
}

// Log-uniform in [lo, hi], at most 10^4 above lo: small values as often as large ones.
std::int64_t some_integer(Rng& rng, std::int64_t lo, std::int64_t hi) {
  const double span = std::min(static_cast<double>(hi) - static_cast<double>(lo), 1e4);
  const auto offset = static_cast<std::int64_t>(std::floor(std::pow(span + 1, rng.uniform01()))) - 1;
  return std::min(hi, lo + std::max<std::int64_t>(offset, 0));
}

double some_number(Rng& rng, const NumberRange& range) {
  const double top = std::min(range.max, range.min + 1000);
  double v = range.min + rng.uniform01() * (top - range.min);
  if (range.min_exclusive && v <= range.min) v = (range.min + top) / 2;
  return v;
}

// Outcome kinds a strategy may name: every kind but success, or (provider_kinds) only those
// a provider's answer can have.
Json some_kinds(Rng& rng, bool provider_only) {
  std::vector<std::string_view> names;
  for (const OutcomeKind k : all_outcome_kinds()) {
    if (k == OutcomeKind::success || (provider_only && retry_class(k) == RetryClass::local)) continue;
    names.push_back(to_string(k));
  }
  return some_of(rng, names);
}

// A value for `field` inside its bounds, or nullopt for the shapes this generator leaves to
// their defaults.
template <class F>
std::optional<Json> some_value(Rng& rng, const F& field) {
  switch (field.kind) {
    case FieldKind::integer: return Json(some_integer(rng, field.ints.min, field.ints.max));
    case FieldKind::number: return Json(some_number(rng, field.numbers));
    case FieldKind::scaled: {
      const double units = std::ceil(some_number(rng, field.numbers) * field.per);
      return Json(std::min(units / field.per, field.numbers.max));
    }
    case FieldKind::duration: {
      const std::size_t first = field.durations == DurationMin::positive ? 1 : 0;
      return Json(kDurations[first + rng.uniform_int(kDurations.size() - first)]);
    }
    case FieldKind::whole_seconds:
      return Json(fmt::format("{}s", some_integer(rng, 1, std::min<std::int64_t>(field.longest / kSecond, 120))));
    case FieldKind::boolean: return Json(coin(rng, 0.5));
    case FieldKind::text: return Json(coin(rng, 0.5) ? "gpt" : "claude");  // the llm a strategy calls
    case FieldKind::names: {  // mostly one name: a fallback's backups must be of its provider's type
      std::vector<std::string_view> names;
      for (const WorldProvider& p : kProviders) names.emplace_back(p.name);
      if (coin(rng, 0.7)) return Json::array({std::string(names[rng.uniform_int(names.size())])});
      return some_of(rng, names);
    }
    case FieldKind::words: return some_of(rng, std::array<std::string_view, 3>{"annual", "report", "2023"});
    case FieldKind::kinds: return some_kinds(rng, false);
    case FieldKind::provider_kinds: return some_kinds(rng, true);
    case FieldKind::choice:
    case FieldKind::choices:
      if constexpr (!std::is_same_v<typename F::Choice, detail::NoChoice>) {
        const auto names = choice_names(field.values);
        if (field.kind == FieldKind::choice) return Json(std::string(names[rng.uniform_int(names.size())]));
        return some_of(rng, names);
      }
      return std::nullopt;
    case FieldKind::shaped:
      if (field.default_json.empty()) return std::nullopt;
      return Json::parse(field.default_json);
  }
  return std::nullopt;
}

// Config C with each key written with probability 0.35 (a required key always).
template <class C>
Json some_config(Rng& rng) {
  Json config = Json::object();
  std::apply(
      [&](const auto&... field) {
        const auto write = [&](const auto& f) {
          if (!f.required && !coin(rng, 0.35)) return;
          if (auto value = some_value(rng, f)) config[std::string(f.key)] = std::move(*value);
        };
        (write(field), ...);
      },
      fields_of<C>().fields);
  return config;
}

template <std::size_t I = 0>
Json some_strategy(Rng& rng, std::size_t which) {
  if constexpr (I < std::variant_size_v<StrategyConfig>) {
    using C = std::variant_alternative_t<I, StrategyConfig>;
    if (which == I) return Json{{std::string(C::kName), some_config<C>(rng)}};
    return some_strategy<I + 1>(rng, which);
  } else {
    return Json::object();
  }
}

Json some_window(Rng& rng, std::int64_t run_s) {
  const std::int64_t from = some_integer(rng, 0, run_s - 2);
  return Json{{"from", fmt::format("{}s", from)}, {"to", fmt::format("{}s", some_integer(rng, from + 1, run_s))}};
}

// A fault rule of a kind that applies to `kind`; the rules of a provider sum to at most 0.9
// per group (at most three rules of at most 0.3).
Json some_fault(Rng& rng, ProviderKind provider, std::int64_t run_s) {
  std::vector<FaultKind> kinds;
  for (const FaultKind k : all_values<FaultKind, kFaultKindCount>()) {
    if (fault_applies(k, provider)) kinds.push_back(k);
  }
  const FaultKind kind = kinds[rng.uniform_int(kinds.size())];
  Json fault{{"kind", std::string(to_string(kind))}, {"probability", 0.3 * rng.uniform01()}};
  if (coin(rng, 0.5)) fault.update(some_window(rng, run_s));
  switch (kind) {
    case FaultKind::latency_spike: fault["latency"] = {{"distribution", "constant"}, {"value", "2s"}}; break;
    case FaultKind::brownout: fault["multiplier"] = 1 + 4 * rng.uniform01() + 0.01; break;
    case FaultKind::stream_cut: fault["after_tokens"] = some_integer(rng, 1, 100); break;
    case FaultKind::rate_limited:
    case FaultKind::overloaded:
      if (coin(rng, 0.5)) fault["retry_after"] = pick(rng, kDurations);
      break;
    default: break;
  }
  if (std::find(kAnswersWithError.begin(), kAnswersWithError.end(), kind) != kAnswersWithError.end() &&
      coin(rng, 0.3)) {
    fault["should_retry"] = coin(rng, 0.5);
  }
  return fault;
}

Json some_provider(Rng& rng, const WorldProvider& p, std::int64_t run_s) {
  Json provider{{"type", std::string(to_string(p.kind))}};
  if (p.kind == ProviderKind::web_search) provider["corpus"] = "corpus.jsonl";
  if (p.kind == ProviderKind::vector_search) provider["corpus"] = "../../../scenarios/corpora/kb.jsonl";
  if (p.kind == ProviderKind::llm) provider["mean_output_tokens"] = some_integer(rng, 1, 400);
  if (p.kind == ProviderKind::tool && coin(rng, 0.5)) provider["idempotent"] = false;
  if (coin(rng, 0.25)) {
    Json capacity{{"max_concurrency", some_integer(rng, 1, 16)}};
    if (coin(rng, 0.5)) capacity["queue_size"] = some_integer(rng, 1, 32);
    provider["capacity"] = capacity;
  }
  Json faults = Json::array();
  for (std::uint64_t n = rng.uniform_int(4); n > 0; --n) faults.push_back(some_fault(rng, p.kind, run_s));
  if (!faults.empty()) provider["faults"] = faults;
  return provider;
}

Json some_step(Rng& rng) {
  const WorldProvider& p = pick(rng, kProviders);
  Json step{{"tool", p.name}};
  if (p.kind == ProviderKind::web_search || p.kind == ProviderKind::vector_search) step["query_from"] = "q";
  if (p.kind == ProviderKind::llm) {
    step["prompt_tokens"] = some_integer(rng, 1, 4000);
    if (coin(rng, 0.5)) step["max_output_tokens"] = some_integer(rng, 1, 500);
  }
  return step;
}

Json some_workload(Rng& rng, std::int64_t run_s) {
  Json arrivals{{"process", coin(rng, 0.5) ? "poisson" : "constant"}, {"rate_per_s", 0.5 + 15 * rng.uniform01()}};
  if (coin(rng, 0.3)) {
    Json burst = some_window(rng, run_s);
    burst["rate_per_s"] = 30;
    arrivals["bursts"] = Json::array({burst});
  }
  Json tasks = Json::array();
  for (std::uint64_t t = 1 + rng.uniform_int(2); t > 0; --t) {
    Json task{{"name", fmt::format("t{}", t)}, {"steps", Json::array()}};
    for (std::uint64_t s = 1 + rng.uniform_int(3); s > 0; --s) task["steps"].push_back(some_step(rng));
    if (coin(rng, 0.5)) task["deadline"] = pick(rng, std::array<const char*, 3>{"2s", "10s", "30s"});
    tasks.push_back(task);
  }
  return Json{{"arrivals", arrivals},
              {"tasks", tasks},
              {"queries", {{"q", {"\"Acme Corp\" annual report 2023", "refund policy", "Acme leadership"}}}}};
}

}  // namespace

Json random_scenario(Rng& rng) {
  const std::int64_t run_s = some_integer(rng, 5, 60);
  Json providers = Json::object();
  Json policy = Json::object();
  for (const WorldProvider& p : kProviders) {
    providers[p.name] = some_provider(rng, p, run_s);
    if (!coin(rng, 0.7)) continue;
    // Half the stacks in the list's order (timeout outermost ... retry before retry_budget,
    // whose placement the loader enforces), half in any order.
    std::vector<std::size_t> which(1 + rng.uniform_int(4));
    for (std::size_t& w : which) w = rng.uniform_int(std::variant_size_v<StrategyConfig>);
    if (coin(rng, 0.5)) std::sort(which.begin(), which.end());
    Json stack = Json::array();
    for (const std::size_t w : which) stack.push_back(some_strategy(rng, w));
    policy[p.name] = stack;
  }
  return Json{{"name", "random"},
              {"duration", fmt::format("{}s", run_s)},
              {"workload", some_workload(rng, run_s)},
              {"providers", providers},
              {"policy", policy}};
}

}  // namespace squall::test
