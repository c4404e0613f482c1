#include "live/mcp_sessions.hpp"

#include <fmt/format.h>

namespace squall::live {

McpSessions::McpSessions(std::uint64_t seed) : rng_(stream_seed(seed, "mcp-sessions")) {}

std::string McpSessions::open(std::string_view provider, std::string_view protocol_version) {
  std::string id = fmt::format("{:016x}{:016x}", rng_.next_u64(), rng_.next_u64());
  sessions_.insert_or_assign(id, McpSession{std::string(provider), std::string(protocol_version)});
  order_.push_back(id);
  if (order_.size() > kMaxSessions) {
    end(order_.front());
    order_.pop_front();
  }
  return id;
}

const McpSession* McpSessions::find(std::string_view id, std::string_view provider) const {
  const auto it = sessions_.find(id);
  if (it == sessions_.end() || it->second.provider != provider) return nullptr;
  return &it->second;
}

void McpSessions::end(std::string_view id) {
  if (const auto it = sessions_.find(id); it != sessions_.end()) sessions_.erase(it);
}

}  // namespace squall::live
