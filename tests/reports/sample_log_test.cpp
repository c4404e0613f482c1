#include "reports/sample_log.hpp"

#include "engine/runtime/rng.hpp"
#include "reports/trend.hpp"

#include <gtest/gtest.h>

#include <cmath>
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
  std::vector<Trend::Part> parts;
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
  std::vector<Trend::Part> parts;
  log.append_parts(parts);
  ASSERT_EQ(parts.size(), 3U);
  EXPECT_EQ(parts[0].size(), SampleLog::kBlockSamples);
  EXPECT_EQ(parts[2].size(), 3U);
  EXPECT_EQ(parts[2].samples.back(), expected.back());
}

TEST(SampleLogTest, BlocksDoNotMoveAsTheLogGrows) {
  SampleLog log;
  log.push_back(1);
  std::vector<Trend::Part> before;
  log.append_parts(before);
  for (std::size_t i = 0; i < 3 * SampleLog::kBlockSamples; ++i) log.push_back(2);
  std::vector<Trend::Part> after;
  log.append_parts(after);
  EXPECT_EQ(after.front().samples.data(), before.front().samples.data());
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
    std::vector<Trend::Part> parts;
    finished.append_parts(parts);
    first_block = parts.front().samples.data();
  }
  SampleLog next;
  next.push_back(2);
  std::vector<Trend::Part> parts;
  next.append_parts(parts);
  EXPECT_EQ(parts.front().samples.data(), first_block);
  EXPECT_EQ(next.to_vector(), std::vector<std::int64_t>{2});  // emptied before reuse
}

TEST(SampleLogTest, StaysExactUpToTheDocumentedCount) {
  // 2^20 samples are kept one by one; the next one moves them all into the histogram.
  SampleLog log;
  for (std::size_t i = 0; i < SampleLog::kExactSamples; ++i) log.push_back(static_cast<std::int64_t>(i));
  EXPECT_TRUE(log.exact());
  std::vector<Trend::Part> parts;
  log.append_parts(parts);
  EXPECT_EQ(parts.size(), SampleLog::kExactSamples / SampleLog::kBlockSamples);
  EXPECT_TRUE(Trend(parts).exact());

  log.push_back(-1);
  EXPECT_FALSE(log.exact());
  EXPECT_EQ(log.size(), SampleLog::kExactSamples + 1);
  parts.clear();
  log.append_parts(parts);
  ASSERT_EQ(parts.size(), 1U);
  EXPECT_NE(parts[0].histogram, nullptr);
  const Trend t(parts);
  EXPECT_FALSE(t.exact());
  EXPECT_EQ(t.min(), -1);  // count, min, max and mean stay exact
  EXPECT_EQ(t.max(), static_cast<std::int64_t>(SampleLog::kExactSamples) - 1);
  EXPECT_EQ(t.size(), SampleLog::kExactSamples + 1);
}

TEST(SampleLogTest, PastTheExactCountPercentilesAreWithinTheStatedRelativeError) {
  // A million latencies shaped like a provider's (lognormal, median 80 ms, p99 2 s, in
  // ns), logged with room for 4 blocks only, against the exact nearest-rank answers.
  Xoshiro256 rng(2026);
  SampleLog log(4 * SampleLog::kBlockSamples);
  std::vector<std::int64_t> exact;
  for (int i = 0; i < 1'000'000; ++i) {
    const auto x = std::llround(rng.lognormal_median_p99(80e6, 2e9));
    log.push_back(x);
    exact.push_back(x);
  }
  ASSERT_FALSE(log.exact());
  std::vector<Trend::Part> parts;
  log.append_parts(parts);
  // With an exact part beside it, as when a trend spans several logs.
  const std::vector<std::int64_t> more{1, 5'000'000'000};
  parts.emplace_back(more);
  exact.insert(exact.end(), more.begin(), more.end());

  const Trend approx(parts);
  const Trend reference(exact);
  ASSERT_FALSE(approx.exact());
  const std::vector<double> ps{0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100};
  const std::vector<std::int64_t> got = approx.percentiles(ps);
  const std::vector<std::int64_t> want = reference.percentiles(ps);
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const double bound = static_cast<double>(want[i]) * LogHistogram::kRelativeError;
    EXPECT_LE(std::abs(static_cast<double>(got[i] - want[i])), bound) << "p(" << ps[i] << ")";
  }
  EXPECT_EQ(approx.size(), reference.size());
  EXPECT_EQ(approx.min(), reference.min());
  EXPECT_EQ(approx.max(), reference.max());
  EXPECT_DOUBLE_EQ(approx.mean(), reference.mean());
}

