// crc64_xz (declared in engine/runtime/rng.hpp): CRC-64/XZ of a text, the hash squall
// gives names and texts wherever a run's results depend on them (stream_seed's component
// names, keyed decisions' texts, the fingerprint's folded text), so its values are fixed:
// a change would change every run.
//
// CRC-64/XZ (the CRC catalogue's CRC-64/XZ, also called CRC-64/GO-ECMA): polynomial
// 0x42F0E1EBA9EA3693 (ECMA-182), reflected input and output, all-ones init and final xor;
// check value crc64_xz("123456789") == 0x995dc9bbdf1939fa, and crc64_xz("") == 0. The same
// as boost::crc_optimal<64, 0x42F0E1EBA9EA3693, ~0, ~0, true, true>, which squall used
// before, computed eight bytes at a step by slicing-by-8 (Kounavis and Berry, "A Systematic
// Approach to Building High Performance Software-Based CRC Generators", ISCC 2005; the
// method of xz's liblzma crc64_fast.c): folding queries into the fingerprint byte by byte
// was 6% of a search-heavy run (bench/README.md). Tested against Boost.CRC.
#include "engine/runtime/rng.hpp"

#include <array>
#include <bit>
#include <cstring>

namespace squall {
namespace {

// 0x42F0E1EBA9EA3693 with its bits reversed: the polynomial of the reflected algorithm.
constexpr std::uint64_t kReflectedPolynomial = 0xC96C5795D7870F42ULL;

using Tables = std::array<std::array<std::uint64_t, 256>, 8>;

// tables[0] is the byte-at-a-time table; tables[k][b] is the CRC of byte b followed by k
// zero bytes, so eight table lookups advance the CRC by eight bytes.
constexpr Tables make_tables() {
  Tables t{};
  for (std::uint64_t b = 0; b < 256; ++b) {
    std::uint64_t crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) != 0 ? (crc >> 1) ^ kReflectedPolynomial : crc >> 1;
    t[0][b] = crc;
  }
  for (std::size_t k = 1; k < 8; ++k) {
    for (std::size_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
  }
  return t;
}

constexpr Tables kTables = make_tables();

std::uint64_t byte_step(std::uint64_t crc, unsigned char byte) { return kTables[0][(crc ^ byte) & 0xFF] ^ (crc >> 8); }

}  // namespace

std::uint64_t crc64_xz(std::string_view text) {
  std::uint64_t crc = ~0ULL;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t n = text.size();
  if constexpr (std::endian::native == std::endian::little) {
    for (; n >= 8; n -= 8, p += 8) {
      std::uint64_t word;
      std::memcpy(&word, p, 8);
      crc ^= word;
      crc = kTables[7][crc & 0xFF] ^ kTables[6][(crc >> 8) & 0xFF] ^ kTables[5][(crc >> 16) & 0xFF] ^
            kTables[4][(crc >> 24) & 0xFF] ^ kTables[3][(crc >> 32) & 0xFF] ^ kTables[2][(crc >> 40) & 0xFF] ^
            kTables[1][(crc >> 48) & 0xFF] ^ kTables[0][crc >> 56];
    }
  }
  for (; n > 0; --n, ++p) crc = byte_step(crc, *p);
  return ~crc;
}

}  // namespace squall
