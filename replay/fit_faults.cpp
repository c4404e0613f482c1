#include "replay/fit_faults.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "engine/runtime/duration.hpp"
#include "replay/change_points.hpp"

namespace squall::replay {
namespace {

// A provider's attempts by start, then end, then input order (the grouping's order).
std::map<std::string, std::vector<const AttemptRecord*>> by_provider(const std::vector<AttemptRecord>& attempts) {
  std::map<std::string, std::vector<const AttemptRecord*>> out;
  for (const AttemptRecord& a : attempts) out[a.provider].push_back(&a);
  for (auto& [name, list] : out) {
    std::stable_sort(list.begin(), list.end(), [](const AttemptRecord* x, const AttemptRecord* y) {
      return std::tie(x->start_ns, x->end_ns) < std::tie(y->start_ns, y->end_ns);
    });
  }
  return out;
}

std::int64_t midpoint(std::int64_t a, std::int64_t b) { return a + (b - a) / 2; }

std::optional<std::int64_t> lower_median(std::vector<std::int64_t> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  return values[(values.size() - 1) / 2];
}

void add_rules(FaultWindowFit& window, const std::vector<const AttemptRecord*>& list, std::size_t from,
               std::size_t to) {
  // Tallied by outcome kind: auth_error and bad_request are both client_error rules, told
  // apart by their status.
  std::array<std::uint64_t, kOutcomeKindCount> failures{};
  std::array<std::vector<std::int64_t>, kOutcomeKindCount> retry_afters;
  for (std::size_t i = from; i < to; ++i) {
    const AttemptRecord& a = *list[i];
    if (answered(a.outcome)) continue;
    const std::optional<FaultKind> kind = fault_kind_of(a.outcome);
    if (!kind) {
      ++window.unmodelled;
      continue;
    }
    ++failures[index_of(a.outcome)];
    if (a.retry_after_ns) retry_afters[index_of(a.outcome)].push_back(*a.retry_after_ns);
  }
  const double n = static_cast<double>(window.attempts);
  for (OutcomeKind outcome : all_outcome_kinds()) {
    const std::size_t k = index_of(outcome);
    if (failures[k] == 0) continue;
    FittedFaultRule rule;
    rule.fault.kind = *fault_kind_of(outcome);
    if (outcome == OutcomeKind::auth_error) rule.fault.status = 401;
    if (outcome == OutcomeKind::quota_exhausted) rule.fault.error_code = "insufficient_quota";
    rule.fault.probability = static_cast<double>(failures[k]) / n;
    rule.fault.from = window.from_ns;
    rule.fault.to = window.to_ns;
    rule.failures = failures[k];
    rule.standard_error = std::sqrt(rule.fault.probability * (1 - rule.fault.probability) / n);
    const bool carries = rule.fault.kind == FaultKind::rate_limited || rule.fault.kind == FaultKind::overloaded;
    if (carries && !retry_afters[k].empty()) {
      rule.retry_after_samples = retry_afters[k].size();
      rule.fault.retry_after_delay = lower_median(retry_afters[k]);
      rule.fault.retry_after = format_delta_seconds(*rule.fault.retry_after_delay);
    }
    window.rules.push_back(std::move(rule));
  }
}

void fit_provider(const std::string& provider, const std::vector<const AttemptRecord*>& list,
                  const FitFaultsOptions& options, FaultFit& out) {
  // Each fitted outcome kind its own category; success and kinds without a rule share 0.
  std::vector<std::uint8_t> categories;
  categories.reserve(list.size());
  for (const AttemptRecord* a : list) {
    categories.push_back(fault_kind_of(a->outcome) ? static_cast<std::uint8_t>(index_of(a->outcome)) : 0);
  }
  std::vector<std::size_t> cuts = pelt_categorical(categories, {.penalty = -1, .min_size = options.min_attempts});
  cuts.insert(cuts.begin(), 0);
  cuts.push_back(list.size());
  for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
    const std::size_t from = cuts[s];
    const std::size_t to = cuts[s + 1];
    FaultWindowFit window;
    window.provider = provider;
    window.from_ns = from == 0 ? 0 : midpoint(list[from - 1]->start_ns, list[from]->start_ns) - options.origin_ns;
    window.to_ns = to == list.size() ? options.end_ns - options.origin_ns
                                     : midpoint(list[to - 1]->start_ns, list[to]->start_ns) - options.origin_ns;
    window.attempts = to - from;
    add_rules(window, list, from, to);
    if (!window.rules.empty()) out.windows.push_back(std::move(window));
  }
}

}  // namespace

std::optional<FaultKind> fault_kind_of(OutcomeKind outcome) {
  switch (outcome) {
    case OutcomeKind::timeout: return FaultKind::timeout;
    case OutcomeKind::rate_limited:
    case OutcomeKind::quota_exhausted: return FaultKind::rate_limited;  // with its code: see add_rules
    case OutcomeKind::overloaded: return FaultKind::overloaded;
    case OutcomeKind::server_error: return FaultKind::server_error;
    case OutcomeKind::empty: return FaultKind::empty;
    case OutcomeKind::auth_error:
    case OutcomeKind::bad_request: return FaultKind::client_error;
    default: return std::nullopt;
  }
}

FaultFit fit_faults(const std::vector<AttemptRecord>& attempts, const FitFaultsOptions& options) {
  FaultFit out;
  for (const auto& [provider, list] : by_provider(attempts)) {
    out.providers.push_back(provider);
    fit_provider(provider, list, options, out);
  }
  return out;
}

}  // namespace squall::replay
