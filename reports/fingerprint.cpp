#include "reports/fingerprint.hpp"

#include <cstring>

#include <fmt/format.h>

namespace squall {

std::uint64_t Fingerprint::crc_of(std::string_view text) {
  const std::size_t size = text.size();
  if (size < 8 || size > kCachedTextBytes) return crc64_xz(text);
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  std::memcpy(&first, text.data(), 8);
  std::memcpy(&last, text.data() + size - 8, 8);
  // The slot: the top bits of an FxHasher-style mix of the length and both ends.
  const std::uint64_t mixed = ((std::rotl(first, 5) ^ last) * kFxMultiplier ^ size) * kFxMultiplier;
  CrcSlot& slot = crc_slots_[static_cast<std::size_t>(mixed >> (64 - kCrcSlotBits))];
  if (slot.size == size && std::memcmp(slot.text.data(), text.data(), size) == 0) return slot.crc;
  slot.crc = crc64_xz(text);
  slot.size = size;
  std::memcpy(slot.text.data(), text.data(), size);
  return slot.crc;
}

void Fingerprint::add_text(std::string_view text) {
  add_u64(crc_of(text));
  add_u64(text.size());
}

std::string fingerprint_hex(std::uint64_t fingerprint) { return fmt::format("{:016x}", fingerprint); }

}  // namespace squall
