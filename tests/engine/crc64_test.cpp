#include <boost/crc.hpp>
#include <gtest/gtest.h>

#include <string>

#include "engine/runtime/rng.hpp"

namespace squall {
namespace {

std::uint64_t boost_crc64_xz(std::string_view text) {
  boost::crc_optimal<64, 0x42F0E1EBA9EA3693ULL, ~0ULL, ~0ULL, true, true> crc;
  crc.process_bytes(text.data(), text.size());
  return crc.checksum();
}

TEST(Crc64Test, CatalogueCheckValueAndEmptyText) {
  EXPECT_EQ(crc64_xz("123456789"), 0x995dc9bbdf1939faULL);
  EXPECT_EQ(crc64_xz(""), 0U);
}

TEST(Crc64Test, SlicingByEightEqualsBoostCrcAtEveryLengthAndOffset) {
  // Every length from 0 to 100 (the eight-byte steps and every tail), at every offset
  // modulo 8 in the buffer, on bytes of the whole range.
  Xoshiro256 rng(stream_seed(1, "crc64_test"));
  std::string bytes(128, '\0');
  for (char& c : bytes) c = static_cast<char>(rng.next_u64() & 0xFF);
  for (std::size_t offset = 0; offset < 8; ++offset) {
    for (std::size_t length = 0; length <= 100; ++length) {
      const std::string_view text(bytes.data() + offset, length);
      ASSERT_EQ(crc64_xz(text), boost_crc64_xz(text)) << offset << " " << length;
    }
  }
}

}  // namespace
}  // namespace squall
