// The data the HTML report's script charts (reports/writers/html_writer.hpp has the page;
// docs/ci.md, "html", the keys): one JSON object built from the report alone, keys in a
// fixed order, numbers as nlohmann::json writes them, so the same report gives the same
// bytes. Times in seconds of virtual time (the report's rounded milliseconds over 1000),
// latencies in ms, money in USD.
#pragma once

#include <nlohmann/json.hpp>

#include "reports/report.hpp"

namespace squall {

nlohmann::ordered_json html_page_data(const Report& report);

}  // namespace squall
