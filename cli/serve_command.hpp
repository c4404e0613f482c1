// `squall serve SCENARIO`: the scenario's providers on real HTTP endpoints (live/,
// docs/live.md). Prints the base URL as its first line of stdout, serves until
// --duration, SIGINT/SIGTERM or POST /squall/v1/stop, then prints the summary, writes the
// reports and exits as `run` does: 0 every threshold holds, 1 one failed, 2 bad input or
// usage (nothing written; an address that cannot be bound), 70 an internal error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/runtime/time.hpp"

namespace squall::cli {

struct ServeOptions {
  std::string program = "squall";  // argv[0], for the repro line
  std::filesystem::path scenario;
  std::string listen = "127.0.0.1:0";  // HOST:PORT, a numeric address; port 0 picks a free one
  std::optional<std::uint64_t> seed;   // overrides the scenario's
  double time_scale = 1;               // scenario seconds per real second
  std::optional<Nanos> duration;       // scenario time to serve; default: until stopped
  // Real time to receive one request (from when the server waits for it) or for the
  // client to take one write; live::ServerLimits::request_timeout.
  Nanos request_timeout = 30 * kSecond;
  std::size_t max_connections = 1024;  // open at once; more are answered 503 (live/http_server.hpp)
  std::uint32_t loop_resends = 5;      // re-sends of one payload that make a loop (live/client_tracker.hpp)
  std::optional<std::filesystem::path> out;
  std::vector<std::string> reports;  // --report FORMAT=PATH
  bool quiet = false;
};

// Registers the subcommand and its options on `app`, reading into `options` (its text
// options are parsed by serve_command). Returns the subcommand.
int serve_command(const ServeOptions& options);

}  // namespace squall::cli
