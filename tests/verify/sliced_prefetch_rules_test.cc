// The verifier's sliced-prefetch rules (rule 4, verify/slice_checks.cc) on
// one hand-made plan: each test breaks the valid plan in exactly one way.
#include <string>

#include "gtest/gtest.h"
#include "tests/verify/buffer_builder.h"
#include "tests/verify/hand_made_plan.h"

namespace memplan::testing_verify {
namespace {

// Eight steps, alternate memory of 16 bytes:
//  w(8)[0,7], a weight read at 3 and 6: default [0,7] @0; prefetched in two
//    slices done at 3 — slice 0 (bytes [0,4)) from step 1, slice 1 (bytes
//    [4,8)) from step 2 — into alternate [2,6] @0; slice 0's bytes are
//    reserved from step 1.
//  v(4)[0,1], produced in alternate [0,1] @8 and read at 1.
HandMadePlan MakeSlicedPlan() {
  HandMadePlan m;
  m.set.time_steps = 8;
  m.set.buffers = {MakeBuffer("w", 8, 0, 7, {3, 6}), MakeBuffer("v", 4, 0, 1, {1})};
  Plan& p = m.plan;
  p.time_steps = 8;
  p.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 8},
              SpaceInfo{"alternate", kAlternateSpace, 16, 12}};
  p.pools = {TransientPool(8, 2, 12)};
  p.peak = 8;
  p.lower_bound = 8;
  p.placements = {
      {"transient", {Allocation{kDefaultSpace, 0, 0, 7}, Allocation{kAlternateSpace, 0, 2, 6}}},
      {"transient", {Allocation{kAlternateSpace, 8, 0, 1}}},
  };
  p.copies = {AsyncCopy{0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 1, 3, 4, 0, 2, 0},
              AsyncCopy{0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 2, 3, 4, 1, 2, 4}};
  p.msa = CopyStats(2, 0, 4);
  p.msa->sliced_prefetches = 1;
  p.msa->prefetch_slices = 2;
  m.options.capacity[kAlternateSpace] = 16;
  return m;
}

TEST(SlicedPrefetchRulesTest, TheHandMadePlanIsValid) { EXPECT_EQ(Verify(MakeSlicedPlan()), "OK"); }

TEST(SlicedPrefetchRulesTest, ASliceChunkIsReservedFromItsOwnStart) {
  HandMadePlan m = MakeSlicedPlan();
  // v at bytes [0,4) during [0,1] misses w's segment (from 2) but not slice
  // 0's bytes, filled from step 1.
  m.plan.placements[1].allocations[0].offset = 0;
  m.plan.spaces[1].peak = 8;
  EXPECT_EQ(Verify(m),
            "copy 0 (prefetch of buffer 'w' (id 0) from space 0 to space 1, time [1, 3]) fills "
            "bytes [0, 4) of space 1 during [1, 1], which buffer 'v' (id 1) allocation 0 (space "
            "1, bytes [0, 4), time [0, 1]) also holds");
  // Slice 1's bytes [4,8) are free at step 1: it may lie there.
  m.plan.placements[1].allocations[0].offset = 4;
  EXPECT_EQ(Verify(m), "OK");
}

TEST(SlicedPrefetchRulesTest, SlicesAreAdjacentAndCoverTheBuffer) {
  HandMadePlan m = MakeSlicedPlan();
  m.plan.copies[1].slice_offset = 5;
  EXPECT_EQ(Verify(m),
            "copy 1 (prefetch of buffer 'w' (id 0) from space 0 to space 1, time [2, 3]) moves "
            "bytes [5, 9) but the slices below it end at byte 4: slices must tile the buffer, "
            "each non-empty");
  // Slice 0 may hold the high bytes: the slices tile the buffer in either order.
  m = MakeSlicedPlan();
  m.plan.copies[0].slice_offset = 4;
  m.plan.copies[1].slice_offset = 0;
  EXPECT_EQ(Verify(m), "OK");
  m = MakeSlicedPlan();
  m.plan.copies[1].bytes = 3;
  m.plan.msa->prefetch_bytes = 7;
  EXPECT_EQ(Verify(m),
            "copy 0 (prefetch of buffer 'w' (id 0) from space 0 to space 1, time [1, 3]): the "
            "slices move 7 bytes but the buffer has 8");
}

TEST(SlicedPrefetchRulesTest, EverySliceOnce) {
  HandMadePlan m = MakeSlicedPlan();
  m.plan.copies.pop_back();
  m.plan.msa = CopyStats(1, 0, 4);
  m.plan.msa->sliced_prefetches = 1;
  m.plan.msa->prefetch_slices = 1;
  EXPECT_EQ(Verify(m),
            "copy 0 (prefetch of buffer 'w' (id 0) from space 0 to space 1, time [1, 3]) is "
            "slice 0 of 2 but 1 slice copy of the buffer are done at time 3");
  m = MakeSlicedPlan();
  m.plan.copies[1].slice_index = 0;
  m.plan.msa->sliced_prefetches = 2;
  EXPECT_EQ(Verify(m),
            "copy 1 (prefetch of buffer 'w' (id 0) from space 0 to space 1, time [2, 3]) and "
            "copy 0 are both slice 0 of one prefetch");
}

TEST(SlicedPrefetchRulesTest, SlicesStartInIndexOrder) {
  HandMadePlan m = MakeSlicedPlan();
  m.plan.copies[0].start = 2;
  m.plan.copies[1].start = 1;
  EXPECT_EQ(Verify(m),
            "copy 1 (prefetch of buffer 'w' (id 0) from space 0 to space 1, time [1, 3]) starts "
            "at time 1, before slice 0 (time 2): slices start in index order");
}

TEST(SlicedPrefetchRulesTest, TheLastSliceOpensTheWholeValue) {
  HandMadePlan m = MakeSlicedPlan();
  m.plan.placements[0].allocations[1].start = 1;  // as if unsliced
  EXPECT_EQ(Verify(m),
            "copy 1 (prefetch of buffer 'w' (id 0) from space 0 to space 1, time [2, 3]), the "
            "last slice, opens no allocation in space 1 that starts at time 2 and lasts until "
            "time 3 (the whole value, contiguous at its use)");
}

TEST(SlicedPrefetchRulesTest, UsesWaitForEverySlice) {
  HandMadePlan m = MakeSlicedPlan();
  m.set.buffers[0].mutable_use_times() = {2, 6};  // read at 2, before the slices are done at 3
  EXPECT_EQ(Verify(m),
            "buffer 'w' (id 0) is used at time 2 in buffer 'w' (id 0) allocation 1 (space 1, "
            "bytes [0, 8), time [2, 6]) before copy 1 is done at time 3");
}

TEST(SlicedPrefetchRulesTest, TheSliceCountsAreReported) {
  HandMadePlan m = MakeSlicedPlan();
  m.plan.msa->prefetch_slices = 1;
  EXPECT_EQ(Verify(m), "the MSA statistics report prefetch_slices = 1 but the copies give 2");
}

}  // namespace
}  // namespace memplan::testing_verify
