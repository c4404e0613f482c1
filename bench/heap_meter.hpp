// HeapMeter: the live heap bytes of the benchmark process and their peak, for the bytes
// per in-flight task of bench/README.md.
//
// squall_bench replaces the global operator new and delete (bench/heap_meter.cpp) with
// malloc and free plus, while a meter is armed, a count of the bytes live: each block
// counts as malloc_usable_size says (glibc's documented extension), on allocation and on
// release alike, so the count is exact for blocks allocated and freed while it runs.
// Unarmed, the replacement costs one predictable branch per allocation; the timed
// benchmarks run unarmed.
//
// Single-threaded: Google Benchmark runs these benchmarks on the main thread, and so does
// one simulation (DESIGN section 3).
#pragma once

#include <cstdint>

namespace squall::bench {

class HeapMeter {
 public:
  // Starts counting from zero: bytes allocated from now on and not yet freed.
  HeapMeter();
  ~HeapMeter();
  HeapMeter(const HeapMeter&) = delete;
  HeapMeter& operator=(const HeapMeter&) = delete;

  // Bytes allocated since construction and still live (negative if more was freed than
  // allocated: blocks that were live before the meter started).
  std::int64_t live_bytes() const;
  // The most live_bytes() has been since construction.
  std::int64_t peak_bytes() const;
};

}  // namespace squall::bench
