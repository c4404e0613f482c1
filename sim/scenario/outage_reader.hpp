// Reading a scenario's shared outages: one fault rule that several providers suffer
// together, as the providers of one region or one upstream do (AWS us-east-1 on
// 2021-12-07, Google Cloud on 2025-06-12):
//   "outages": [ { "name": "us-east-1", "providers": ["gpt-4.1", "embeddings"],
//                  "kind": "overloaded", "probability": 1, "from": "2m", "to": "5m" } ]
// Each entry is a fault rule (fault_reader.hpp: every key of a provider's fault) plus
// `name` (a name as check_name allows, distinct across outages) and `providers` (a
// non-empty list of distinct provider names of `providers`, each of a type the kind
// applies to). The rule is appended to each named provider's faults with
// FaultConfig::outage set to the name: its decisions are drawn with the outage's own key,
// so the providers fail on the same attempts (mocks/chaos/chaos_provider.hpp), and an
// outage takes precedence over a provider's own rules, which apply to the attempts it
// spares (so its probability is not summed with theirs by check_fault_overlaps).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mocks/provider_config.hpp"
#include "sim/scenario/json_reader.hpp"
#include "sim/scenario/provider_reader.hpp"

namespace squall {

// Reads `value` (the outages list at `path`) and appends each outage's rule to the faults
// of its providers in `providers`. `run_end` is the scenario's duration when known.
// `declared`: every provider the scenario declares, valid or not (its type unknown when
// its entry is invalid), so that a reference to a provider whose entry is in error is
// not reported a second time; null when the providers block itself is not an object.
void read_outages(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                  std::vector<ProviderConfig>& providers, const ProviderTypes* declared, Diagnostics& diag);

// A scenario's start_time: an RFC 3339 UTC timestamp "YYYY-MM-DDTHH:MM:SSZ" (e.g.
// "2021-12-07T15:30:00Z"), no fraction, no offset other than Z, on or after 1970, as
// seconds since the Unix epoch; records `expected an RFC 3339 UTC time such as
// "2021-12-07T15:30:00Z", got ...` otherwise. At most kLastStartTime: the wall clock
// (start plus virtual time) is kept in int64 nanoseconds since 1970, and start plus any
// virtual time (itself at most int64 nanoseconds, about 292 years) then stays within
// the four-digit years an HTTP-date can be written with.
inline constexpr std::int64_t kLastStartTime = 9'223'372'036;  // 2262-04-11T23:47:16Z
std::optional<std::int64_t> read_start_time(const Json& value, const std::string& path, Diagnostics& diag);

}  // namespace squall