TEST(SampleLogTest, CopiesOfACountingLogKeepTheirHistogram) {
  SampleLog log(SampleLog::kBlockSamples);
  for (std::size_t i = 0; i <= SampleLog::kBlockSamples; ++i) log.push_back(7);
  ASSERT_FALSE(log.exact());
  SampleLog copy(log);
  copy.push_back(7);
  EXPECT_EQ(log.size(), SampleLog::kBlockSamples + 1);
  EXPECT_EQ(copy.size(), SampleLog::kBlockSamples + 2);
  SampleLog moved(std::move(copy));
  EXPECT_FALSE(moved.exact());
  EXPECT_EQ(moved.size(), SampleLog::kBlockSamples + 2);
}

TEST(SampleLogTest, ALogOfZerosViewsTheSharedBlockOfZeros) {
  // 2 blocks and 5 zeros: counted, not stored; parts of 8192, 8192 and 5 zeros, all over
  // one block of zeros, which a second log shares.
  constexpr std::size_t n = 2 * SampleLog::kBlockSamples + 5;
  SampleLog log;
  SampleLog other;
  for (std::size_t i = 0; i < n; ++i) log.push_back(0);
  other.push_back(0);
  EXPECT_EQ(log.size(), n);
  EXPECT_TRUE(log.exact());
  EXPECT_EQ(log.to_vector(), std::vector<std::int64_t>(n, 0));
  std::vector<Trend::Part> parts;
  log.append_parts(parts);
  ASSERT_EQ(parts.size(), 3U);
  EXPECT_EQ(parts[0].size(), SampleLog::kBlockSamples);
  EXPECT_EQ(parts[2].size(), 5U);
  EXPECT_EQ(parts[0].samples.data(), parts[2].samples.data());
  std::vector<Trend::Part> other_parts;
  other.append_parts(other_parts);
  ASSERT_EQ(other_parts.size(), 1U);
  EXPECT_EQ(other_parts[0].samples.data(), parts[0].samples.data());
  const Trend t(parts);
  EXPECT_EQ(t.size(), n);
  EXPECT_EQ(t.percentile(99), 0);
  EXPECT_EQ(t.max(), 0);
}

TEST(SampleLogTest, TheFirstSampleThatIsNotZeroWritesTheZerosOut) {
  // 8192 + 3 zeros, then 7: the same samples, parts and blocks as if pushed into blocks.
  SampleLog log;
  std::vector<std::int64_t> expected(SampleLog::kBlockSamples + 3, 0);
  EXPECT_TRUE(log.all_zeros());  // no sample yet
  for (std::size_t i = 0; i < expected.size(); ++i) log.push_back(0);
  EXPECT_TRUE(log.all_zeros());
  log.push_back(7);
  EXPECT_FALSE(log.all_zeros());
  expected.push_back(7);
  log.push_back(0);
  expected.push_back(0);
  EXPECT_EQ(log.size(), expected.size());
  EXPECT_EQ(log.to_vector(), expected);
  std::vector<Trend::Part> parts;
  log.append_parts(parts);
  ASSERT_EQ(parts.size(), 2U);
  EXPECT_EQ(parts[1].size(), 5U);
  EXPECT_EQ(parts[1].samples[3], 7);
}

TEST(SampleLogTest, ALogOfZerosSwitchesToTheHistogramAtTheSameCount) {
  // Room for one block: 8192 zeros are kept exactly, the next sample (a zero too) moves
  // them all into the histogram, as for any other samples.
  SampleLog log(100);  // rounded up to one block
  for (std::size_t i = 0; i < SampleLog::kBlockSamples; ++i) log.push_back(0);
  EXPECT_TRUE(log.exact());
  log.push_back(0);
  EXPECT_FALSE(log.exact());
  EXPECT_EQ(log.size(), SampleLog::kBlockSamples + 1);
  std::vector<Trend::Part> parts;
  log.append_parts(parts);
  ASSERT_EQ(parts.size(), 1U);
  EXPECT_NE(parts[0].histogram, nullptr);
  EXPECT_EQ(Trend(parts).max(), 0);
}

TEST(SampleLogTest, CopiesAndMovesOfALogOfZerosKeepTheCount) {
  SampleLog log;
  for (int i = 0; i < 10; ++i) log.push_back(0);
  SampleLog copy(log);
  copy.push_back(1);
  EXPECT_EQ(log.to_vector(), std::vector<std::int64_t>(10, 0));
  EXPECT_EQ(copy.size(), 11U);
  SampleLog moved(std::move(log));
  EXPECT_EQ(moved.size(), 10U);
  EXPECT_TRUE(log.empty());  // NOLINT(bugprone-use-after-move): a moved-from log is empty
  SampleLog assigned;
  assigned.push_back(5);
  assigned = std::move(moved);
  EXPECT_EQ(assigned.to_vector(), std::vector<std::int64_t>(10, 0));
}

}  // namespace
}  // namespace squall
