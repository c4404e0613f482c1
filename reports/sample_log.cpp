#include "reports/sample_log.hpp"

#include <utility>

namespace squall {
namespace {

// Emptied blocks of logs that went away, each with capacity kBlockSamples.
thread_local std::vector<std::vector<std::int64_t>> spare_blocks;

}  // namespace

SampleLog::SampleLog(const SampleLog& other) {
  for (const std::vector<std::int64_t>& block : other.blocks_) {
    add_block();
    blocks_.back().assign(block.begin(), block.end());
  }
}

SampleLog& SampleLog::operator=(const SampleLog& other) {
  if (this != &other) *this = SampleLog(other);
  return *this;
}

SampleLog& SampleLog::operator=(SampleLog&& other) noexcept {
  if (this != &other) {
    release_blocks();
    blocks_ = std::move(other.blocks_);
    other.blocks_.clear();
  }
  return *this;
}

SampleLog::~SampleLog() { release_blocks(); }

void SampleLog::add_block() {
  if (spare_blocks.empty()) {
    blocks_.emplace_back().reserve(kBlockSamples);
    return;
  }
  blocks_.push_back(std::move(spare_blocks.back()));
  spare_blocks.pop_back();
}

void SampleLog::release_blocks() noexcept {
  // A failure to grow the spare list only means these blocks are freed instead of kept.
  try {
    for (std::vector<std::int64_t>& block : blocks_) {
      block.clear();
      spare_blocks.push_back(std::move(block));
    }
  } catch (...) {
  }
  blocks_.clear();
}

std::vector<std::int64_t> SampleLog::to_vector() const {
  std::vector<std::int64_t> samples;
  samples.reserve(size());
  for (const std::vector<std::int64_t>& block : blocks_) samples.insert(samples.end(), block.begin(), block.end());
  return samples;
}

}  // namespace squall
