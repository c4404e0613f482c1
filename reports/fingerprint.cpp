#include "reports/fingerprint.hpp"

#include <cstring>

#include <fmt/format.h>

#include "engine/runtime/same_text.hpp"

namespace squall {

std::uint64_t Fingerprint::crc_of(std::string_view text) {
  const std::size_t size = text.size();
  if (size < 8 || size > kCachedTextBytes) return crc64_xz(text);
  CrcSlot& slot = crc_slots_[text_slot(text, kCrcSlotBits)];
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
