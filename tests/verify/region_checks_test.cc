// The region verifier (verify/region_checks.h), rules 1-3: options,
// resources, slices and command ranges; the other rules are tested in
// region_timepoint_test.cc, region_shadow_test.cc and region_order_test.cc.
#include "verify/region_checks.h"

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "region_fixture.h"

namespace memplan {
namespace {

using namespace region_test;

TEST(RegionChecks, ValidPlanPasses) {
  // Fills, an in-place update whose tied result reads bytes partly written,
  // a read-write tied dispatch, a view read, a wave of two commands on
  // disjoint ranges, an operand captured from the external pool, and
  // alloca/execute/dealloca/join steps.
  Fixture f;
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, PlanWithoutRegionsPasses) {
  Fixture f;
  f.plan.regions.reset();
  f.plan.pools.clear();  // would break rule 1 if regions were checked
  EXPECT_TRUE(f.Verify().ok());
}

TEST(RegionChecks, FailedPreconditionOnViolation) {
  Fixture f;
  f.rp().resources[kResults].name = "@stage.slab";
  EXPECT_EQ(f.Verify().code(), absl::StatusCode::kFailedPrecondition);
}

// Rule 1.

TEST(RegionChecks, DuplicateResourceNames) {
  Fixture f;
  f.rp().resources[kResults].name = "@stage.slab";
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resource 2 (@stage.slab, results) has the name of "
            "resource 1");
}

TEST(RegionChecks, ResourceWithoutPool) {
  Fixture f;
  f.plan.pools[kResults].name = "results";
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resource 2 (@stage.results, results) names no pool of "
            "the default space");
}

TEST(RegionChecks, PoolInAnotherSpaceIsNotTheResourcesPool) {
  Fixture f;
  f.plan.pools[kResults].space = kAlternateSpace;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resource 2 (@stage.results, results) names no pool of "
            "the default space");
}

TEST(RegionChecks, PoolLargerThanResource) {
  Fixture f;
  f.plan.pools[kSlab].size = 24640;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resource 1 (@stage.slab, slab) has size_bytes 24576 but "
            "its pool spans 24640 bytes (must be within [0, size_bytes])");
}

TEST(RegionChecks, ResourceTimeRangeOutsideRun) {
  Fixture f;
  f.rp().resources[kResults].end = 8;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resource 2 (@stage.results, results) has time range "
            "[1, 8] outside [0, 8)");
}

TEST(RegionChecks, UnknownPackName) {
  Fixture f;
  f.rp().options.pack = "fastest";
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): options: pack 'fastest' is not one of: auto, "
            "best-fit-spatial, best-fit-temporal, best-fit-busiest, best-fit-start-time, "
            "in-order, skyline-longest, skyline-area, skyline-crowded, skyline-local-search, "
            "skyline-window-search, online-best-fit, naive, exact");
}

TEST(RegionChecks, InOrderPackPasses) {
  Fixture f;
  f.rp().options.pack = "in-order";
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, AlignmentsOutOfRange) {
  Fixture f;
  f.rp().options.offset_alignment = 0;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): options: offset_alignment 0 lies outside [1, "
            "4294967296]");
  f.rp().options.offset_alignment = 64;
  f.rp().options.range_alignment = (Bytes{1} << 32) + 1;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): options: range_alignment 4294967297 lies outside [1, "
            "4294967296]");
}

TEST(RegionChecks, TimeDisjointResourcesMayShareBytes) {
  Fixture f;
  AddOtherSlab(f, 7, 7);
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, TimeOverlappingResourcesMayNotShareBytes) {
  Fixture f;
  AddOtherSlab(f, 6, 7);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 1 (resources): resources @stage.slab (bytes [4096, 28672) of the "
            "default space, time [1, 6]) and @other.slab (bytes [12288, 20480) of the default "
            "space, time [6, 7]) share bytes [12288, 20480) while both exist at time 6");
}

// Rule 2.

TEST(RegionChecks, SliceOffsetDisagreesWithPlacement) {
  Fixture f;
  Slice& s = f.rp().resources[kSlab].slices[1];
  s.offset_bytes = 8256;
  s.offset = SizeExpr::Constant(8256);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 1 of @stage.slab (buffer 't0' (id 2)): the buffer's "
            "default-space segment over time [1, 5] is at byte 12288 but the slice is at pool "
            "offset 4096 + offset_bytes 8256");
}

