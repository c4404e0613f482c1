// Recycling allocator for coroutine frames.
//
// Every engine step is a coroutine, and a simulated provider call creates several frames;
// going to malloc for each dominates the simulator's profile. Frames are recycled through
// per-thread free lists in 16-byte size classes. One simulation runs on one thread
// (DESIGN section 3), so thread-local lists need no locks; a sweep's worker threads each
// keep their own. Frames larger than kMaxPooledBytes go to operator new directly.
//
// The common case, a frame of a size class whose list is not empty, is inline: every
// coroutine call takes a frame and gives it back. The list heads are a constinit array of
// plain pointers, so reaching them needs no per-access initialisation check; the nodes a
// thread still holds when it exits are freed by a cleanup object that the thread arms the
// first time it puts a node on a list.
#pragma once

#include <cstddef>

namespace squall::frame_pool {

// malloc's own granule on 64-bit glibc (its chunks are multiples of 16 bytes): a frame
// costs what it asks for rounded to 16, so every word taken out of a frame that every task
// in flight holds is memory saved, not only the words that cross a 64-byte boundary.
inline constexpr std::size_t kGranule = 16;
inline constexpr std::size_t kMaxPooledBytes = 2048;

namespace detail {

struct FreeNode {
  FreeNode* next;
};

inline constexpr std::size_t kClasses = kMaxPooledBytes / kGranule;
inline constinit thread_local FreeNode* free_lists[kClasses] = {};
inline constinit thread_local bool cleanup_armed = false;

// Sizes 1 to kMaxPooledBytes are pooled (0 wraps around and is not).
constexpr bool pooled(std::size_t bytes) { return bytes - 1 < kMaxPooledBytes; }
// Size class c holds blocks of (c + 1) * kGranule bytes.
constexpr std::size_t class_of(std::size_t bytes) { return (bytes - 1) / kGranule; }

void* allocate_fresh(std::size_t bytes);
void deallocate_unpooled(void* p) noexcept;
void arm_cleanup() noexcept;

}  // namespace detail

// Frees every frame on this thread's free lists. The lists hold what the thread's runs
// held at their peak until the thread exits; a long-lived thread calls this to give that
// memory back (the benchmark does, before it measures a run's peak heap).
void release_free_frames() noexcept;

inline void* allocate(std::size_t bytes) {
  if (detail::pooled(bytes)) {
    detail::FreeNode*& head = detail::free_lists[detail::class_of(bytes)];
    if (detail::FreeNode* node = head) {
      head = node->next;
      return node;
    }
  }
  return detail::allocate_fresh(bytes);
}

inline void deallocate(void* p, std::size_t bytes) noexcept {
  if (!detail::pooled(bytes)) {
    detail::deallocate_unpooled(p);
    return;
  }
  if (!detail::cleanup_armed) detail::arm_cleanup();
  auto* node = static_cast<detail::FreeNode*>(p);
  detail::FreeNode*& head = detail::free_lists[detail::class_of(bytes)];
  node->next = head;
  head = node;
}

}  // namespace squall::frame_pool
