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
// in order, combined as E = sum of w_i * M_i (mod 2^64), M_i being the i-th output of
// splitmix64 from state 0 with its low bit set (kFieldMultipliers: odd, and unrelated to
// each other). The k products do not depend on h or on each other, so they run side by
// side and only the one fold of E waits on the previous event's: a fold per field made
// every event a serial chain of k multiplications, 5% of retry-breaker-1m's in-process
// time (bench/README.md).
//
// Strength: for a fixed word, a fold is a bijection of h (rotation, xor, multiplication by
// an odd constant), and for a fixed h a bijection of w; E is a bijection of each field
// when the others are fixed (M_i is odd). So two traces of the same length that differ in
// one word, or in one field of one event, always differ in the fingerprint (h starts at
// 0, which folding the word 0 leaves unchanged; the recorder starts every event with a
// non-zero tag, so a trace's first event is rarely the word 0). Changes in two fields i
// and j cancel only when d_i * M_i + d_j * M_j = 0 (mod 2^64); for every pair of these 32
// multipliers the smallest such differences are above 2^25 (lattice reduction of each
// pair; about 2^32 for a typical pair of unrelated odd numbers), so shifts that
// accidental non-determinism makes (a few tokens moved from input to output, a call's
// start and end moved by nanoseconds) do not cancel; with multipliers in a simple ratio
// (odd multiples of one constant, tried first) +3 in one field and -1 in the next did.
// Differences in several fields or words can cancel only if they line up through the
// products and rotations; it is not a defence against a trace crafted to collide.
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
    static_assert(2 * sizeof...(Ts) <= kFieldMultipliers.size(), "an event of more words than multipliers");
    std::uint64_t event = 0;
    std::size_t position = 0;
    (mix_one(values, event, position), ...);
    add_u64(event);
  }

  // M_i of the header: splitmix64's outputs from state 0, low bit set (a test recomputes
  // them). A field is at most two words (a text), so an event has at most 16 fields.
  static constexpr std::array<std::uint64_t, 32> kFieldMultipliers{
      0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f5ULL, 0x06c45d188009454fULL, 0xf88bb8a8724c81edULL, 0x1b39896a51a8749bULL,
      0x53cb9f0c747ea2ebULL, 0x2c829abe1f4532e1ULL, 0xc584133ac916ab3dULL, 0x3ee5789041c98ac3ULL, 0xf3b8488c368cb0a7ULL,
      0x657eecdd3cb13d09ULL, 0xc2d326e0055bdef7ULL, 0x8621a03fe0bbdb7bULL, 0x8e1f7555983aa92fULL, 0xb54e0f1600cc4d19ULL,
      0x84bb3f97971d80abULL, 0x7d29825c75521255ULL, 0xc3cf17102b7f7f87ULL, 0x3466e9a083914f65ULL, 0xd81a8d2b5a4485adULL,
      0xdb01602b100b9ed7ULL, 0xa9038a921825f10dULL, 0xedf5f1d90dca2f6bULL, 0x54496ad67bd2634dULL, 0xdd7c01d4f5407269ULL,
      0x935e82f1db4c4f7bULL, 0x69b82ebc92233301ULL, 0x40d29eb57de1d511ULL, 0xa2f09dabb45c6317ULL, 0xee521d7a0f4d3873ULL,
      0xf16952ee72f3454fULL, 0x377d35dea8e40225ULL,
  };

  std::uint64_t value() const {
    std::uint64_t state = hash_;
    return splitmix64(state);
  }

 private:
  static void mix_word(std::uint64_t word, std::uint64_t& event, std::size_t& position) {
    event += word * kFieldMultipliers[position++];
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
