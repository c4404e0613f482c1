// same_text: whether two short texts are equal, compared inline a word at a time.
//
// For names compared on every event or call (the recorder's interned names, a chaos
// decorator's last tool): they are a few bytes long, and a call to memcmp, which
// std::string_view's == makes, costs more than the comparison. The last word overlaps
// the one before it, as memcmp implementations do, so no byte is compared one by one
// past the first eight.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace squall {

namespace same_text_detail {
template <class Word>
Word load(const char* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
}  // namespace same_text_detail

// The top `bits` bits of an FxHasher-style mix of a text's length and its first and last
// eight bytes; text.size() >= 8. For direct-mapped caches of recent texts (TextMemo's,
// the fingerprint's kept CRCs): a few operations where hashing every byte costs five
// times as much, and texts that share both ends and their length (rare among a run's
// queries) only share a slot, which each cache's comparison tells apart.
inline std::size_t text_slot(std::string_view text, unsigned bits) {
  using same_text_detail::load;
  const auto first = load<std::uint64_t>(text.data());
  const auto last = load<std::uint64_t>(text.data() + text.size() - 8);
  // FxHasher's multiplier (rustc's FxHash): 2^64 / pi, made odd.
  constexpr std::uint64_t kMultiplier = 0x517cc1b727220a95ULL;
  const std::uint64_t mixed = (std::rotl(first, 5) ^ last) * kMultiplier ^ text.size();
  return static_cast<std::size_t>((mixed * kMultiplier) >> (64 - bits));
}

// a == b.
inline bool same_text(std::string_view a, std::string_view b) {
  using same_text_detail::load;
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* p = a.data();
  const char* q = b.data();
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8) {
      if (load<std::uint64_t>(p + i) != load<std::uint64_t>(q + i)) return false;
    }
    return load<std::uint64_t>(p + n - 8) == load<std::uint64_t>(q + n - 8);
  }
  if (n >= 4) {
    return load<std::uint32_t>(p) == load<std::uint32_t>(q) &&
           load<std::uint32_t>(p + n - 4) == load<std::uint32_t>(q + n - 4);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] != q[i]) return false;
  }
  return true;
}

}  // namespace squall
