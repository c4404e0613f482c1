#include "bench/heap_meter.hpp"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace squall::bench {
namespace {

bool armed = false;
std::int64_t live = 0;
std::int64_t peak = 0;

void* counted_alloc(std::size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  if (armed) {
    live += static_cast<std::int64_t>(malloc_usable_size(p));
    peak = std::max(peak, live);
  }
  return p;
}

void* counted_aligned_alloc(std::size_t n, std::align_val_t align) {
  const auto a = static_cast<std::size_t>(align);
  // aligned_alloc wants a size that is a multiple of the alignment.
  void* p = std::aligned_alloc(a, (std::max<std::size_t>(n, 1) + a - 1) / a * a);
  if (p == nullptr) throw std::bad_alloc();
  if (armed) {
    live += static_cast<std::int64_t>(malloc_usable_size(p));
    peak = std::max(peak, live);
  }
  return p;
}

void counted_free(void* p) noexcept {
  if (p == nullptr) return;
  if (armed) live -= static_cast<std::int64_t>(malloc_usable_size(p));
  std::free(p);
}

}  // namespace

HeapMeter::HeapMeter() {
  live = 0;
  peak = 0;
  armed = true;
}
HeapMeter::~HeapMeter() { armed = false; }
std::int64_t HeapMeter::live_bytes() const { return live; }
std::int64_t HeapMeter::peak_bytes() const { return peak; }

}  // namespace squall::bench

void* operator new(std::size_t n) { return squall::bench::counted_alloc(n); }
void* operator new[](std::size_t n) { return squall::bench::counted_alloc(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return squall::bench::counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return squall::bench::counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t n, std::align_val_t a) { return squall::bench::counted_aligned_alloc(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return squall::bench::counted_aligned_alloc(n, a); }
void operator delete(void* p) noexcept { squall::bench::counted_free(p); }
void operator delete[](void* p) noexcept { squall::bench::counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { squall::bench::counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { squall::bench::counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { squall::bench::counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { squall::bench::counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { squall::bench::counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { squall::bench::counted_free(p); }
