// Rule 9 of the verifier (loops and conditionals) on one hand-made MSA plan:
// each test breaks the valid plan in one way that the flattened time line
// alone would accept.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/verify/buffer_builder.h"
#include "tests/verify/hand_made_plan.h"

namespace memplan::testing_verify {
namespace {

// Six steps: the entry's op at 0, a loop (condition [1,1], body [2,3]) whose
// while op takes step 4, and a last op at 5. Alternate memory of 16 bytes.
//  h(8)[0,5] loop-carried, read at 1, 2 and 5: produced in alternate memory
//    [0,5] @0 — one offset before, inside and after the loop.
//  w(8)[0,5] passed into the loop and read at 3: default [0,5] @0;
//    prefetched (2,3) inside the body into alternate [2,3] @8 (every
//    iteration).
HandMadePlan MakeLoopPlan() {
  HandMadePlan m;
  m.set.time_steps = 6;
  m.set.buffers = {MakeBuffer("h", 8, 0, 5, {1, 2, 5}), MakeBuffer("w", 8, 0, 5, {3})};
  m.set.control_regions = {ControlRegion{
      ControlRegion::Kind::kLoop, "while %h", {RegionPart{"condition @c", 1, 1}, RegionPart{"body @b", 2, 3}}}};
  Plan& p = m.plan;
  p.time_steps = 6;
  p.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 8},
              SpaceInfo{"alternate", kAlternateSpace, 16, 16}};
  PoolInfo transient = TransientPool(8, 2, 16);
  p.pools = {transient};
  p.peak = 8;
  p.lower_bound = 8;
  p.placements = {
      {"transient", {Allocation{kAlternateSpace, 0, 0, 5}}},
      {"transient", {Allocation{kDefaultSpace, 0, 0, 5}, Allocation{kAlternateSpace, 8, 2, 3}}},
  };
  p.copies = {AsyncCopy{1, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 2, 3, 8}};
  p.msa = CopyStats(1, 0, 8);
  m.options.capacity[kAlternateSpace] = 16;
  return m;
}

TEST(ControlFlowRulesTest, TheHandMadeLoopPlanIsValid) { EXPECT_EQ(Verify(MakeLoopPlan()), "OK"); }

TEST(ControlFlowRulesTest, WithoutRegionsTheBrokenPlansPass) {
  // The flattened time line alone cannot see the loop: the copy below is fine
  // there.
  HandMadePlan m = MakeLoopPlan();
  m.set.control_regions.clear();
  m.plan.copies[0].start = 0;
  m.plan.placements[1].allocations[1].start = 0;
  EXPECT_EQ(Verify(m), "OK");
}

TEST(ControlFlowRulesTest, NoCopyFromOutsideALoopCompletesInsideIt) {
  HandMadePlan m = MakeLoopPlan();
  m.plan.copies[0].start = 0;  // issued before the loop, awaited in the body
  m.plan.placements[1].allocations[1].start = 0;
  EXPECT_EQ(Verify(m),
            "copy 0 (prefetch of buffer 'w' (id 1) from space 0 to space 1, time [0, 3]) starts and "
            "is done on different sides of the bounds of the body @b of while %h [2, 3]: a loop "
            "repeats it, so data must be in the same place at the start and end of every iteration "
            "as before and after the loop");
}

TEST(ControlFlowRulesTest, ALoopCarriedBufferKeepsItsPlaceAcrossTheLoop) {
  HandMadePlan m = MakeLoopPlan();
  // h leaves alternate memory in the middle of the body: the next iteration
  // would find it where it was at the loop's start, not where it ended.
  m.plan.placements[0].allocations = {Allocation{kAlternateSpace, 0, 0, 2},
                                      Allocation{kDefaultSpace, 8, 1, 5}};
  m.plan.copies.insert(m.plan.copies.begin(),
                       AsyncCopy{0, CopyKind::kEviction, kAlternateSpace, kDefaultSpace, 1, 2, 8});
  m.plan.msa->evictions = 1;
  m.plan.msa->eviction_bytes = 8;
  m.plan.pools[0].size = 16;
  m.plan.pools[0].lower_bound = 16;
  m.plan.spaces[0].peak = 16;
  m.plan.peak = 16;
  m.plan.lower_bound = 16;
  EXPECT_EQ(Verify(m),
            "buffer 'h' (id 0) allocation 0 (space 1, bytes [0, 8), time [0, 2]) neither stays "
            "inside nor covers the whole of the body @b of while %h [2, 3]: a loop repeats it, so "
            "data must be in the same place at the start and end of every iteration as before and "
            "after the loop");
}

