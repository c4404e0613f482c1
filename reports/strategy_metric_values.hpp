// The threshold metrics of strategies with decisions of their own (cache, hedging,
// adaptive_concurrency, retry's backoffs), split from reports/metric_values.cpp, which
// hands them here: observe() there, same contract (nullopt when undefined).
#pragma once

#include <cstdint>
#include <optional>

#include "engine/runtime/time.hpp"
#include "reports/metric_catalogue.hpp"
#include "reports/recorder.hpp"
#include "reports/threshold.hpp"

namespace squall {

// Whether `id` is one of them: the cache_* metrics, hedges, hedged_fraction,
// hedge_loser_cost_usd, concurrency_limit, limit_recovery_time, backoff_delay.
bool is_strategy_metric(MetricId id);
// The value of one of them; `tasks` the finished tasks (a counter's avg).
std::optional<double> observe_strategy(const Recorder& recorder, const Threshold& threshold, MetricId id,
                                       Nanos duration, std::uint64_t tasks);

}  // namespace squall
