// SampleLog: an append-only sequence of integer samples kept in fixed-size blocks, up to
// a bound, then counted in a histogram.
//
// The recorder keeps every latency sample of a run, so that percentiles are exact
// (reports/trend.hpp): a million provider calls are 8 MB of nanoseconds. A std::vector
// doubling its way there copies all it holds at each growth and touches about twice the
// memory it ends with, and every fresh 4 KiB page costs a page fault; in the throughput
// benchmark that was the largest cost of recording (bench/README.md). Blocks never move,
// so each sample is written once and each page is touched once. And blocks are recycled:
// a log that goes away leaves its blocks, emptied, on a per-thread spare list that the
// next log on the thread draws from, so the second and later runs of a process (a
// sweep's, a benchmark's) touch no fresh memory for their samples. Like the coroutine
// frame pool (engine/runtime/frame_pool.hpp), the list is per thread because one
// simulation runs on one thread, and it holds at most what the logs of one thread held
// at their peak; it is freed when the thread exits.
//
// Bounded memory. A run of hours at thousands of tasks per second would keep hundreds of
// millions of samples. So a log keeps its first `exact_limit` samples (kExactSamples,
// 2^20 = 1,048,576 by default: 8 MiB, every shipped scenario and the 1 M-task benchmarks
// stay below it) and, at the first sample past them, moves them all into a LogHistogram
// (reports/log_histogram.hpp) and counts every later sample there: at most 216 KiB for
// latencies up to a minute, however long the run. Its blocks go back to the spare list.
// Percentiles of such a log are then within LogHistogram::kRelativeError (2^-11) of the
// exact ones (Trend::exact() says which); the count, min, max and mean stay exact. The
// switch depends only on the number of samples, so it is as deterministic as they are.
//
// Zeros. A log whose samples so far are all 0 holds no blocks, only their count: the
// per-task tokens and cost of a model without an LLM are a million zeros each, 16 MiB of
// fresh pages and 4,096 page faults for nothing (bench/README.md). Its parts then view a
// shared read-only block of zeros, so a trend reads the same samples. The first sample
// that is not 0 writes the zeros into blocks and the log goes on as above; a log of zeros
// only switches to the histogram at the same count as any other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "reports/log_histogram.hpp"
#include "reports/trend.hpp"

namespace squall {

class SampleLog {
 public:
  // 64 KiB blocks: large enough that a block boundary is rare, small enough that a log of
  // a few samples stays small.
  static constexpr std::size_t kBlockSamples = 8192;

  // Samples kept exactly before the log switches to a histogram: 128 blocks, 8 MiB.
  static constexpr std::size_t kExactSamples = std::size_t{1} << 20;

  // `exact_limit` is rounded up to whole blocks; tests use small ones.
  explicit SampleLog(std::size_t exact_limit = kExactSamples)
      : exact_limit_((exact_limit + kBlockSamples - 1) / kBlockSamples * kBlockSamples) {}
  SampleLog(const SampleLog& other);
  SampleLog(SampleLog&& other) noexcept;
  SampleLog& operator=(const SampleLog& other);
  SampleLog& operator=(SampleLog&& other) noexcept;
  ~SampleLog();

  // A compare and a store while the last block has room: the recorder pushes a sample
  // per attempt and three per task. A log without blocks (empty, of zeros, or counting
  // in a histogram) has no room, so it takes the slow path too, but for a zero that is
  // only counted (a model without an LLM pushes two per task).
  void push_back(std::int64_t sample) {
    if (next_ == block_end_) [[unlikely]] {
      if (sample == 0 && blocks_.empty() && !histogram_ && zeros_ < exact_limit_) {
        ++zeros_;  // still all zeros: counted only (see the header)
        return;
      }
      push_slow(sample);
      return;
    }
    *next_++ = sample;
  }

  std::size_t size() const {
    if (histogram_) return histogram_->count();
    return blocks_.empty() ? zeros_ : (blocks_.size() - 1) * kBlockSamples + last_block_size();
  }
  bool empty() const { return size() == 0; }
  // True while every sample is kept (at most exact_limit of them).
  bool exact() const { return !histogram_; }
  // True when every sample so far is 0 (and while there is none): a log of zeros only.
  bool all_zeros() const { return blocks_.empty() && !histogram_; }

  // Appends to `parts` the samples: in order, one span per block (of a log of zeros only,
  // spans of the shared block of zeros), or the histogram. The parts are valid until the
  // next push_back. Parts of several logs make one trend (reports/trend.hpp).
  void append_parts(std::vector<Trend::Part>& parts) const;
  // Frees the emptied blocks this thread keeps for its next logs (see the header), giving
  // back what the thread's logs held at their peak; for long-lived threads between runs.
  static void release_spare_blocks() noexcept;

  // A copy of the samples in order, for tests and small reports. An exact log only.
  std::vector<std::int64_t> to_vector() const;

 private:
  // push_back when the last block is full (or there is none, or the log counts in a
  // histogram): writes out the zeros counted so far, then adds a block, or switches to the
  // histogram at the exact limit.
  void push_slow(std::int64_t sample);
  // Appends an empty block of kBlockSamples samples, a spare one if the thread has one.
  void add_block();
  // Moves every block to the thread's spare list, leaving the log empty.
  void release_blocks() noexcept;

  // The samples in the last block.
  std::size_t last_block_size() const { return static_cast<std::size_t>(next_ - blocks_.back().get()); }

  // Blocks of kBlockSamples samples: all full but the last, which is filled up to next_;
  // none once counted. next_ and block_end_ are null without blocks.
  std::vector<std::unique_ptr<std::int64_t[]>> blocks_;
  std::int64_t* next_ = nullptr;             // where the next sample goes in the last block
  std::int64_t* block_end_ = nullptr;        // the last block's end
  std::unique_ptr<LogHistogram> histogram_;  // every sample, once past exact_limit_
  std::size_t zeros_ = 0;                    // the samples, all 0, while there are no blocks and no histogram
  std::size_t exact_limit_;                  // a whole number of blocks
};

}  // namespace squall