TEST(ControlFlowRulesTest, AnExitSegmentNeedsItsBytesDuringTheCondition) {
  HandMadePlan m = MakeLoopPlan();
  // w's prefetch in the body now carries w out of the loop in alternate
  // memory: valid, as nothing else uses bytes [8, 16) during the condition.
  m.plan.placements[1].allocations[1].end = 5;
  EXPECT_EQ(Verify(m), "OK");
  // A condition temporary in those bytes would overwrite it after the last
  // iteration.
  m.set.buffers.push_back(MakeBuffer("k", 8, 1, 1, {}));
  m.plan.placements.push_back({"transient", {Allocation{kAlternateSpace, 8, 1, 1}}});
  m.plan.pools[0].buffers = 3;
  m.plan.pools[0].total_bytes = 24;
  EXPECT_EQ(Verify(m),
            "buffer 'w' (id 1) allocation 1 (space 1, bytes [8, 16), time [2, 5]) leaves the body "
            "@b of while %h [2, 3] with data the loop's last iteration left in it, but buffer 'k' "
            "(id 2) allocation 0 (space 1, bytes [8, 16), time [1, 1]) uses those bytes during [1, "
            "1], which runs again after that iteration");
}

TEST(ControlFlowRulesTest, AnExitSegmentMustStartInTheBody) {
  HandMadePlan m = MakeLoopPlan();
  m.set.buffers[1].mutable_use_times() = {5};
  m.plan.copies[0].start = 1;  // issued in the condition: not an exit of the body
  m.plan.copies[0].done = 2;
  m.plan.placements[1].allocations[1] = Allocation{kAlternateSpace, 8, 1, 5};
  EXPECT_NE(Verify(m).find("neither stays inside nor covers the whole of the condition @c of while %h"),
            std::string::npos)
      << Verify(m);
}

TEST(ControlFlowRulesTest, ABranchRestoresWhatItMoves) {
  HandMadePlan m = MakeLoopPlan();
  // The same steps as two branches of a conditional.
  m.set.control_regions[0].kind = ControlRegion::Kind::kBranches;
  m.set.control_regions[0].name = "conditional %y";
  m.set.control_regions[0].parts = {RegionPart{"branch @t", 1, 1}, RegionPart{"branch @f", 2, 3}};
  EXPECT_EQ(Verify(m), "OK");  // w's prefetch serves one use inside branch @f
  // Prefetched in branch @t and kept into branch @f: when @f runs alone the
  // data is not there.
  m.plan.copies[0].start = 1;
  m.plan.copies[0].done = 2;
  m.plan.placements[1].allocations[1] = Allocation{kAlternateSpace, 8, 1, 3};
  EXPECT_EQ(Verify(m),
            "buffer 'w' (id 1) allocation 1 (space 1, bytes [8, 16), time [1, 3]) neither stays "
            "inside nor covers the whole of the branch @t of conditional %y [1, 1]: only one "
            "branch runs, so data must be in the same place at the start and end of every branch "
            "as before and after the conditional");
}

TEST(ControlFlowRulesTest, AConditionalResultIsProducedInEveryBranch) {
  HandMadePlan m = MakeLoopPlan();
  m.set.control_regions[0].kind = ControlRegion::Kind::kBranches;
  m.set.control_regions[0].name = "conditional %y";
  m.set.control_regions[0].parts = {RegionPart{"branch @t", 1, 1}, RegionPart{"branch @f", 2, 3}};
  // y is produced by branch @f at 2 (and by @t into the same chunk) and read
  // after the conditional: one default chunk from its start.
  m.set.buffers.push_back(MakeBuffer("y", 8, 2, 5, {5}));
  m.plan.placements.push_back({"transient", {Allocation{kDefaultSpace, 8, 2, 5}}});
  m.plan.pools[0].buffers = 3;
  m.plan.pools[0].total_bytes = 24;
  m.plan.pools[0].size = 16;
  m.plan.spaces[0].peak = 16;
  m.plan.peak = 16;
  m.plan.lower_bound = 16;
  m.plan.pools[0].lower_bound = 16;
  EXPECT_EQ(Verify(m), "OK");
  // As a loop, a buffer born in the body cannot outlive the loop.
  m.set.control_regions[0].kind = ControlRegion::Kind::kLoop;
  EXPECT_NE(Verify(m).find("buffer 'y' (id 2) allocation 0 (space 0, bytes [8, 16), time [2, 5]) neither "
                           "stays inside nor covers the whole of the branch @f"),
            std::string::npos)
      << Verify(m);
}

TEST(ControlFlowRulesTest, PartsMustNest) {
  HandMadePlan m = MakeLoopPlan();
  m.set.control_regions.push_back(ControlRegion{
      ControlRegion::Kind::kLoop, "while %bad", {RegionPart{"body @x", 3, 4}}});
  EXPECT_EQ(Verify(m),
            "the body @x of while %bad [3, 4] overlaps the body @b of while %h [2, 3] without nesting");
}

}  // namespace
}  // namespace memplan::testing_verify
