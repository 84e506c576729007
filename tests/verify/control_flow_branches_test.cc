// Rule 9 of the verifier on a hand-made plan around a conditional: each test
// breaks the valid plan the way a planner that treats branches as
// straight-line code would, and the verifier names the branch.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/verify/buffer_builder.h"
#include "tests/verify/hand_made_plan.h"

namespace memplan::testing_verify {
namespace {

// Seven steps: the entry's op at 0, a conditional (branch @t [1,2], branch
// @f [3,4]) whose op takes step 5, and a last op at 6. Alternate memory of
// 24 bytes.
//  h(8)[0,6] defined at 0, read at 1, 3 and 6: produced in alternate memory
//    [0,6] @0 — one offset before, through and after the conditional.
//  w(8)[0,6] read at 4: default [0,6] @0; prefetched (3,4) inside branch @f
//    into alternate [3,4] @8.
//  y(8)[1,6] the conditional's result, written at 1 by @t and at 3 by @f,
//    read at 6: produced in alternate memory [1,6] @16 (an origin segment
//    that begins inside branch @t).
HandMadePlan MakeBranchPlan() {
  HandMadePlan m;
  m.set.time_steps = 7;
  m.set.buffers = {MakeBuffer("h", 8, 0, 6, {1, 3, 6}), MakeBuffer("w", 8, 0, 6, {4}),
                   MakeBuffer("y", 8, 1, 6, {6})};
  m.set.control_regions = {ControlRegion{ControlRegion::Kind::kBranches,
                                         "conditional %y",
                                         {RegionPart{"branch @t", 1, 2}, RegionPart{"branch @f", 3, 4}}}};
  Plan& p = m.plan;
  p.time_steps = 7;
  p.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 8},
              SpaceInfo{"alternate", kAlternateSpace, 24, 24}};
  PoolInfo transient = TransientPool(8, 3, 24);
  p.pools = {transient};
  p.peak = 8;
  p.lower_bound = 8;
  p.placements = {
      {"transient", {Allocation{kAlternateSpace, 0, 0, 6}}},
      {"transient", {Allocation{kDefaultSpace, 0, 0, 6}, Allocation{kAlternateSpace, 8, 3, 4}}},
      {"transient", {Allocation{kAlternateSpace, 16, 1, 6}}},
  };
  p.copies = {AsyncCopy{1, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 3, 4, 8}};
  p.msa = CopyStats(1, 0, 8);
  m.options.capacity[kAlternateSpace] = 24;
  return m;
}

// Adds an eviction of buffer `id` over [start, done] to the plan's counts
// and the default pool (8 more bytes at offset 8).
void AddEviction(HandMadePlan& m, BufferId id, TimeStep start, TimeStep done) {
  m.plan.copies.push_back(AsyncCopy{id, CopyKind::kEviction, kAlternateSpace, kDefaultSpace, start, done, 8});
  m.plan.msa->evictions += 1;
  m.plan.msa->eviction_bytes += 8;
  m.plan.pools[0].size = 16;
  m.plan.pools[0].lower_bound = 16;
  m.plan.spaces[0].peak = 16;
  m.plan.peak = 16;
  m.plan.lower_bound = 16;
}

TEST(ControlFlowBranchesTest, TheHandMadeConditionalPlanIsValid) { EXPECT_EQ(Verify(MakeBranchPlan()), "OK"); }

TEST(ControlFlowBranchesTest, APrefetchOpenedInABranchCannotOutliveTheConditional) {
  HandMadePlan m = MakeBranchPlan();
  // w prefetched in branch @t and kept for a read after the conditional:
  // when @f runs, nothing filled the chunk.
  m.set.buffers[1].mutable_use_times() = {4, 6};
  m.plan.copies[0].start = 1;
  m.plan.copies[0].done = 2;
  m.plan.placements[1].allocations[1] = Allocation{kAlternateSpace, 8, 1, 6};
  EXPECT_EQ(Verify(m),
            "buffer 'w' (id 1) allocation 1 (space 1, bytes [8, 16), time [1, 6]) neither stays "
            "inside nor covers the whole of the branch @t of conditional %y [1, 2]: only one "
            "branch runs, so data must be in the same place at the start and end of every branch "
            "as before and after the conditional");
}

