#include "gtest/gtest.h"
#include "msa/alternate_heap.h"
#include "msa/copy_limits.h"

namespace memplan {
namespace {

using Range = std::pair<TimeStep, TimeStep>;

// The reference's AsynchronousCopyOrdering scenario (msa.md §6).
TEST(CopyLimitsTest, FifoOrderingRejectsNestedPrefetches) {
  AsyncCopyLimits limits;
  for (auto [s, d] : {Range{3, 11}, Range{1, 8}, Range{5, 14}, Range{7, 14}}) {
    EXPECT_FALSE(limits.FifoConflict(s, d).has_value()) << s << "," << d;
    limits.Add(CopyKind::kPrefetch, s, d);
  }
  EXPECT_EQ(limits.FifoConflict(2, 16), Range(3, 11));  // contains (3,11): the inner one is named
  EXPECT_EQ(limits.FifoConflict(9, 12), Range(7, 14));  // inside (5,14) and (7,14)
  EXPECT_EQ(limits.FifoConflict(6, 17), Range(7, 14));  // contains (7,14)
  EXPECT_FALSE(limits.FifoConflict(5, 13).has_value());
  EXPECT_FALSE(limits.FifoConflict(5, 14).has_value());
  // Evictions never take part in the ordering.
  limits.Add(CopyKind::kEviction, 0, 20);
  EXPECT_FALSE(limits.FifoConflict(5, 13).has_value());
}

TEST(CopyLimitsTest, OutstandingCopiesCountOverlapsPerKind) {
  AsyncCopyLimits limits;
  const AsyncCopyLimits::Handle a = limits.Add(CopyKind::kPrefetch, 2, 5);
  limits.Add(CopyKind::kPrefetch, 5, 8);
  limits.Add(CopyKind::kEviction, 0, 9);
  EXPECT_EQ(limits.CountOverlapping(CopyKind::kPrefetch, 5, 5), 2);  // closed ranges
  EXPECT_EQ(limits.CountOverlapping(CopyKind::kPrefetch, 6, 9), 1);
  EXPECT_EQ(limits.CountOverlapping(CopyKind::kEviction, 3, 4), 1);
  EXPECT_TRUE(limits.ExceedsLimit(CopyKind::kPrefetch, 4, 6, 2));
  EXPECT_FALSE(limits.ExceedsLimit(CopyKind::kPrefetch, 4, 6, 3));
  EXPECT_FALSE(limits.ExceedsLimit(CopyKind::kPrefetch, 4, 6, -1));  // unlimited
  EXPECT_TRUE(limits.ExceedsLimit(CopyKind::kPrefetch, 10, 12, 0));   // none allowed
  limits.Remove(a);
  EXPECT_EQ(limits.CountOverlapping(CopyKind::kPrefetch, 0, 5), 1);
  EXPECT_FALSE(limits.FifoConflict(3, 4).has_value());  // (2,5) is gone
}

// The example of msa/alternate_heap.h.
TEST(AlternateHeapTest, HeaderExample) {
  AlternateHeap heap(128, 8);
  heap.Commit(0, 3, 0, 32);
  EXPECT_EQ(heap.BestFit(2, 5, 20), 32);
  EXPECT_EQ(heap.BestFit(4, 5, 20), 0);
  EXPECT_EQ(heap.FreeUntil(0, 32, 4, 9), 9);
  const IntervalTree::Handle b = heap.Commit(7, 9, 16, 8);
  EXPECT_EQ(heap.FreeUntil(0, 32, 4, 9), 6);
  EXPECT_EQ(heap.FreeUntil(0, 32, 8, 9), 7);  // not free at its start
  EXPECT_EQ(heap.HoleRoom(40, 8, 7, 9), 96);
  EXPECT_FALSE(heap.IsFree(0, 32, 3, 3));
  EXPECT_TRUE(heap.IsFree(0, 16, 4, 9));
  EXPECT_FALSE(heap.IsFree(112, 24, 0, 0));  // past the capacity
  heap.Uncommit(b);
  EXPECT_EQ(heap.FreeUntil(0, 32, 4, 9), 9);
  EXPECT_EQ(heap.BestFit(0, 9, 100), std::nullopt);  // 32 + 100 > 128
}

}  // namespace
}  // namespace memplan
