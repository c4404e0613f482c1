#include "reports/fingerprint.hpp"

#include <fmt/format.h>

#include "engine/runtime/rng.hpp"

namespace squall {

void Fingerprint::add_text(std::string_view text) {
  add_u64(crc64_xz(text));  // engine/runtime/crc64.cpp: Boost.CRC's values, eight bytes a step
  add_u64(text.size());
}

std::string fingerprint_hex(std::uint64_t fingerprint) { return fmt::format("{:016x}", fingerprint); }

}  // namespace squall
