#include "engine/strategies/adaptive_throttling.hpp"

#include <algorithm>
#include <cassert>

#include "engine/provider_registry.hpp"

namespace squall {

std::vector<OutcomeKind> AdaptiveThrottlingConfig::default_reject_on() {
  return {OutcomeKind::rate_limited, OutcomeKind::overloaded};
}

AdaptiveThrottlingStrategy::AdaptiveThrottlingStrategy(AdaptiveThrottlingConfig config, EngineEnv env, Rng& rng)
    : config_(std::move(config)),
      env_(env),
      rng_(rng),
      reject_on_(config_.reject_on),
      seconds_(config_.window / kSecond) {
  assert(config_.window >= kSecond && config_.window % kSecond == 0 && config_.k >= 1.0);
  const std::size_t n = env_.providers != nullptr && env_.providers->size() > 0 ? env_.providers->size() : 1;
  histories_.resize(n);
}

AdaptiveThrottlingStrategy::History& AdaptiveThrottlingStrategy::history_of(ProviderId provider) {
  std::size_t i = provider;
  if (provider == kNoProvider) i = 0;
  if (i >= histories_.size()) histories_.resize(i + 1);
  History& h = histories_[i];
  if (h.buckets.empty()) h.buckets.resize(static_cast<std::size_t>(seconds_));
  return h;
}

AdaptiveThrottlingStrategy::Bucket& AdaptiveThrottlingStrategy::current(History& h) {
  const std::int64_t second = env_.clock.now() / kSecond;
  Bucket& b = h.buckets[static_cast<std::size_t>(second % seconds_)];
  if (b.second != second) {
    // The ring slot last counted second - k * seconds_ for some k >= 1 (or nothing): it
    // left the window. Every other slot that left it is found and cleared the same way
    // when its turn comes, but its counts must leave the totals now, so sweep them.
    for (Bucket& old : h.buckets) {
      if (old.second >= 0 && old.second <= second - seconds_) {
        h.total.requests -= old.requests;
        h.total.accepts -= old.accepts;
        old = Bucket{};
      }
    }
    b.second = second;
  }
  return b;
}

double AdaptiveThrottlingStrategy::rejection_probability(Counts c, double k) {
  const double requests = static_cast<double>(c.requests);
  const double p = (requests - k * static_cast<double>(c.accepts)) / (requests + 1.0);
  return std::max(0.0, p);
}

AdaptiveThrottlingStrategy::Counts AdaptiveThrottlingStrategy::counts(ProviderId provider) {
  History& h = history_of(provider);
  current(h);
  return h.total;
}

double AdaptiveThrottlingStrategy::rejection_probability(ProviderId provider) {
  return rejection_probability(counts(provider), config_.k);
}

std::string_view AdaptiveThrottlingStrategy::provider_name(ProviderId provider) const {
  if (env_.providers != nullptr && provider < env_.providers->size()) return env_.providers->descriptor(provider).name;
  return {};
}

Task<Outcome> AdaptiveThrottlingStrategy::execute(CallContext& ctx, Request& request, Next next) {
  const ProviderId provider = ctx.provider;
  {
    History& h = history_of(provider);
    Bucket& b = current(h);
    const Counts before = h.total;
    const double p = rejection_probability(before, config_.k);
    if (p > 0 && rng_.uniform01() < p) {
      // A local rejection is a request, answered at once.
      ++b.requests;
      ++h.total.requests;
      env_.events.on_throttled(ThrottledEvent{ctx.task.id, ctx.tool, provider_name(provider), env_.clock.now(),
                                              before.requests, before.accepts, p});
      Outcome rejected;
      rejected.kind = OutcomeKind::throttled;
      rejected.response.status = 0;  // never sent
      co_return rejected;
    }
  }
  const std::int32_t attempts_before = ctx.attempts;
  Outcome outcome = co_await next(ctx, request);
  const bool reached = ctx.attempts > attempts_before && retry_class(outcome.kind) != RetryClass::local;
  // A sent request counts when its answer comes back, beside its accept, as Envoy's
  // admission control counts both at completion: one still in flight is neither, so it
  // cannot look like a rejection (counted when sent, the second request of a run saw
  // requests 1, accepts 0, p = 0.5, against a backend that refused nothing). Looked up
  // again: the history vector may have grown during the await (engine tests' ids beyond
  // the registry's).
  History& h = history_of(provider);
  Bucket& b = current(h);
  ++b.requests;
  ++h.total.requests;
  if (reached && !reject_on_.contains(outcome.kind)) {
    ++b.accepts;
    ++h.total.accepts;
  }
  co_return outcome;
}

std::unique_ptr<Strategy> make_strategy(const AdaptiveThrottlingConfig& config, const StrategyBuild& build) {
  return std::make_unique<AdaptiveThrottlingStrategy>(config, build.env, build.stream());
}

}  // namespace squall
