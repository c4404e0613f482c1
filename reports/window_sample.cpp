#include "reports/window_sample.hpp"

#include <algorithm>

#include "engine/runtime/rng.hpp"

namespace squall {

void WindowSample::add(std::uint64_t key, std::int64_t sample) {
  max_ = count_ == 0 ? sample : std::max(max_, sample);
  ++count_;
  sum_ += sample;
  std::uint64_t state = key;
  const std::uint64_t hash = splitmix64(state);
  const auto by_hash = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (kept_.size() < kKept) {
    kept_.emplace_back(hash, sample);
    if (kept_.size() == kKept) std::make_heap(kept_.begin(), kept_.end(), by_hash);
    return;
  }
  if (hash >= kept_.front().first) return;
  std::pop_heap(kept_.begin(), kept_.end(), by_hash);
  kept_.back() = {hash, sample};
  std::push_heap(kept_.begin(), kept_.end(), by_hash);
}

std::vector<std::int64_t> WindowSample::kept() const {
  std::vector<std::int64_t> samples;
  samples.reserve(kept_.size());
  for (const auto& [hash, sample] : kept_) samples.push_back(sample);
  return samples;
}

}  // namespace squall
