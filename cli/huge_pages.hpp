// back_heap_with_huge_pages: asks the kernel to back the process's heap with transparent
// huge pages (2 MiB) instead of 4 KiB pages, for the whole-process cost of `squall run`.
//
// A run writes every sample it keeps once, into memory it has never touched: a million
// tasks are about 40 MB of latency samples and per-window tables (reports/sample_log.hpp,
// reports/window_sample.hpp), and each fresh 4 KiB page costs a page fault, about 10 us in
// the VMs of bench/README.md: 9,400 faults, a tenth of the retry-breaker-1m process. With
// 2 MiB pages the same memory takes a few hundred faults. The in-process benchmarks do not
// see this: their later runs reuse memory the first one touched.
//
// How: glibc's main heap grows by brk. This reserves address space for it at once
// (M_TOP_PAD), keeps it (M_TRIM_THRESHOLD) and serves allocations up to M_MMAP_THRESHOLD's
// maximum from it, then marks the reserved range MADV_HUGEPAGE, which is what the
// `madvise` setting of /sys/kernel/mm/transparent_hugepage/enabled (Debian's default)
// needs. This is what glibc's own tunable glibc.malloc.hugetlb=1 does, which can only be
// set in the environment before the process starts. The kernel may still use 4 KiB pages
// (THP off, no free huge page): nothing but the cost changes, and nothing here changes
// what a run computes. Memory beyond the reserve, and other threads' arenas, keep the
// defaults. A no-op off Linux/glibc.
#pragma once

namespace squall::cli {

// Call first in main, before the heap is large. Never fails: a refusal only leaves the
// defaults.
void back_heap_with_huge_pages() noexcept;

}  // namespace squall::cli
