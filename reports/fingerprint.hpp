// Fingerprint: a 64-bit hash of the event trace, folded incrementally in arrival order.
//
// Each 64-bit word w is folded as h = splitmix64(h ^ w), using the splitmix64 output
// function of engine/runtime/rng.hpp (Steele, Lea and Flood, OOPSLA 2014), the kernel's own
// bijective mixer; text is folded as its CRC-64/XZ (Boost.CRC, as stream_seed() hashes
// component names) followed by its length. No allocation. Doubles are folded by their bit
// pattern, which is deterministic for one binary (DESIGN section 3: same scenario, seed and
// binary give the same report). Two runs that differ in any folded field differ in the
// fingerprint with probability 1 - 2^-64 per comparison.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/runtime/rng.hpp"

namespace squall {

class Fingerprint {
 public:
  void add_u64(std::uint64_t word) {
    std::uint64_t state = hash_ ^ word;
    hash_ = splitmix64(state);
  }
  void add_i64(std::int64_t word) { add_u64(static_cast<std::uint64_t>(word)); }
  void add_f64(double value) { add_u64(std::bit_cast<std::uint64_t>(value)); }
  void add_text(std::string_view text);

  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0;
};

// The fingerprint as printed in reports: 16 lowercase hex digits.
std::string fingerprint_hex(std::uint64_t fingerprint);

}  // namespace squall
