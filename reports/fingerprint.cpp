#include "reports/fingerprint.hpp"

#include <boost/crc.hpp>
#include <fmt/format.h>

namespace squall {

void Fingerprint::add_text(std::string_view text) {
  // CRC-64/XZ: polynomial 0x42F0E1EBA9EA3693, reflected, all-ones init and final xor.
  boost::crc_optimal<64, 0x42F0E1EBA9EA3693ULL, ~0ULL, ~0ULL, true, true> crc;
  crc.process_bytes(text.data(), text.size());
  add_u64(crc.checksum());
  add_u64(text.size());
}

std::string fingerprint_hex(std::uint64_t fingerprint) { return fmt::format("{:016x}", fingerprint); }

}  // namespace squall
