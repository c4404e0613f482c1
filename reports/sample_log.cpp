#include "reports/sample_log.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace squall {
namespace {

// Blocks of logs that went away (their samples are overwritten before they are read).
thread_local std::vector<std::unique_ptr<std::int64_t[]>> spare_blocks;

// What the parts of a log of zeros view: read only, shared by every log and thread.
constexpr std::array<std::int64_t, SampleLog::kBlockSamples> kZeroBlock{};

}  // namespace

SampleLog::SampleLog(const SampleLog& other) : zeros_(other.zeros_), exact_limit_(other.exact_limit_) {
  if (other.histogram_) histogram_ = std::make_unique<LogHistogram>(*other.histogram_);
  for (std::size_t i = 0; i < other.blocks_.size(); ++i) {
    const std::size_t n = i + 1 < other.blocks_.size() ? kBlockSamples : other.last_block_size();
    add_block();
    next_ = std::copy_n(other.blocks_[i].get(), n, next_);
  }
}

SampleLog::SampleLog(SampleLog&& other) noexcept
    : blocks_(std::move(other.blocks_)),
      next_(std::exchange(other.next_, nullptr)),
      block_end_(std::exchange(other.block_end_, nullptr)),
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
    next_ = std::exchange(other.next_, nullptr);
    block_end_ = std::exchange(other.block_end_, nullptr);
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
    if (next_ == block_end_) add_block();
    *next_++ = 0;
  }
  if (next_ != block_end_) {
    *next_++ = sample;
    return;
  }
  if (!histogram_ && size() >= exact_limit_) {
    histogram_ = std::make_unique<LogHistogram>();
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      const std::size_t n = i + 1 < blocks_.size() ? kBlockSamples : last_block_size();
      for (const std::int64_t x : std::span<const std::int64_t>(blocks_[i].get(), n)) histogram_->record(x);
    }
    release_blocks();
  }
  if (histogram_) {
    histogram_->record(sample);
    return;
  }
  add_block();
  *next_++ = sample;
}

void SampleLog::add_block() {
  if (spare_blocks.empty()) {
    blocks_.push_back(std::make_unique_for_overwrite<std::int64_t[]>(kBlockSamples));
  } else {
    blocks_.push_back(std::move(spare_blocks.back()));
    spare_blocks.pop_back();
  }
  next_ = blocks_.back().get();
  block_end_ = next_ + kBlockSamples;
}

void SampleLog::release_blocks() noexcept {
  // A failure to grow the spare list only means these blocks are freed instead of kept.
  try {
    for (std::unique_ptr<std::int64_t[]>& block : blocks_) spare_blocks.push_back(std::move(block));
  } catch (...) {
  }
  blocks_.clear();
  next_ = block_end_ = nullptr;
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
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    const std::size_t n = i + 1 < blocks_.size() ? kBlockSamples : last_block_size();
    parts.emplace_back(std::span<const std::int64_t>(blocks_[i].get(), n));
  }
}

std::vector<std::int64_t> SampleLog::to_vector() const {
  std::vector<std::int64_t> samples;
  std::vector<Trend::Part> parts;
  append_parts(parts);
  samples.reserve(size());
  for (const Trend::Part& part : parts) samples.insert(samples.end(), part.samples.begin(), part.samples.end());
  return samples;
}

}  // namespace squall
