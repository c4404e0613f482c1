#include "mocks/read_units.hpp"

#include <algorithm>
#include <cassert>

namespace squall {
namespace {

constexpr std::int64_t kUnitsPerMru = 1'000'000'000;  // the level's resolution: 1e-9 mRU

}  // namespace

std::int64_t read_unit_cost_mru(std::uint64_t records, std::uint64_t dimension, std::uint64_t metadata_bytes) {
  constexpr std::uint64_t kBytesPerGb = 1'000'000'000;  // Pinecone bills decimal GB
  constexpr std::int64_t kMinimumMru = 250;             // 0.25 RU
  const std::uint64_t bytes = records * dimension * 4 + metadata_bytes;
  const auto mru = static_cast<std::int64_t>((bytes * 1000 + kBytesPerGb - 1) / kBytesPerGb);
  return std::max(mru, kMinimumMru);
}

ReadUnitBucket::ReadUnitBucket(const ReadUnitConfig& config, std::int64_t per_query_mru)
    : capacity_(config.capacity_mru * kUnitsPerMru),
      refill_(config.refill_mru_per_s),
      cost_(per_query_mru * kUnitsPerMru),
      per_query_mru_(per_query_mru),
      level_(capacity_) {
  assert(config.capacity_mru > 0 && config.capacity_mru <= kUnitsPerMru);
  assert(config.refill_mru_per_s >= 0 && config.refill_mru_per_s <= kUnitsPerMru);
  assert(per_query_mru > 0 && per_query_mru <= config.capacity_mru);
}

void ReadUnitBucket::refill(TimePoint now) {
  assert(now >= last_);
  const Nanos elapsed = now - last_;
  last_ = now;
  if (refill_ == 0 || level_ == capacity_) return;
  // Compared before multiplying, so that a long idle spell cannot overflow.
  const std::int64_t to_full_ns = (capacity_ - level_ + refill_ - 1) / refill_;
  level_ = elapsed >= to_full_ns ? capacity_ : level_ + elapsed * refill_;
}

std::optional<Nanos> ReadUnitBucket::take(TimePoint now) {
  refill(now);
  if (level_ >= cost_) {
    level_ -= cost_;
    return std::nullopt;
  }
  if (refill_ == 0) return kNever;
  return (cost_ - level_ + refill_ - 1) / refill_;
}

std::int64_t ReadUnitBucket::level_mru(TimePoint now) {
  refill(now);
  return level_ / kUnitsPerMru;
}

}  // namespace squall
