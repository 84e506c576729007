// The region verifier (verify/region_checks.h), rule 4: timepoints order
// allocations, uploads, executes and releases, and resources sharing bytes.
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "region_fixture.h"

namespace memplan {
namespace {

using namespace region_test;

// Rule 4.

TEST(RegionChecks, TimepointAwaitedBeforeSignalled) {
  Fixture f;
  f.rp().steps[Fixture::kExecuteStep].awaits.push_back("d0");
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): step 3 (execute @stage) awaits timepoint 'd0', which "
            "no earlier step signals");
}

TEST(RegionChecks, TimepointSignalledTwice) {
  Fixture f;
  f.rp().steps[5].signal = "e0";
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): step 5 (join) signals timepoint 'e0', already "
            "signalled by step 3 (execute @stage)");
}

TEST(RegionChecks, ExecuteNotPrecededByAllocaOfItsSlab) {
  Fixture f;
  f.rp().steps[Fixture::kExecuteStep].awaits = {"a1"};
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): step 3 (execute @stage) touches @stage.slab but does "
            "not await the timepoint 'a0' of step 1 (alloca @stage.slab), directly or through "
            "other steps");
}

TEST(RegionChecks, AllocaAwaitedThroughAnotherStep) {
  Fixture f;
  f.rp().steps[2].awaits = {"a0"};  // results alloca after the slab's
  f.rp().steps[Fixture::kExecuteStep].awaits = {"a1"};
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, DeallocaNotPrecededByExecute) {
  Fixture f;
  f.rp().steps[4].awaits = {};
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): step 4 (dealloca @stage.slab) does not await the "
            "timepoint 'e0' of step 3 (execute @stage), which touches @stage.slab, directly or "
            "through other steps");
}

TEST(RegionChecks, CommandAfterDealloca) {
  Fixture f;
  HostStep load = MakeStep(HostStepKind::kHost, "", {"d0"});
  load.commands = {MakeCommand(CommandKind::kLoad, kNoId, 6,
                               {MakeRange(kSlab, 16384, 8192, Access::kRead, f.id.acc2)})};
  f.rp().steps.insert(f.rp().steps.begin() + 5, load);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): load in step 5 (host) touches @stage.slab after step 4 "
            "(dealloca @stage.slab)");
}

TEST(RegionChecks, SlabTouchedBeforeItsAlloca) {
  Fixture f;
  std::swap(f.rp().steps[1], f.rp().steps[Fixture::kExecuteStep]);  // execute first
  f.rp().steps[1].awaits = {};
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): fill %zeros (op fill#1) in step 1 (execute @stage) "
            "touches slab resource @stage.slab before any alloca step of it");
}

TEST(RegionChecks, SlabWithoutAlloca) {
  Fixture f;
  AddOtherSlab(f, 7, 7);
  f.rp().steps.pop_back();  // its alloca
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): slab resource @other.slab has no alloca step");
}

TEST(RegionChecks, HostStepTouchesAResourceBeforeItsAllocaInHappensBefore) {
  // The output step follows the results alloca in step order only.
  Fixture f;
  f.rp().steps[6].awaits = {};
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): step 6 (host) touches @stage.results but does not "
            "await the timepoint 'a1' of step 2 (alloca @stage.results), directly or through "
            "other steps");
}

TEST(RegionChecks, DeallocaNotAfterItsAlloca) {
  Fixture f;
  AddOtherSlab(f, 7, 7);
  f.rp().steps.push_back(MakeStep(HostStepKind::kDealloca, "d2", {"d0"}, 3));
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): step 8 (dealloca @other.slab) does not await the "
            "timepoint 'a2' of step 7 (alloca @other.slab), directly or through other steps");
}

TEST(RegionChecks, UnorderedAllocationsMayNotShareBytes) {
  // Disjoint time ranges, but the alloca of @other.slab does not wait for the
  // release of @stage.slab: the host step between them does not either.
  Fixture f;
  AddOtherSlab(f, 7, 7, {});
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): @stage.slab (bytes [4096, 28672)) and @other.slab "
            "(bytes [12288, 20480)) share bytes [12288, 20480) but neither is released before "
            "the other is allocated: step 7 (alloca @other.slab) does not wait for step 4 "
            "(dealloca @stage.slab)");
}

TEST(RegionChecks, AllocationAfterAJoinOnTheRelease) {
  Fixture f;
  f.rp().steps.push_back(MakeStep(HostStepKind::kJoin, "j1", {"e0", "d0"}));
  AddOtherSlab(f, 7, 7, {"j1"});
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, AllocationAfterAHostStepThatAwaitsTheRelease) {
  // Host code runs synchronously: whatever it waited for is done before any
  // later step starts.
  Fixture f;
  f.rp().steps[6].awaits.push_back("d0");
  AddOtherSlab(f, 7, 7, {});
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, PoolSharesBytesWithNoResource) {
  Fixture f;
  f.plan.pools.push_back(MakePool("constant", kSlabBase + 8192, 0));
  f.rp().resources.push_back(MakeResource("constant", ResourceKind::kPool, 64, 7, 7));
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): @stage.slab (bytes [4096, 28672)) and constant (bytes "
            "[12288, 12352)) share bytes [12288, 12352) but neither is released before the "
            "other is allocated: constant has no alloca or dealloca step");
}

TEST(RegionChecks, UnreleasedAllocationsMayNotShareBytes) {
  Fixture f;
  f.rp().steps.erase(f.rp().steps.begin() + 4);  // @stage.slab's dealloca
  AddOtherSlab(f, 7, 7, {});
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): @stage.slab (bytes [4096, 28672)) and @other.slab "
            "(bytes [12288, 20480)) share bytes [12288, 20480) but neither is released before "
            "the other is allocated: neither has a dealloca step");
}

TEST(RegionChecks, ResourceReleasedTwice) {
  Fixture f;
  f.rp().steps.push_back(MakeStep(HostStepKind::kDealloca, "d1", {"d0"}, kSlab));
  EXPECT_EQ(Message(f.Verify()),
            "region rule 4 (timepoints): @stage.slab has two dealloca steps: step 4 (dealloca "
            "@stage.slab) and step 7 (dealloca @stage.slab)");
}

}  // namespace
}  // namespace memplan
