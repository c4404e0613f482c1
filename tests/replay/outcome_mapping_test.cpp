#include "replay/outcome_mapping.hpp"

#include <gtest/gtest.h>

namespace squall::replay {
namespace {

OutcomeKind kind_of(std::vector<std::string> finish_reasons, int status = 200) {
  OutcomeEvidence e;
  e.status_code = status;
  e.finish_reasons = std::move(finish_reasons);
  e.chat = true;
  e.output_tokens = 300;
  return map_outcome(e).kind;
}

TEST(OutcomeMappingTest, FinishReasonsNameTheirKinds) {
  EXPECT_EQ(kind_of({"stop"}), OutcomeKind::success);
  EXPECT_EQ(kind_of({"length"}), OutcomeKind::truncated);  // its own outcome, not invalid_output
  EXPECT_EQ(kind_of({"error"}), OutcomeKind::server_error);
  EXPECT_EQ(kind_of({"content_filter"}), OutcomeKind::content_filter);
  EXPECT_EQ(kind_of({"length"}, 429), OutcomeKind::rate_limited);  // the status decides first
}

}  // namespace
}  // namespace squall::replay
