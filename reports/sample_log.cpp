#include "reports/sample_log.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace squall {
namespace {

// Emptied blocks of logs that went away, each with capacity kBlockSamples.
thread_local std::vector<std::vector<std::int64_t>> spare_blocks;

// What the parts of a log of zeros view: read only, shared by every log and thread.
constexpr std::array<std::int64_t, SampleLog::kBlockSamples> kZeroBlock{};

}  // namespace

SampleLog::SampleLog(const SampleLog& other) : zeros_(other.zeros_), exact_limit_(other.exact_limit_) {
  if (other.histogram_) histogram_ = std::make_unique<LogHistogram>(*other.histogram_);
  for (const std::vector<std::int64_t>& block : other.blocks_) {
    add_block();
    blocks_.back().assign(block.begin(), block.end());
  }
}

SampleLog::SampleLog(SampleLog&& other) noexcept
    : blocks_(std::move(other.blocks_)),
      histogram_(std::move(other.histogram_)),
      zeros_(std::exchange(other.zeros_, 0)),
      exact_limit_(other.exact_limit_) {
  other.blocks_.clear();
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
    histogram_ = std::move(other.histogram_);
    zeros_ = std::exchange(other.zeros_, 0);
    exact_limit_ = other.exact_limit_;
  }
  return *this;
}

SampleLog::~SampleLog() { release_blocks(); }

void SampleLog::push_slow(std::int64_t sample) {
  // The zeros counted so far go into blocks first, as if pushed one by one.
  for (; zeros_ > 0; --zeros_) {
    if (blocks_.empty() || blocks_.back().size() == kBlockSamples) add_block();
    blocks_.back().push_back(0);
  }
  if (!blocks_.empty() && blocks_.back().size() < kBlockSamples) {
    blocks_.back().push_back(sample);
    return;
  }
  if (!histogram_ && size() >= exact_limit_) {
    histogram_ = std::make_unique<LogHistogram>();
    for (const std::vector<std::int64_t>& block : blocks_) {
      for (const std::int64_t x : block) histogram_->record(x);
    }
    release_blocks();
  }
  if (histogram_) {
    histogram_->record(sample);
    return;
  }
  add_block();
  blocks_.back().push_back(sample);
}

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

void SampleLog::release_spare_blocks() noexcept {
  spare_blocks.clear();
  spare_blocks.shrink_to_fit();
}

void SampleLog::append_parts(std::vector<Trend::Part>& parts) const {
  if (histogram_) {
    parts.emplace_back(*histogram_);
    return;
  }
  for (std::size_t left = zeros_; left > 0;) {
    const std::size_t n = std::min(left, kBlockSamples);
    parts.emplace_back(std::span<const std::int64_t>(kZeroBlock.data(), n));
    left -= n;
  }
  parts.insert(parts.end(), blocks_.begin(), blocks_.end());
}

std::vector<std::int64_t> SampleLog::to_vector() const {
  std::vector<std::int64_t> samples;
  samples.reserve(size());
  samples.insert(samples.end(), zeros_, 0);
  for (const std::vector<std::int64_t>& block : blocks_) samples.insert(samples.end(), block.begin(), block.end());
  return samples;
}

}  // namespace squall
