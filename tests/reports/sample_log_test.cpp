#include "reports/sample_log.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace squall {
namespace {

TEST(SampleLogTest, EmptyLogHasNoParts) {
  const SampleLog log;
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(log.size(), 0U);
  std::vector<std::span<const std::int64_t>> parts;
  log.append_parts(parts);
  EXPECT_TRUE(parts.empty());
  EXPECT_TRUE(log.to_vector().empty());
}

TEST(SampleLogTest, KeepsSamplesInOrderAcrossBlocks) {
  // Two full blocks and 3 samples more: three parts of 8192, 8192 and 3 samples.
  constexpr std::size_t n = 2 * SampleLog::kBlockSamples + 3;
  SampleLog log;
  std::vector<std::int64_t> expected;
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<std::int64_t>(i * 7) - 100;
    log.push_back(x);
    expected.push_back(x);
  }
  EXPECT_EQ(log.size(), n);
  EXPECT_EQ(log.to_vector(), expected);
  std::vector<std::span<const std::int64_t>> parts;
  log.append_parts(parts);
  ASSERT_EQ(parts.size(), 3U);
  EXPECT_EQ(parts[0].size(), SampleLog::kBlockSamples);
  EXPECT_EQ(parts[2].size(), 3U);
  EXPECT_EQ(parts[2].back(), expected.back());
}

TEST(SampleLogTest, BlocksDoNotMoveAsTheLogGrows) {
  SampleLog log;
  log.push_back(1);
  std::vector<std::span<const std::int64_t>> before;
  log.append_parts(before);
  for (std::size_t i = 0; i < 3 * SampleLog::kBlockSamples; ++i) log.push_back(2);
  std::vector<std::span<const std::int64_t>> after;
  log.append_parts(after);
  EXPECT_EQ(after.front().data(), before.front().data());
}

TEST(SampleLogTest, CopiesAndMovesKeepTheSamples) {
  SampleLog log;
  for (std::int64_t i = 0; i < 10; ++i) log.push_back(i);
  const std::vector<std::int64_t> expected = log.to_vector();

  SampleLog copy(log);
  copy.push_back(10);  // a copy has blocks of its own
  EXPECT_EQ(log.to_vector(), expected);
  EXPECT_EQ(copy.size(), 11U);

  SampleLog assigned;
  assigned.push_back(-1);
  assigned = log;
  EXPECT_EQ(assigned.to_vector(), expected);

  SampleLog moved(std::move(copy));
  EXPECT_EQ(moved.size(), 11U);
  assigned = std::move(moved);
  EXPECT_EQ(assigned.size(), 11U);
  EXPECT_EQ(assigned.to_vector().back(), 10);
}

TEST(SampleLogTest, BlocksOfAFinishedLogAreReusedOnTheSameThread) {
  // The spare list is last in, first out: the next block a log needs on this thread is
  // the one the last finished log gave back.
  const std::int64_t* first_block = nullptr;
  {
    SampleLog finished;
    finished.push_back(1);
    std::vector<std::span<const std::int64_t>> parts;
    finished.append_parts(parts);
    first_block = parts.front().data();
  }
  SampleLog next;
  next.push_back(2);
  std::vector<std::span<const std::int64_t>> parts;
  next.append_parts(parts);
  EXPECT_EQ(parts.front().data(), first_block);
  EXPECT_EQ(next.to_vector(), std::vector<std::int64_t>{2});  // emptied before reuse
}

}  // namespace
}  // namespace squall
