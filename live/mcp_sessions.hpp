// McpSessions: the session-era MCP sessions of `squall serve` (Streamable HTTP,
// 2025-03-26 to 2025-11-25, "Session Management"): an initialize opens one, its id sent
// back in Mcp-Session-Id; every later request of that client names it; a session that
// expired (an injected fault, live/mcp_wire.hpp McpToolWire) or was deleted is unknown
// from then on, and requests naming it are answered 404.
//
// Ids are 32 hex digits drawn from a stream seeded by the run's seed, so the same client
// against the same seed is given the same ids. The table is bounded: a session is dropped
// once kMaxSessions newer ones have been opened (the transport lets a server end a session
// at any time), so clients that initialize without end cannot grow the server's memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>

#include "engine/runtime/rng.hpp"

namespace squall::live {

struct McpSession {
  std::string provider;          // the provider whose endpoint opened it
  std::string protocol_version;  // negotiated at initialize
};

class McpSessions {
 public:
  // Sessions kept at once; 10,000 (a few hundred bytes each).
  static constexpr std::size_t kMaxSessions = 10'000;

  explicit McpSessions(std::uint64_t seed);
  // Opens a session for `provider`; returns its id.
  std::string open(std::string_view provider, std::string_view protocol_version);
  // The session `id` of `provider`, or null when unknown, expired, ended or another's.
  const McpSession* find(std::string_view id, std::string_view provider) const;
  // Ends a session (expiry or DELETE); unknown ids are ignored.
  void end(std::string_view id);
  std::size_t size() const { return sessions_.size(); }

 private:
  Xoshiro256 rng_;
  std::map<std::string, McpSession, std::less<>> sessions_;
  std::deque<std::string> order_;  // the last kMaxSessions ids opened, oldest first
};

}  // namespace squall::live
