#include "engine/runtime/frame_pool.hpp"

#include <gtest/gtest.h>

namespace squall {
namespace {

TEST(FramePoolTest, AFreedFrameIsReusedForTheSameSizeClass) {
  // 113 and 128 bytes share the class of 128-byte blocks; the list is last in, first out.
  void* a = frame_pool::allocate(113);
  frame_pool::deallocate(a, 113);
  void* b = frame_pool::allocate(128);
  EXPECT_EQ(b, a);
  frame_pool::deallocate(b, 128);
}

TEST(FramePoolTest, SizeClassesAreKeptApart) {
  // Classes are 16 bytes apart (kGranule): 65 bytes is the class after 64's.
  static_assert(frame_pool::kGranule == 16);
  void* small = frame_pool::allocate(64);
  frame_pool::deallocate(small, 64);
  void* larger = frame_pool::allocate(65);  // the next class: 80-byte blocks
  EXPECT_NE(larger, small);
  void* again = frame_pool::allocate(64);
  EXPECT_EQ(again, small);
  frame_pool::deallocate(again, 64);
  frame_pool::deallocate(larger, 65);
}

TEST(FramePoolTest, LargeAndEmptyFramesBypassThePool) {
  // Beyond kMaxPooledBytes, and for 0 bytes, memory comes from operator new and goes back
  // to it: the pooled block waiting on its list is neither handed out for them nor
  // displaced by them.
  void* pooled = frame_pool::allocate(frame_pool::kMaxPooledBytes);
  frame_pool::deallocate(pooled, frame_pool::kMaxPooledBytes);
  void* big = frame_pool::allocate(frame_pool::kMaxPooledBytes + 1);
  void* empty = frame_pool::allocate(0);
  EXPECT_NE(big, pooled);
  EXPECT_NE(empty, pooled);
  frame_pool::deallocate(big, frame_pool::kMaxPooledBytes + 1);
  frame_pool::deallocate(empty, 0);
  void* again = frame_pool::allocate(frame_pool::kMaxPooledBytes);
  EXPECT_EQ(again, pooled);
  frame_pool::deallocate(again, frame_pool::kMaxPooledBytes);
}

TEST(FramePoolTest, ReleasedFramesGoBackToTheHeap) {
  // After release_free_frames the lists are empty: the next frames come from operator new
  // (the debug preset's AddressSanitizer would report a frame freed twice or still used).
  void* a = frame_pool::allocate(200);
  void* b = frame_pool::allocate(200);
  frame_pool::deallocate(a, 200);
  frame_pool::deallocate(b, 200);
  frame_pool::release_free_frames();
  void* c = frame_pool::allocate(200);
  static_cast<char*>(c)[199] = 1;  // a whole block of the class
  frame_pool::deallocate(c, 200);
  frame_pool::release_free_frames();
  frame_pool::release_free_frames();  // empty lists: nothing to do
}

}  // namespace
}  // namespace squall
