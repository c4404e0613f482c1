#include "mocks/chaos/fault.hpp"

#include <gtest/gtest.h>

namespace squall {
namespace {

TEST(FaultKindTest, NamesRoundTrip) {
  for (std::size_t i = 0; i < kFaultKindCount; ++i) {
    const auto kind = static_cast<FaultKind>(i);
    EXPECT_EQ(parse_fault_kind(to_string(kind)), kind);
  }
  EXPECT_EQ(to_string(FaultKind::rate_limited), "rate_limited");
  EXPECT_EQ(to_string(FaultKind::server_error), "server_error");
}

TEST(FaultKindTest, UnknownNamesDoNotParse) {
  EXPECT_EQ(parse_fault_kind("429"), std::nullopt);
  EXPECT_EQ(parse_fault_kind("Timeout"), std::nullopt);
  EXPECT_EQ(parse_fault_kind(""), std::nullopt);
}

}  // namespace
}  // namespace squall
