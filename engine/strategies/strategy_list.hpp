// The one list of strategies, so that no other list is kept by hand. A strategy is its header/source pair in
// this folder: its config struct (with its defaults, kName and kKeys), its class, and its
// factory make_strategy(config, build). Adding one means adding it here, its reader in
// sim/scenario/policy_reader.cpp, its schema entry and its note in docs/strategies/; the
// names, factories and key lists everywhere else follow from this list.
#pragma once

#include <variant>

#include "engine/strategies/adaptive_concurrency.hpp"
#include "engine/strategies/adaptive_throttling.hpp"
#include "engine/strategies/budget.hpp"
#include "engine/strategies/bulkhead.hpp"
#include "engine/strategies/cache.hpp"
#include "engine/strategies/circuit_breaker.hpp"
#include "engine/strategies/escalation.hpp"
#include "engine/strategies/fallback.hpp"
#include "engine/strategies/hedging.hpp"
#include "engine/strategies/rate_limiter.hpp"
#include "engine/strategies/reflect.hpp"
#include "engine/strategies/relax_threshold.hpp"
#include "engine/strategies/retry.hpp"
#include "engine/strategies/retry_budget.hpp"
#include "engine/strategies/rewrite_query.hpp"
#include "engine/strategies/simplify_query.hpp"
#include "engine/strategies/timeout.hpp"
#include "engine/strategies/validate.hpp"

namespace squall {

// In the order the documentation lists them; a config's index is its strategy's identity
// in scenario files' error messages ("expected one of: timeout, retry, ...").
using StrategyConfig =
    std::variant<TimeoutConfig, RetryConfig, CircuitBreakerConfig, SimplifyQueryConfig, RelaxThresholdConfig,
                 RewriteQueryConfig, BudgetConfig, FallbackConfig, ValidateConfig, ReflectConfig, EscalationConfig,
                 CacheConfig, RetryBudgetConfig, AdaptiveThrottlingConfig, HedgingConfig, BulkheadConfig,
                 RateLimiterConfig, AdaptiveConcurrencyConfig>;

}  // namespace squall
