#include "reports/window_sample.hpp"

#include <algorithm>

#include "engine/runtime/rng.hpp"

namespace squall {

void WindowSample::add_past_bound(std::uint64_t key, std::int64_t sample) {
  const auto by_hash = [](const auto& a, const auto& b) { return a.first < b.first; };
  const auto hash_of = [](std::uint64_t k) {
    std::uint64_t state = k;
    return splitmix64(state);
  };
  if (count_ == kKept + 1) {  // the first sample past the bound: the kept keys become hashes
    for (auto& [kept_key, kept_sample] : kept_) kept_key = hash_of(kept_key);
    std::make_heap(kept_.begin(), kept_.end(), by_hash);
  }
  const std::uint64_t hash = hash_of(key);
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
