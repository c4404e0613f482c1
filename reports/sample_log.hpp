// SampleLog: an append-only sequence of integer samples kept in fixed-size blocks.
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
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace squall {

class SampleLog {
 public:
  // 64 KiB blocks: large enough that a block boundary is rare, small enough that a log of
  // a few samples stays small.
  static constexpr std::size_t kBlockSamples = 8192;

  SampleLog() = default;
  SampleLog(const SampleLog& other);
  SampleLog(SampleLog&& other) noexcept = default;
  SampleLog& operator=(const SampleLog& other);
  SampleLog& operator=(SampleLog&& other) noexcept;
  ~SampleLog();

  void push_back(std::int64_t sample) {
    if (blocks_.empty() || blocks_.back().size() == kBlockSamples) add_block();
    blocks_.back().push_back(sample);
  }

  std::size_t size() const {
    return blocks_.empty() ? 0 : (blocks_.size() - 1) * kBlockSamples + blocks_.back().size();
  }
  bool empty() const { return blocks_.empty(); }

  // Appends to `parts` the samples in order, one span per block; the spans are valid until
  // the next push_back. Parts of several logs make one trend (reports/trend.hpp).
  void append_parts(std::vector<std::span<const std::int64_t>>& parts) const {
    parts.insert(parts.end(), blocks_.begin(), blocks_.end());
  }
  // A copy of the samples in order, for tests and small reports.
  std::vector<std::int64_t> to_vector() const;

 private:
  // Appends an empty block of capacity kBlockSamples, a spare one if the thread has one.
  void add_block();
  // Moves every block to the thread's spare list, leaving the log empty.
  void release_blocks() noexcept;

  std::vector<std::vector<std::int64_t>> blocks_;  // all full but the last
};

}  // namespace squall
