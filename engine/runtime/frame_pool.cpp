#include "engine/runtime/frame_pool.hpp"

#include <array>
#include <new>

namespace squall::frame_pool {
namespace {

struct FreeNode {
  FreeNode* next;
};

constexpr std::size_t kClasses = kMaxPooledBytes / kGranule;

// The lists own their nodes until the thread exits; freeing them then keeps leak checkers
// quiet and returns the memory of finished sweep workers.
struct FreeLists {
  std::array<FreeNode*, kClasses> heads{};
  ~FreeLists() {
    for (FreeNode* head : heads) {
      while (head != nullptr) {
        FreeNode* next = head->next;
        ::operator delete(head);
        head = next;
      }
    }
  }
};

thread_local FreeLists lists;

constexpr std::size_t class_of(std::size_t bytes) { return (bytes + kGranule - 1) / kGranule - 1; }

}  // namespace

void* allocate(std::size_t bytes) {
  if (bytes == 0 || bytes > kMaxPooledBytes) return ::operator new(bytes);
  const std::size_t c = class_of(bytes);
  if (FreeNode* node = lists.heads[c]) {
    lists.heads[c] = node->next;
    return node;
  }
  return ::operator new((c + 1) * kGranule);
}

void deallocate(void* p, std::size_t bytes) noexcept {
  if (bytes == 0 || bytes > kMaxPooledBytes) {
    ::operator delete(p);
    return;
  }
  const std::size_t c = class_of(bytes);
  auto* node = static_cast<FreeNode*>(p);
  node->next = lists.heads[c];
  lists.heads[c] = node;
}

}  // namespace squall::frame_pool
