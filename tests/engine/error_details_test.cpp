#include "engine/error_details.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/call.hpp"

namespace squall {
namespace {

TEST(ErrorDetailsTest, EqualDetailsAreKeptOnceAndEmptyOnesNotAtAll) {
  ErrorDetailsStore store;
  EXPECT_EQ(store.keep(ErrorDetails{}), nullptr);  // a Response without details
  const ErrorDetails* limited = store.keep({.error_code = "rate_limit_exceeded", .retry_after = "2"});
  ASSERT_NE(limited, nullptr);
  EXPECT_EQ(limited->error_code, "rate_limit_exceeded");
  EXPECT_EQ(limited->retry_after, "2");
  // Equal by content, not by address: a second text with the same characters.
  const std::string two = "2";
  EXPECT_EQ(store.keep({.error_code = "rate_limit_exceeded", .retry_after = two}), limited);
  // Any field tells details apart, the empty ones included.
  EXPECT_NE(store.keep({.error_code = "rate_limit_exceeded", .retry_after_ms = "2"}), limited);
  EXPECT_NE(store.keep({.error_code = "rate_limit_exceeded", .retry_after = "2", .body_error = "{}"}), limited);
  EXPECT_EQ(store.size(), 3U);
}

TEST(ErrorDetailsTest, KeptDetailsStayWhereTheyAreAsTheStoreGrows) {
  // A Response holds the pointer for the run: the store's rehashing must not move them.
  ErrorDetailsStore store;
  std::vector<std::string> texts;
  texts.reserve(5000);
  for (int i = 0; i < 5000; ++i) texts.push_back(std::to_string(i));
  const ErrorDetails* first = store.keep({.retry_after = texts[0]});
  std::vector<const ErrorDetails*> kept;
  for (const std::string& text : texts) kept.push_back(store.keep({.retry_after = text}));
  EXPECT_EQ(kept[0], first);
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_EQ(kept[i]->retry_after, texts[i]);
    EXPECT_EQ(store.keep({.retry_after = texts[i]}), kept[i]);
  }
}

TEST(ErrorDetailsTest, AResponseWithoutDetailsReadsEmptyOnes) {
  Response r;
  EXPECT_EQ(r.details(), kNoErrorDetails);
  const ErrorDetails details{.error_code = "invalid_arguments"};
  r.error_details = &details;
  EXPECT_EQ(r.details().error_code, "invalid_arguments");
  const Response copy = r;  // a copy points at the same details
  EXPECT_EQ(copy.error_details, &details);
}

}  // namespace
}  // namespace squall
