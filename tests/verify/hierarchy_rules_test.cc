// Rule 15 of the verifier (memory hierarchies) and the home space of a
// buffer homed in a slower level, on one hand-made plan: each test breaks it
// in exactly one way.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/verify/buffer_builder.h"
#include "tests/verify/hand_made_plan.h"

namespace memplan::testing_verify {
namespace {

// Eight steps; levels: fast (space 1, 16 B), slow (space 0, 64 B), sram
// (space 2, 8 B). w(8)[0,7] is homed in sram ([0,7] @0, pool
// "sram.transient") and prefetched (1,3) into fast [1,6] @0; t(8)[1,7] is
// produced in fast [1,4] @8 and evicted (2,4) to slow [2,7] @0.
HandMadePlan MakePlan() {
  HandMadePlan m;
  m.set.time_steps = 8;
  m.set.buffers = {MakeBuffer("w", 8, 0, 7, {3, 6}), MakeBuffer("t", 8, 1, 7, {2, 7})};
  Plan& p = m.plan;
  p.time_steps = 8;
  p.spaces = {SpaceInfo{"slow", kDefaultSpace, 64, 8}, SpaceInfo{"fast", kAlternateSpace, 16, 16},
              SpaceInfo{"sram", 2, 8, 8}};
  PoolInfo transient = TransientPool(8, 1, 8);
  PoolInfo sram = transient;
  sram.name = "sram.transient";
  sram.space = 2;
  p.pools = {transient, sram};
  p.peak = 8;
  p.lower_bound = 8;
  p.placements = {
      {"sram.transient", {Allocation{2, 0, 0, 7}, Allocation{kAlternateSpace, 0, 1, 6}}},
      {"transient", {Allocation{kAlternateSpace, 8, 1, 4}, Allocation{kDefaultSpace, 0, 2, 7}}},
  };
  p.copies = {AsyncCopy{0, CopyKind::kPrefetch, 2, kAlternateSpace, 1, 3, 8},
              AsyncCopy{1, CopyKind::kEviction, kAlternateSpace, kDefaultSpace, 2, 4, 8}};
  p.msa = CopyStats(1, 1, 8);
  HierarchyRules rules;
  rules.spaces = {HierarchySpaceRule{kAlternateSpace, "fast", 16, true, {}},
                  HierarchySpaceRule{kDefaultSpace, "slow", 64, true, {}},
                  HierarchySpaceRule{2, "sram", 8, true, {}}};
  rules.links = {HierarchyLinkRule{2, kAlternateSpace, std::nullopt},
                 HierarchyLinkRule{kDefaultSpace, kAlternateSpace, std::nullopt},
                 HierarchyLinkRule{kAlternateSpace, kDefaultSpace, std::nullopt}};
  m.options.hierarchy = rules;
  return m;
}

TEST(HierarchyRulesTest, TheHandMadePlanIsValid) { EXPECT_EQ(Verify(MakePlan()), "OK"); }

TEST(HierarchyRulesTest, APrefetchComesFromTheHomeLevel) {
  HandMadePlan m = MakePlan();
  m.plan.copies[0].from_space = kDefaultSpace;
  EXPECT_EQ(Verify(m),
            "copy 0 (prefetch of buffer 'w' (id 0) from space 0 to space 1, time [1, 3]) must go "
            "from its home space 2 to another space");
}

TEST(HierarchyRulesTest, EveryCopyUsesALink) {
  HandMadePlan m = MakePlan();
  m.options.hierarchy->links.erase(m.options.hierarchy->links.begin());
  EXPECT_EQ(Verify(m),
            "copy 0 (prefetch of buffer 'w' (id 0) from space 2 to space 1, time [1, 3]) uses no "
            "link of the hierarchy");
}

TEST(HierarchyRulesTest, NoCopyIntoAReadOnlySpace) {
  HandMadePlan m = MakePlan();
  m.options.hierarchy->spaces[1].writable = false;
  EXPECT_EQ(Verify(m),
            "copy 1 (eviction of buffer 't' (id 1) from space 1 to space 0, time [2, 4]) copies "
            "into read-only space 'slow'");
}

TEST(HierarchyRulesTest, PerLinkOutstandingLimit) {
  HandMadePlan m = MakePlan();
  m.options.hierarchy->links[2].max_outstanding = 0;
  EXPECT_EQ(Verify(m),
            "1 copies are outstanding at time 2 on the link from space 1 to space 0, above its "
            "max_outstanding 0");
}

TEST(HierarchyRulesTest, CapacityPerLevel) {
  HandMadePlan m = MakePlan();
  m.options.hierarchy->spaces[2].capacity = 4;
  EXPECT_EQ(Verify(m), "space 'sram' (2) peaks at 8 bytes, beyond its capacity 4");
}

TEST(HierarchyRulesTest, EverySpaceIsALevel) {
  HandMadePlan m = MakePlan();
  m.options.hierarchy->spaces.pop_back();
  EXPECT_EQ(Verify(m),
            "the plan's space 'sram' uses memory space 2, which is not a level of the hierarchy");
}

// The same plan with w's prefetch staged through the slow level (space 0):
// links 2 -> 0 and 0 -> 1 only, its chunk at slow's bytes [16, 24) over
// [1, 3], beside t's eviction target [0, 8) over [2, 7].
HandMadePlan MakeStagedPlan() {
  HandMadePlan m = MakePlan();
  m.plan.copies[0].via = CopyVia{kDefaultSpace, 16};
  m.plan.spaces[0].peak = 24;
  std::vector<HierarchyLinkRule>& links = m.options.hierarchy->links;
  links[0] = HierarchyLinkRule{2, kDefaultSpace, std::nullopt};
  return m;
}

TEST(HierarchyRulesTest, AStagedCopyIsValid) { EXPECT_EQ(Verify(MakeStagedPlan()), "OK"); }

TEST(HierarchyRulesTest, EachLegOfAStagedCopyUsesALink) {
  HandMadePlan m = MakeStagedPlan();
  m.options.hierarchy->links.erase(m.options.hierarchy->links.begin());
  EXPECT_EQ(Verify(m),
            "copy 0 (prefetch of buffer 'w' (id 0) from space 2 via space 0 to space 1, time [1, "
            "3]): its leg from space 2 to space 0 uses no link of the hierarchy");
}

TEST(HierarchyRulesTest, AStagedChunkSharesNoByteWithASegment) {
  HandMadePlan m = MakeStagedPlan();
  m.plan.copies[0].via->offset = 0;
  m.plan.spaces[0].peak = 8;
  EXPECT_EQ(Verify(m),
            "the staging chunk of copy 0 (prefetch of buffer 'w' (id 0) from space 2 via space 0 "
            "to space 1, time [1, 3]) (bytes [0, 8) of space 0 during [1, 3]) meets buffer 't' "
            "(id 1) allocation 1 (space 0, bytes [0, 8), time [2, 7])");
}

TEST(HierarchyRulesTest, AStagedChunkFitsItsLevel) {
  HandMadePlan m = MakeStagedPlan();
  m.options.hierarchy->spaces[1].capacity = 20;
  EXPECT_EQ(Verify(m), "space 'slow' (0) peaks at 24 bytes, beyond its capacity 20");
  HandMadePlan peak = MakeStagedPlan();
  peak.plan.spaces[0].peak = 8;  // the chunk must count in its space's peak
  EXPECT_EQ(Verify(peak), "space 0 reports peak 8 bytes but its pools and allocations reach 24");
}

// A staged copy is outstanding on both of its links over [start, done]:
// the leg away from the fastest level (2 -> 0) counts against its own
// link's limit, the near leg's link (0 -> 1) having none; a limit of 1
// holds it, 0 does not.
TEST(HierarchyRulesTest, AStagedCopysFarLegCountsOnItsLink) {
  HandMadePlan m = MakeStagedPlan();
  m.options.hierarchy->links[0].max_outstanding = 1;
  EXPECT_EQ(Verify(m), "OK");
  m.options.hierarchy->links[0].max_outstanding = 0;
  EXPECT_EQ(Verify(m),
            "1 copies are outstanding at time 1 on the link from space 2 to space 0, above its "
            "max_outstanding 0");
}

// Likewise the near leg (0 -> 1), with no limit on the far leg's link.
TEST(HierarchyRulesTest, AStagedCopysNearLegCountsOnItsLink) {
  HandMadePlan m = MakeStagedPlan();
  m.options.hierarchy->links[1].max_outstanding = 0;
  EXPECT_EQ(Verify(m),
            "1 copies are outstanding at time 1 on the link from space 0 to space 1, above its "
            "max_outstanding 0");
}

TEST(HierarchyRulesTest, OnlyAHierarchyStagesCopies) {
  HandMadePlan m = MakeStagedPlan();
  m.options.hierarchy.reset();
  EXPECT_EQ(Verify(m),
            "copy 0 (prefetch of buffer 'w' (id 0) from space 2 via space 0 to space 1, time [1, "
            "3]) is staged, which only a plan on a memory hierarchy may be");
}

}  // namespace
}  // namespace memplan::testing_verify
