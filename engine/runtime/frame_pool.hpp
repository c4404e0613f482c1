// Recycling allocator for coroutine frames.
//
// Every engine step is a coroutine, and a simulated provider call creates several frames;
// going to malloc for each dominates the simulator's profile. Frames are recycled through
// per-thread free lists in 64-byte size classes. One simulation runs on one thread
// (DESIGN section 3), so thread-local lists need no locks; a sweep's worker threads each
// keep their own. Frames larger than kMaxPooledBytes go to operator new directly.
#pragma once

#include <cstddef>

namespace squall::frame_pool {

inline constexpr std::size_t kGranule = 64;
inline constexpr std::size_t kMaxPooledBytes = 2048;

void* allocate(std::size_t bytes);
void deallocate(void* p, std::size_t bytes) noexcept;

}  // namespace squall::frame_pool
