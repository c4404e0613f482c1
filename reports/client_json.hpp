// The JSON report's `clients` section, a live run's only (reports/client_report.hpp):
//   clients {loop_resends,
//            retry_amplification {overall, gateway, sdk, application}   attempts per logical
//                request over every client (null without one); per layer the first attempts
//                and that layer's retries,
//            by_client {client: {attempts, logical_requests,
//                                retry_amplification {overall, gateway, sdk, application},
//                                retries {gateway, sdk, application},
//                                early_retries {gateway, sdk, application},
//                                retries_against_advice {total, by_layer {...},
//                                                        by_reason {should_retry_false, ...}},
//                                loops, peak_concurrency,
//                                resent_tokens {gateway, sdk, application}}}}
#pragma once

#include <nlohmann/json.hpp>

#include "reports/client_report.hpp"

namespace squall {

nlohmann::ordered_json client_json(const ClientReport& clients);

}  // namespace squall
