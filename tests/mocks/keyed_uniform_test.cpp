#include "mocks/keyed_uniform.hpp"

#include <gtest/gtest.h>

#include "engine/runtime/rng.hpp"

namespace squall {
namespace {

TEST(KeyedUniformTest, TheTextsCrcTakenOnceGivesTheSameUniform) {
  // The chaos decorator hashes a tool name once and decides many times with its CRC.
  for (const std::string_view text : {"", "web_search", "crm_lookup", "a longer tool name, with punctuation"}) {
    for (std::uint64_t index = 0; index < 4; ++index) {
      EXPECT_EQ(keyed_uniform_of_crc(0x1234, 7, crc64_xz(text), index), keyed_uniform(0x1234, 7, text, index))
          << text << " " << index;
    }
  }
  EXPECT_NE(keyed_uniform(0x1234, 7, "web_search", 0), keyed_uniform(0x1234, 7, "web_searcH", 0));
}

}  // namespace
}  // namespace squall