TEST(RegionChecks, MisalignedSlice) {
  Fixture f(Layout{.zeros = 0, .t0 = 8224, .t1 = 16448});
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 1 of @stage.slab (buffer 't0' (id 2)): offset_bytes "
            "8224 is not a multiple of the offset alignment 64");
}

TEST(RegionChecks, SliceOutsideResource) {
  Fixture f;
  f.rp().resources[kSlab].size_bytes = 20480;
  f.rp().resources[kSlab].size = SizeExpr::Constant(20480);
  f.plan.pools[kSlab].size = 20480;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 2 of @stage.slab (buffer 't1' (id 3)): bytes "
            "[16384, 24576) lie outside the resource's [0, 20480)");
}

TEST(RegionChecks, BufferInTwoSlices) {
  Fixture f;
  f.rp().resources[kSlab].slices.push_back(f.rp().resources[kSlab].slices[0]);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 3 of @stage.slab (buffer 'zeros' (id 1)): the buffer "
            "is also in slice 0 of @stage.slab");
}

TEST(RegionChecks, SliceOfBufferHomedElsewhere) {
  Fixture f;
  f.rp().resources[kResults].slices.push_back(f.rp().resources[kSlab].slices[0]);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 1 of @stage.results (buffer 'zeros' (id 1)): the "
            "buffer is homed in pool '@stage.slab' of space 0, not in the resource's pool");
}

TEST(RegionChecks, SliceTimeRangeOutsideResource) {
  Fixture f;
  f.rp().resources[kSlab].start = 2;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 0 of @stage.slab (buffer 'zeros' (id 1)): time range "
            "[1, 3] lies outside the resource's [2, 6]");
}

// The fixture with a dim %n <= 4096 and the slab's size written as 6*%n.
Fixture SymbolicFixture() {
  Fixture f;
  DimDecl n;
  n.name = "n";
  n.bound = 4096;
  f.program.dims = {n};
  f.rp().resources[kSlab].size = SizeExpr::Dim(0).Scaled(6);
  return f;
}

TEST(RegionChecks, SymbolicSizeAtTheEvaluationPointPasses) {
  Fixture f = SymbolicFixture();
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, SymbolicSizeDisagreesWithSizeBytes) {
  Fixture f = SymbolicFixture();
  f.program.dims[0].binding = 2048;  // the plan was not re-evaluated
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): resource @stage.slab: size (6*%n) is 12288 at the "
            "evaluation point but size_bytes is 24576");
}

TEST(RegionChecks, SymbolicRangeLengthDisagrees) {
  Fixture f = SymbolicFixture();
  f.commands()[0].ranges[0].length = SizeExpr::Dim(0).Scaled(3);  // 12288, not 8192
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): step 3 (execute @stage): fill %zeros (op fill#1) range 0 "
            "(write %zeros at @stage.slab [0, 8192)): length (3*%n) is 12288 at the evaluation "
            "point but length_bytes is 8192");
}

TEST(RegionChecks, SizeMentioningAnUndeclaredDim) {
  Fixture f;
  f.rp().resources[kSlab].slices[0].size = SizeExpr::Dim(1);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): slice 0 of @stage.slab (buffer 'zeros' (id 1)): size "
            "mentions dim #1 but the program declares 0 dims");
}

TEST(RegionChecks, BufferHomedInAResourceButInNoSlice) {
  Fixture f;
  std::vector<Slice>& slices = f.rp().resources[kSlab].slices;
  slices.erase(slices.begin());  // %zeros
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): buffer 'zeros' (id 1) is homed in pool '@stage.slab' (a "
            "slab resource) but is in no slice of it");
}

TEST(RegionChecks, ResourceSizeNotAMultipleOfTheRangeAlignment) {
  Fixture f;
  f.rp().options.range_alignment = 16384;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): resource @stage.slab: size_bytes 24576 is not a multiple "
            "of the range alignment 16384");
}

TEST(RegionChecks, ResourceAboveMaxAllocationSize) {
  Fixture f;
  f.rp().options.max_allocation_size = 16384;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): resource @stage.slab is 24576 bytes at the planning point, "
            "more than max_allocation_size 16384, but is not marked over_limit");
}

TEST(RegionChecks, OverLimitResourceHoldsOneItem) {
  Fixture f;
  f.rp().options.max_allocation_size = 16384;
  f.rp().resources[kSlab].over_limit = true;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): resource @stage.slab is marked over_limit but holds 3 "
            "slices, not one");
}

