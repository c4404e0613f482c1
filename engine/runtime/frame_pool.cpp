#include "engine/runtime/frame_pool.hpp"

#include <new>

namespace squall::frame_pool::detail {
namespace {

void free_all() noexcept {
  for (FreeNode*& head : free_lists) {
    while (head != nullptr) {
      FreeNode* next = head->next;
      ::operator delete(head);
      head = next;
    }
  }
}

// Frees the nodes on this thread's lists when the thread exits, which keeps leak checkers
// quiet and returns the memory of finished sweep workers.
struct Cleanup {
  ~Cleanup() {
    free_all();
    cleanup_armed = false;
  }
};

}  // namespace

void* allocate_fresh(std::size_t bytes) {
  if (!pooled(bytes)) return ::operator new(bytes);
  return ::operator new((class_of(bytes) + 1) * kGranule);
}

void deallocate_unpooled(void* p) noexcept { ::operator delete(p); }

void arm_cleanup() noexcept {
  // Constructed on first use, which registers its destructor for this thread's exit.
  thread_local Cleanup cleanup;
  cleanup_armed = true;
}

}  // namespace squall::frame_pool::detail

namespace squall::frame_pool {

void release_free_frames() noexcept { detail::free_all(); }

}  // namespace squall::frame_pool
