// Reading a provider entry's `capacity` block (mocks/capacity/capacity_config.hpp;
// docs/mocks/capacity.md):
//   { max_concurrency, requests_per_minute, tokens_per_minute, queue_size, queue_timeout,
//     reject_status, drops: [ { from, to, max_concurrency, requests_per_minute,
//                               tokens_per_minute } ] }
// Rules, each with its own message at the offending key's path:
// - unknown keys are errors, here and in each drop;
// - the block, and each drop, sets at least one of max_concurrency, requests_per_minute,
//   tokens_per_minute (the block may instead have drops only);
// - max_concurrency is an integer in [1, 1000000]; the rates integers in [1, 100000000]
//   (a rate of 0 would refuse everything: model an outage with a fault instead);
//   queue_size an integer in [0, 1000000]; queue_timeout a duration > 0;
// - reject_status is 429, 503 or 529;
// - tokens_per_minute applies to llm providers only (only their requests carry tokens);
// - a drop has both `from` and `to`, `to` after `from`, `from` before the end of the run;
//   drops do not overlap.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "mocks/capacity/capacity_config.hpp"
#include "sim/scenario/json_reader.hpp"
#include "sim/scenario/provider_reader.hpp"

namespace squall {

std::optional<CapacityConfig> read_capacity(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                                            ProviderType type, std::string_view provider, Diagnostics& diag);

}  // namespace squall
