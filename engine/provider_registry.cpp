#include "engine/provider_registry.hpp"

#include <cassert>

namespace squall {

void LatencyWindow::add(Nanos latency) {
  samples_[next_] = latency;
  next_ = (next_ + 1) % kSize;
  if (count_ < kSize) ++count_;
}

std::optional<Nanos> LatencyWindow::mean() const {
  if (count_ == 0) return std::nullopt;
  Nanos sum = 0;  // at most 10 latencies, each far below 2^63 / 10
  for (std::size_t i = 0; i < count_; ++i) sum += samples_[i];
  return sum / static_cast<Nanos>(count_);
}

ProviderId ProviderRegistry::add(ProviderDescriptor descriptor, Provider& provider,
                                 std::vector<std::unique_ptr<Strategy>> stack) {
  assert(!find(descriptor.name));
  cooldowns_.add(descriptor.quota_group);
  entries_.push_back(std::make_unique<Entry>(std::move(descriptor), provider, env_, std::move(stack)));
  const auto id = static_cast<ProviderId>(entries_.size() - 1);
  ids_.emplace(entries_.back()->descriptor.name, id);
  return id;
}

std::optional<ProviderId> ProviderRegistry::find(std::string_view name) const {
  const auto it = ids_.find(name);
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

Task<Outcome> ProviderRegistry::run(CallContext& ctx, Request& request) {
  assert(ctx.provider < entries_.size());
  return entries_[ctx.provider]->pipeline.run(ctx, request);
}

bool ProviderRegistry::route(const CallContext& ctx, FusedRoute& route) const {
  return ctx.provider < entries_.size() && entries_[ctx.provider]->pipeline.route_from(0, ctx, route);
}

bool ProviderRegistry::refuses(const CallContext& ctx, const Request& request) const {
  return ctx.provider < entries_.size() && entries_[ctx.provider]->pipeline.refuses(ctx, request);
}

bool ProviderRegistry::admit_retry(const CallContext& ctx, const Request& request) {
  return ctx.provider >= entries_.size() || entries_[ctx.provider]->pipeline.admit_retry(ctx, request);
}

}  // namespace squall
