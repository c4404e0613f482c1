// OutcomeMask: a set of outcome kinds as a bitmask, for the strategies' per-call checks
// (retry_on, failure_on). Bit index_of(kind) is set for each kind in the set.
#pragma once

#include <cstdint>
#include <span>

#include "engine/outcome.hpp"

namespace squall {

static_assert(kOutcomeKindCount <= 32, "OutcomeMask holds at most 32 kinds");

class OutcomeMask {
 public:
  explicit OutcomeMask(std::span<const OutcomeKind> kinds) {
    for (OutcomeKind k : kinds) bits_ |= bit(k);
  }
  bool contains(OutcomeKind kind) const { return (bits_ & bit(kind)) != 0; }

 private:
  static std::uint32_t bit(OutcomeKind kind) { return std::uint32_t{1} << index_of(kind); }
  std::uint32_t bits_ = 0;
};

}  // namespace squall
