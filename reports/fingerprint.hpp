// Fingerprint: a 64-bit hash of the event trace, folded incrementally in arrival order.
//
// Each 64-bit word w is folded as h = (rotl(h, 5) ^ w) * 0x517cc1b727220a95, the word
// step of rustc's FxHasher (rustc-hash 1.x, itself Firefox's HashFunctions.h AddToHash
// widened to 64 bits), and value() passes h through the splitmix64 output function of
// engine/runtime/rng.hpp (Steele, Lea and Flood, OOPSLA 2014) so that every bit of the
// result depends on every folded bit. The fold is cheap on purpose: every event of a run
// is folded, tens of millions of words for a million tasks, and a fold through the full
// splitmix64 mixer was an eighth of the simulator's run time (bench/README.md).
//
// An event (fold(), one call per event) is folded as one word: its fields w_0 .. w_k-1,
// in order, combined as E = sum of w_i * M_i (mod 2^64) with M_i = 0x9e3779b97f4a7c15 *
// (2i + 1), odd multiples of 2^64 / phi (Knuth's multiplicative hashing constant, as
// splitmix64's increment). The k products do not depend on h or on each other, so they
// run side by side and only the one fold of E waits on the previous event's: a fold per
// field made every event a serial chain of k multiplications, 5% of retry-breaker-1m's
// in-process time (bench/README.md).
//
// Strength: for a fixed word, a fold is a bijection of h (rotation, xor, multiplication by
// an odd constant), and for a fixed h a bijection of w; E is a bijection of each field
// when the others are fixed (M_i is odd). So two traces of the same length that differ in
// one word, or in one field of one event, always differ in the fingerprint (h starts at
// 0, which folding the word 0 leaves unchanged; the recorder starts every event with a
// non-zero tag, so a trace's first event is rarely the word 0). Differences in several
// fields or words can cancel only if they line up through the products and rotations
// (two fields of one event swapped cancel only when their difference times M_i - M_j, a
// multiple of 2 * 2^64 / phi, is 0 mod 2^64), which accidental non-determinism (the
// thing this guards against) does not do; it is not a defence against a trace crafted to
// collide.
//
// Text is folded as its CRC-64/XZ (crc64_xz of engine/runtime/rng.hpp, by Boost.CRC, as
// stream_seed() hashes component names) followed by its length. No allocation. Doubles are folded by their bit pattern,
// which is deterministic for one binary (DESIGN section 3: same scenario, seed and binary give the same report).
//
// A run folds the same few texts again and again (the queries a simplification ladder
// changes, from and to, bench/README.md), and taking the CRC byte by byte was the
// largest single cost of the flagship hour's run. So a fingerprint keeps the CRCs of the
// last texts it folded: kCrcSlots slots, direct-mapped by the text's length and its first
// and last eight bytes, each holding a copy of the text it hashed (texts of 8 to
// kCachedTextBytes bytes) and compared with it byte for byte, so a kept CRC is used only
// for exactly that text. It changes no value, only the cost; a shorter or longer text, or
// one whose slot holds another text, is hashed as before (and then kept in its slot).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "engine/runtime/rng.hpp"

namespace squall {

class Fingerprint {
 public:
  void add_u64(std::uint64_t word) { hash_ = (std::rotl(hash_, 5) ^ word) * kFxMultiplier; }
  void add_i64(std::int64_t word) { add_u64(static_cast<std::uint64_t>(word)); }
  void add_f64(double value) { add_u64(std::bit_cast<std::uint64_t>(value)); }
  void add_text(std::string_view text);

  // Folds one event: its values in order, each by its type (enums and integers as 64-bit
  // words, signed ones sign-extended, bool as 0 or 1; doubles by bit pattern; text as its
  // CRC then its length, two words), combined into one word as the header says, which is
  // then folded as add_u64 does. One call per event keeps the recorder's trace schema
  // readable at a glance.
  template <class... Ts>
  void fold(const Ts&... values) {
    std::uint64_t event = 0;
    std::size_t position = 0;
    (mix_one(values, event, position), ...);
    add_u64(event);
  }

  std::uint64_t value() const {
    std::uint64_t state = hash_;
    return splitmix64(state);
  }

 private:
  // M_i of the header: an odd multiple of 2^64 / phi per field position.
  static constexpr std::uint64_t kGoldenGamma = 0x9e3779b97f4a7c15ULL;
  static void mix_word(std::uint64_t word, std::uint64_t& event, std::size_t& position) {
    event += word * (kGoldenGamma * (2 * position + 1));
    ++position;
  }
  // Adds `value`'s words to the event's sum E (see fold).
  template <class T>
  void mix_one(const T& value, std::uint64_t& event, std::size_t& position) {
    if constexpr (std::is_enum_v<T> || std::is_same_v<T, bool>) {
      mix_word(static_cast<std::uint64_t>(value), event, position);
    } else if constexpr (std::is_floating_point_v<T>) {
      mix_word(std::bit_cast<std::uint64_t>(value), event, position);
    } else if constexpr (std::is_integral_v<T>) {
      mix_word(static_cast<std::uint64_t>(static_cast<std::int64_t>(value)), event, position);
    } else {
      const std::string_view text(value);
      mix_word(crc_of(text), event, position);
      mix_word(text.size(), event, position);
    }
  }

  // FxHasher's multiplier: 2^64 / pi, made odd so that multiplying by it is invertible.
  static constexpr std::uint64_t kFxMultiplier = 0x517cc1b727220a95ULL;

  // The kept CRCs (see above): 256 slots of 80 bytes, 20 KiB, room for the distinct
  // texts of a run's few query ladders; 64 bytes hold any query of the shipped scenarios.
  static constexpr std::size_t kCrcSlotBits = 8;
  static constexpr std::size_t kCrcSlots = std::size_t{1} << kCrcSlotBits;
  static constexpr std::size_t kCachedTextBytes = 64;
  struct CrcSlot {
    std::uint64_t crc = 0;
    std::size_t size = 0;  // 0: empty (no text of fewer than 8 bytes is kept)
    std::array<char, kCachedTextBytes> text{};
  };
  // crc64_xz(text), from its slot when the slot holds exactly `text`.
  std::uint64_t crc_of(std::string_view text);

  std::uint64_t hash_ = 0;
  std::array<CrcSlot, kCrcSlots> crc_slots_{};
};

// The fingerprint as printed in reports: 16 lowercase hex digits.
std::string fingerprint_hex(std::uint64_t fingerprint);

}  // namespace squall
