// IntrusiveList: a doubly linked FIFO list threaded through its elements.
//
// The runtime's waiters (cancellation callbacks, wait-queue entries) live in the frames
// of the coroutines that wait, so queueing one must not allocate: the links are in the
// element itself (an IntrusiveListNode base), as in Boost.Intrusive or the Linux
// kernel's list_head. Push and remove are O(1); an element is in at most one list.
#pragma once

namespace squall {

template <class T>
class IntrusiveList;

// Derive T publicly from IntrusiveListNode<T> to make it listable.
template <class T>
class IntrusiveListNode {
 public:
  // True while the element is in a list.
  bool linked() const noexcept { return linked_; }

 private:
  friend class IntrusiveList<T>;
  T* prev_ = nullptr;
  T* next_ = nullptr;
  bool linked_ = false;
};

template <class T>
class IntrusiveList {
 public:
  bool empty() const noexcept { return head_ == nullptr; }
  // The oldest element, or null.
  T* front() const noexcept { return head_; }
  // The newest element, or null.
  T* back() const noexcept { return tail_; }

  void push_back(T& element) noexcept {
    IntrusiveListNode<T>& n = element;
    n.prev_ = tail_;
    n.next_ = nullptr;
    n.linked_ = true;
    if (tail_ != nullptr) {
      node(*tail_).next_ = &element;
    } else {
      head_ = &element;
    }
    tail_ = &element;
  }

  // `element` must be in this list.
  void remove(T& element) noexcept {
    IntrusiveListNode<T>& n = element;
    if (n.prev_ != nullptr) {
      node(*n.prev_).next_ = n.next_;
    } else {
      head_ = n.next_;
    }
    if (n.next_ != nullptr) {
      node(*n.next_).prev_ = n.prev_;
    } else {
      tail_ = n.prev_;
    }
    n.prev_ = nullptr;
    n.next_ = nullptr;
    n.linked_ = false;
  }

 private:
  static IntrusiveListNode<T>& node(T& element) noexcept { return element; }

  T* head_ = nullptr;
  T* tail_ = nullptr;
};

}  // namespace squall
