// The summary lines of a live run's clients (reports/client_report.hpp), for the terminal
// summary and the Markdown report: one overall line, then one per client (the first
// kClientLines by name, then how many more), each a label and its value:
//   clients         2 clients: 9 attempts for 5 logical requests (x1.8); retries gateway=0 sdk=2
//                   application=2
//   client raw      4 attempts / 2 logical (x2); retries gateway=0 sdk=0 application=2; early 1; against
//                   advice 1 (status_400=1); loops 0; peak concurrency 1; re-sent tokens 30
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "reports/client_report.hpp"

namespace squall {

inline constexpr std::size_t kClientLines = 20;

std::vector<std::pair<std::string, std::string>> client_lines(const ClientReport& clients);

}  // namespace squall