TEST(RegionChecks, OverLimitResourceWithinTheLimit) {
  Fixture f;
  f.rp().options.max_allocation_size = 32768;
  f.rp().resources[kResults].over_limit = true;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): resource @stage.results is marked over_limit but is 4096 "
            "bytes at the planning point, within max_allocation_size 32768");
}

TEST(RegionChecks, OverLimitWithoutTheOption) {
  Fixture f;
  f.rp().resources[kResults].over_limit = true;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 2 (slices): resource @stage.results is marked over_limit but the "
            "options set no max_allocation_size");
}

// Rule 3.

TEST(RegionChecks, CommandRangePastResource) {
  Fixture f;
  f.rp().steps[0].commands[0].ranges[0] = MakeRange(kExternal, 0, 8192, Access::kWrite, f.id.input);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 0 (host): input range 0 (write %input at "
            "external [0, 8192)) lies outside external's [0, 4096)");
}

TEST(RegionChecks, CommandRangeOutsideItsValuesSegment) {
  Fixture f;
  f.commands()[2].ranges[0] = MakeRange(kSlab, 8256, 8192, Access::kRead, f.id.t0);
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 3 (execute @stage): dispatch %t1 (op "
            "dispatch#3) range 0 (read %t0 at @stage.slab [8256, 16448)) lies outside buffer "
            "'t0' (id 2), which holds @stage.slab [8192, 16384) at time 2");
}

TEST(RegionChecks, CommandRangeOnTimepoint) {
  Fixture f;
  f.commands()[6].ranges = {MakeRange(kSlab, 0, 0, Access::kRead, f.id.await)};
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 3 (execute @stage): barrier %done (op "
            "barrier#8) range 0 (read %await at @stage.slab [0, 0)): %await is a timepoint, "
            "which has no storage");
}

TEST(RegionChecks, CommandRangeInAnotherResourceThanItsValue) {
  Fixture f;
  f.commands()[5].ranges[1].resource = kSlab;
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 3 (execute @stage): dispatch %o (op "
            "dispatch#7) range 1 (write %o at @stage.slab [0, 4096)): %o's buffer 'o' (id 4) is "
            "homed in pool '@stage.results' of space 0, not in @stage.slab's pool");
}

TEST(RegionChecks, CommandOutsideItsValuesTime) {
  Fixture f;
  f.commands()[5].time = 5;  // %o's buffer lives from 6
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 3 (execute @stage): dispatch %o (op "
            "dispatch#7) range 1 (write %o at @stage.results [0, 4096)): buffer 'o' (id 4) has "
            "no default-space segment at time 5");
}

TEST(RegionChecks, ScratchRangeInItsBufferPasses) {
  // %zeros's bytes are free at time 6.
  Fixture f;
  AddScratch(f, 0, 1024, 6, 6);
  f.commands()[5].ranges.push_back(MakeRange(kSlab, 0, 1024, Access::kReadWrite, kNoId));
  EXPECT_TRUE(f.Verify().ok()) << f.Verify();
}

TEST(RegionChecks, ScratchRangeOutsideItsBuffer) {
  Fixture f;
  AddScratch(f, 0, 1024, 6, 6);
  f.commands()[5].ranges.push_back(MakeRange(kSlab, 0, 2048, Access::kReadWrite, kNoId));
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 3 (execute @stage): dispatch %o (op "
            "dispatch#7) range 2 (read-write scratch at @stage.slab [0, 2048)) names no value "
            "and lies in no segment of a buffer without values homed in @stage.slab's pool at "
            "time 6");
}

TEST(RegionChecks, ScratchRangeOutsideItsBuffersTime) {
  Fixture f;
  AddScratch(f, 0, 1024, 5, 5);
  f.commands()[5].ranges.push_back(MakeRange(kSlab, 0, 1024, Access::kReadWrite, kNoId));
  EXPECT_EQ(Message(f.Verify()),
            "region rule 3 (command ranges): step 3 (execute @stage): dispatch %o (op "
            "dispatch#7) range 2 (read-write scratch at @stage.slab [0, 1024)) names no value "
            "and lies in no segment of a buffer without values homed in @stage.slab's pool at "
            "time 6");
}

}  // namespace
}  // namespace memplan