TEST(ControlFlowBranchesTest, AnEvictionInOneBranchOnlyIsRejected) {
  HandMadePlan m = MakeBranchPlan();
  // h, written in alternate memory before the conditional, is evicted in
  // branch @t only: after @f runs, the default copy read at 6 is stale.
  m.plan.placements[0].allocations = {Allocation{kAlternateSpace, 0, 0, 2},
                                      Allocation{kDefaultSpace, 8, 1, 6}};
  AddEviction(m, 0, 1, 2);
  EXPECT_EQ(Verify(m),
            "buffer 'h' (id 0) allocation 0 (space 1, bytes [0, 8), time [0, 2]) neither stays "
            "inside nor covers the whole of the branch @t of conditional %y [1, 2]: only one "
            "branch runs, so data must be in the same place at the start and end of every branch "
            "as before and after the conditional");
}

TEST(ControlFlowBranchesTest, AConditionalResultIsInOnePlaceInEveryBranch) {
  HandMadePlan m = MakeBranchPlan();
  // y produced in alternate memory by @t and evicted there, while @f writes
  // it into the default chunk that the eviction fills: valid, as the
  // default segment holds y from its start in both branches.
  m.plan.placements[2].allocations = {Allocation{kAlternateSpace, 16, 1, 2},
                                      Allocation{kDefaultSpace, 8, 1, 6}};
  AddEviction(m, 2, 1, 2);
  EXPECT_EQ(Verify(m), "OK");
  // Without the eviction, @t leaves y in alternate memory only, and the
  // default segment read at 6 would have been written by @f alone.
  m.plan.copies.pop_back();
  m.plan.msa->evictions = 0;
  m.plan.msa->eviction_bytes = 0;
  EXPECT_EQ(Verify(m),
            "buffer 'y' (id 2) allocation 0 (space 1, bytes [16, 24), time [1, 2]) and buffer 'y' "
            "(id 2) allocation 1 (space 0, bytes [8, 16), time [1, 6]) both hold the data from the "
            "buffer's start 1, but it is produced in one place: the second needs an async copy");
  // Nor may the default segment begin with @f: nothing fills it there.
  m.plan.placements[2].allocations[1].start = 3;
  EXPECT_NE(Verify(m).find("buffer 'y' (id 2) allocation 1 (space 0, bytes [8, 16), time [3, 6])"),
            std::string::npos)
      << Verify(m);
  // An origin segment produced in @t that ends with @f's last step never
  // holds the result after the conditional.
  m = MakeBranchPlan();
  m.set.buffers[2].end = 4;
  m.set.buffers[2].mutable_use_times() = {};
  m.plan.placements[2].allocations[0].end = 4;
  EXPECT_EQ(Verify(m),
            "buffer 'y' (id 2) allocation 0 (space 1, bytes [16, 24), time [1, 4]) neither stays "
            "inside nor covers the whole of the branch @f of conditional %y [3, 4]: only one "
            "branch runs, so data must be in the same place at the start and end of every branch "
            "as before and after the conditional");
}

TEST(ControlFlowBranchesTest, NoCopyFromBeforeTheConditionCompletesInABranch) {
  HandMadePlan m = MakeBranchPlan();
  // Issued before the conditional, awaited in @f: @t never awaits it. The
  // segment itself, covering the conditional from before it, is legal.
  m.plan.copies[0].start = 0;
  m.plan.placements[1].allocations[1].start = 0;
  EXPECT_EQ(Verify(m),
            "copy 0 (prefetch of buffer 'w' (id 1) from space 0 to space 1, time [0, 4]) starts and "
            "is done on different sides of the bounds of the branch @f of conditional %y [3, 4]: "
            "only one branch runs, so data must be in the same place at the start and end of every "
            "branch as before and after the conditional");
}

}  // namespace
}  // namespace memplan::testing_verify
