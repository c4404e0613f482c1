#include "engine/runtime/cancellation.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace squall {
namespace {

// A callback that appends its tag to a log.
struct Tagged {
  std::vector<int>* log;
  int tag;
  static void run(void* self) {
    auto* t = static_cast<Tagged*>(self);
    t->log->push_back(t->tag);
  }
};

TEST(CancellationTest, DefaultTokenIsNeverCancelledAndRegistersNothing) {
  std::vector<int> log;
  Tagged t{&log, 1};
  const CancellationToken never;
  EXPECT_FALSE(never.cancelled());
  EXPECT_FALSE(never.can_be_cancelled());
  CancellationCallback cb(never, &Tagged::run, &t);
  EXPECT_FALSE(cb.armed());
  EXPECT_TRUE(log.empty());
}

TEST(CancellationTest, CallbacksRunOnceInRegistrationOrderAndCancelIsIdempotent) {
  CancellationSource source;
  std::vector<int> log;
  Tagged a{&log, 1};
  Tagged b{&log, 2};
  Tagged c{&log, 3};
  CancellationCallback ca(source.token(), &Tagged::run, &a);
  CancellationCallback cb(source.token(), &Tagged::run, &b);
  CancellationCallback cc(source.token(), &Tagged::run, &c);
  EXPECT_TRUE(ca.armed());
  EXPECT_FALSE(source.token().cancelled());
  source.cancel();
  source.cancel();
  EXPECT_TRUE(source.cancelled());
  EXPECT_TRUE(source.token().cancelled());
  EXPECT_EQ(log, (std::vector<int>{1, 2, 3}));
  EXPECT_FALSE(ca.armed());  // a callback that ran is no longer registered
  EXPECT_FALSE(source.has_callbacks());
}

TEST(CancellationTest, DisarmedOrDestroyedRegistrationsDoNotRun) {
  CancellationSource source;
  std::vector<int> log;
  Tagged a{&log, 1};
  Tagged b{&log, 2};
  Tagged c{&log, 3};
  CancellationCallback ca(source.token(), &Tagged::run, &a);
  auto cb = std::make_unique<CancellationCallback>(source.token(), &Tagged::run, &b);
  CancellationCallback cc(source.token(), &Tagged::run, &c);
  cb.reset();   // the middle node unlinks itself
  ca.disarm();  // so does the head
  source.cancel();
  EXPECT_EQ(log, (std::vector<int>{3}));
}

TEST(CancellationTest, RegisteringOnACancelledTokenRunsAtOnce) {
  // std::stop_callback's rule: a registration never misses a cancellation.
  CancellationSource source;
  source.cancel();
  std::vector<int> log;
  Tagged a{&log, 7};
  CancellationCallback ca(source.token(), &Tagged::run, &a);
  EXPECT_EQ(log, (std::vector<int>{7}));
  EXPECT_FALSE(ca.armed());
}

// A callback that unregisters another registration while the source is firing.
struct Disarmer {
  CancellationCallback* victim;
  std::vector<int>* log;
  static void run(void* self) {
    auto* d = static_cast<Disarmer*>(self);
    d->victim->disarm();
    d->log->push_back(0);
  }
};

TEST(CancellationTest, ACallbackMayUnregisterALaterOne) {
  CancellationSource source;
  std::vector<int> log;
  CancellationCallback victim;
  Disarmer d{&victim, &log};
  Tagged v{&log, 9};
  CancellationCallback first(source.token(), &Disarmer::run, &d);
  victim.arm(source.token(), &Tagged::run, &v);
  source.cancel();
  EXPECT_EQ(log, (std::vector<int>{0}));  // 9 never ran
}

TEST(CancellationTest, LinkedSourceFollowsItsParentButNotTheOtherWay) {
  CancellationSource parent;
  CancellationSource child(parent.token());
  CancellationSource grandchild(child.token());
  CancellationSource sibling(parent.token());
  std::vector<int> log;
  Tagged g{&log, 3};
  CancellationCallback cg(grandchild.token(), &Tagged::run, &g);

  sibling.cancel();  // a child's cancel stays below it
  EXPECT_FALSE(parent.cancelled());
  EXPECT_FALSE(child.cancelled());

  parent.cancel();
  EXPECT_TRUE(child.cancelled());
  EXPECT_TRUE(grandchild.cancelled());
  EXPECT_EQ(log, (std::vector<int>{3}));
}

TEST(CancellationTest, SourceLinkedToACancelledParentStartsCancelled) {
  CancellationSource parent;
  parent.cancel();
  CancellationSource child(parent.token());
  EXPECT_TRUE(child.cancelled());
}

TEST(CancellationTest, DestroyedChildSourceLeavesItsParent) {
  CancellationSource parent;
  {
    CancellationSource child(parent.token());
    EXPECT_TRUE(parent.has_callbacks());
  }
  EXPECT_FALSE(parent.has_callbacks());
  parent.cancel();  // must not touch the destroyed child
  EXPECT_TRUE(parent.cancelled());
}

TEST(CancellationTest, DestroyedSourceDetachesItsRegistrations) {
  std::vector<int> log;
  Tagged a{&log, 1};
  CancellationCallback ca;
  {
    CancellationSource source;
    ca.arm(source.token(), &Tagged::run, &a);
    EXPECT_TRUE(ca.armed());
  }
  EXPECT_FALSE(ca.armed());  // and its destructor touches nothing
  EXPECT_TRUE(log.empty());
}

}  // namespace
}  // namespace squall
