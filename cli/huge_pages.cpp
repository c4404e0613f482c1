#include "cli/huge_pages.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace squall::cli {

void back_heap_with_huge_pages() noexcept {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  // Address space only: pages are backed when first written.
  constexpr std::size_t kReserve = std::size_t{512} << 20;
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  // glibc's largest mmap threshold (HEAP_MAX_SIZE / 2 on 64-bit): blocks below it come
  // from the heap, so the reserve serves every sample block and table.
  constexpr int kMmapThreshold = 32 << 20;
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * kReserve));
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  // An allocation larger than the whole heap so far (so no free chunk can serve it) makes
  // malloc grow the heap by it plus the pad, so the reserve is mapped from `before` up.
  // Nothing may allocate between setting the pad and that allocation (it would take the
  // pad instead).
  const auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::size_t heap = mallinfo2().arena;
  if (heap + 4096 >= static_cast<std::size_t>(kMmapThreshold)) return;  // too late: the heap is large
  if (mallopt(M_TOP_PAD, static_cast<int>(kReserve)) == 0) return;
  // volatile: a malloc whose block is only freed may be elided by the compiler.
  void* volatile grow = std::malloc(heap + 4096);
  const auto after = reinterpret_cast<std::uintptr_t>(sbrk(0));
  std::free(grow);
  // Later growth, past the reserve, in ordinary steps (glibc's default pad, 128 KiB).
  mallopt(M_TOP_PAD, 128 << 10);
  const std::uintptr_t begin = (before + kHugePage - 1) & ~(kHugePage - 1);
  if (after > begin + kHugePage) {
    madvise(reinterpret_cast<void*>(begin), (after - begin) & ~(kHugePage - 1), MADV_HUGEPAGE);
  }
#endif
}

}  // namespace squall::cli
