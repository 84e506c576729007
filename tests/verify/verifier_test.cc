#include "verify/verifier.h"

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/verify/buffer_builder.h"

namespace memplan {
namespace {

using testing_verify::MakeBuffer;

// Fills pool tallies, space peaks and the plan's peak and lower bound the way
// the rules define them, so a test can break exactly one figure.
void Summarize(const BufferSet& set, Plan& plan) {
  std::map<MemorySpace, Bytes> space_peak;
  for (PoolInfo& pool : plan.pools) {
    pool.buffers = 0;
    pool.total_bytes = 0;
    Bytes end = pool.offset;
    for (size_t id = 0; id < set.buffers.size(); ++id) {
      const Buffer& b = set.buffers[id];
      const MemorySpace home = b.space.value_or(kDefaultSpace);
      if (plan.placements[id].pool != pool.name || home != pool.space) continue;
      ++pool.buffers;
      pool.total_bytes += b.size;
      for (const Allocation& a : plan.placements[id].allocations) {
        if (a.space == home) end = std::max(end, a.offset + b.size);
      }
    }
    pool.size = end - pool.offset;
    pool.lower_bound = std::min(pool.lower_bound, pool.size);
    space_peak[pool.space] = std::max(space_peak[pool.space], end);
  }
  for (size_t id = 0; id < set.buffers.size(); ++id) {
    for (const Allocation& a : plan.placements[id].allocations) {
      space_peak[a.space] = std::max(space_peak[a.space], a.offset + set.buffers[id].size);
    }
  }
  for (SpaceInfo& space : plan.spaces) space.peak = space_peak[space.id];
  plan.peak = 0;
  plan.lower_bound = 0;
  for (const PoolInfo& pool : plan.pools) {
    if (pool.name == "transient" && pool.space == kDefaultSpace) {
      plan.peak = pool.size;
      plan.lower_bound = pool.lower_bound;
    }
  }
}

// a(8)[0,1] b(8)[1,2] c(8)[2,3], four time steps.
BufferSet ThreeBuffers() {
  BufferSet set;
  set.time_steps = 4;
  set.buffers = {MakeBuffer("a", 8, 0, 1), MakeBuffer("b", 8, 1, 2), MakeBuffer("c", 8, 2, 3)};
  return set;
}

// One default-space segment per buffer over its live range, all in one
// transient pool at offset 0.
Plan PackedPlan(const BufferSet& set, const std::vector<Bytes>& offsets) {
  Plan plan;
  plan.time_steps = set.time_steps;
  plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 0}};
  PoolInfo pool;
  pool.name = "transient";
  pool.lower_bound = 16;
  plan.pools = {pool};
  for (size_t i = 0; i < set.buffers.size(); ++i) {
    const Buffer& b = set.buffers[i];
    plan.placements.push_back({"transient", {Allocation{kDefaultSpace, offsets[i], b.start, b.end}}});
  }
  Summarize(set, plan);
  return plan;
}

std::string Verify(const BufferSet& set, const Plan& plan, const VerifyOptions& options = {}) {
  absl::Status s = VerifyPlan(set, plan, options);
  if (s.ok()) return "OK";
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  return std::string(s.message());
}

TEST(VerifierTest, ValidPackedPlanPasses) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  EXPECT_EQ(plan.pools[0].size, 16);
  EXPECT_EQ(plan.pools[0].buffers, 3);
  EXPECT_EQ(plan.pools[0].total_bytes, 24);
  EXPECT_EQ(plan.spaces[0].peak, 16);
  EXPECT_EQ(plan.peak, 16);
  EXPECT_EQ(plan.lower_bound, 16);
  EXPECT_EQ(Verify(set, plan), "OK");
}

// --- Rule 1: shape ---------------------------------------------------------

TEST(VerifierTest, PlacementCountMustMatch) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.placements.pop_back();
  EXPECT_EQ(Verify(set, plan), "the plan places 2 buffers but the input has 3");
}

TEST(VerifierTest, TimeStepsMustMatch) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.time_steps = 5;
  EXPECT_EQ(Verify(set, plan), "the plan has 5 time steps but the input has 4");
}

TEST(VerifierTest, MalformedBuffersAreRejected) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  set.buffers[1].size = -1;
  EXPECT_EQ(Verify(set, plan), "buffer 'b' (id 1) has negative size -1");
  set = ThreeBuffers();
  set.buffers[2].alignment = 0;
  EXPECT_EQ(Verify(set, plan), "buffer 'c' (id 2) has alignment 0 (must be at least 1)");
  set = ThreeBuffers();
  set.buffers[2].end = 4;
  EXPECT_EQ(Verify(set, plan), "buffer 'c' (id 2) has live range [2, 4] outside [0, 4)");
}

TEST(VerifierTest, SpacesAndPoolsAreUnique) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.spaces.push_back(plan.spaces[0]);
  EXPECT_EQ(Verify(set, plan), "space 0 is declared twice");
  plan = PackedPlan(set, {0, 8, 0});
  plan.pools.push_back(plan.pools[0]);
  EXPECT_EQ(Verify(set, plan), "pool 'transient' in space 0 is declared twice");
}

// --- Rule 2: segments --------------------------------------------------------

TEST(VerifierTest, SegmentMustNotEndBeforeItStarts) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.placements[1].allocations[0] = Allocation{kDefaultSpace, 8, 2, 1};
  EXPECT_EQ(Verify(set, plan),
            "buffer 'b' (id 1) allocation 0 (space 0, bytes [8, 16), time [2, 1]) starts after "
            "it ends");
}

TEST(VerifierTest, SegmentMustLieInLiveRange) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.placements[1].allocations[0].end = 3;
  EXPECT_EQ(Verify(set, plan),
            "buffer 'b' (id 1) allocation 0 (space 0, bytes [8, 16), time [1, 3]) lies outside "
            "the buffer's live range [1, 2]");
}

TEST(VerifierTest, SegmentSpaceMustBeDeclared) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.placements[0].allocations[0].space = 1;
  EXPECT_EQ(Verify(set, plan),
            "buffer 'a' (id 0) allocation 0 (space 1, bytes [0, 8), time [0, 1]) is in space 1, "
            "which the plan does not declare");
}

TEST(VerifierTest, PinnedBufferStaysInItsSpace) {
  BufferSet set = ThreeBuffers();
  set.buffers[2].space = kAlternateSpace;
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.spaces.push_back(SpaceInfo{"alternate", kAlternateSpace, std::nullopt, 0});
  EXPECT_EQ(Verify(set, plan),
            "buffer 'c' (id 2) allocation 0 (space 0, bytes [0, 8), time [2, 3]) is not in space "
            "1, where the buffer is pinned");
}

TEST(VerifierTest, OffsetMustBeNonNegativeAndRepresentable) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.placements[2].allocations[0].offset = -8;
  EXPECT_EQ(Verify(set, plan),
            "buffer 'c' (id 2) allocation 0 (space 0, bytes [-8, 0), time [2, 3]) has a negative "
            "offset");
  plan.placements[2].allocations[0].offset = INT64_MAX - 4;
  EXPECT_EQ(Verify(set, plan),
            "buffer 'c' (id 2) allocation 0 (space 0, bytes [9223372036854775803, "
            "9223372036854775803+8), time [2, 3]) ends beyond the largest representable offset");
}

TEST(VerifierTest, OffsetMustHonourEveryAlignment) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 12, 0});
  set.buffers[1].alignment = 8;
  EXPECT_EQ(Verify(set, plan),
            "buffer 'b' (id 1) allocation 0 (space 0, bytes [12, 20), time [1, 2]): offset 12 is "
            "not a multiple of the buffer's alignment 8");
  set.buffers[1].alignment = 4;
  plan.alignment = 8;
  EXPECT_EQ(Verify(set, plan),
            "buffer 'b' (id 1) allocation 0 (space 0, bytes [12, 20), time [1, 2]): offset 12 is "
            "not a multiple of the plan's alignment 8");
  plan.alignment = 1;
  VerifyOptions options;
  options.alignment = 8;
  EXPECT_EQ(Verify(set, plan, options),
            "buffer 'b' (id 1) allocation 0 (space 0, bytes [12, 20), time [1, 2]): offset 12 is "
            "not a multiple of the required alignment 8");
  options.alignment = 4;
  EXPECT_EQ(Verify(set, plan, options), "OK");
}

TEST(VerifierTest, SegmentMustFitCapacity) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  VerifyOptions options;
  options.capacity[kDefaultSpace] = 16;
  EXPECT_EQ(Verify(set, plan, options), "OK");
  options.capacity[kDefaultSpace] = 15;
  EXPECT_EQ(Verify(set, plan, options),
            "buffer 'b' (id 1) allocation 0 (space 0, bytes [8, 16), time [1, 2]) ends at byte "
            "16, beyond the capacity 15 of space 0");
}

TEST(VerifierTest, SegmentsMustCoverTheLiveRange) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.placements[2].allocations[0].end = 2;
  EXPECT_EQ(Verify(set, plan),
            "buffer 'c' (id 2) is resident in no space at time 3 of its live range [2, 3]");
  plan.placements[2].allocations.clear();
  EXPECT_EQ(Verify(set, plan),
            "buffer 'c' (id 2) is resident in no space at time 2 of its live range [2, 3]");
}

TEST(VerifierTest, SegmentsOfOneSpaceMustNotShareATimeStep) {
  BufferSet set = ThreeBuffers();
  set.buffers[0].end = 3;
  Plan plan = PackedPlan(set, {0, 8, 16});
  // a keeps [0, 8) for [0, 1] and moves to [24, 32) from time 1: time 1 is in both.
  plan.placements[0].allocations = {Allocation{kDefaultSpace, 24, 1, 3},
                                    Allocation{kDefaultSpace, 0, 0, 1}};
  EXPECT_EQ(Verify(set, plan), "buffer 'a' (id 0) has allocations 0 and 1 both in space 0 at time 1");
}

// --- Rule 3: overlap ---------------------------------------------------------

TEST(VerifierTest, OverlappingChunksAreReported) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 4, 0});
  EXPECT_EQ(Verify(set, plan),
            "buffer 'b' (id 1) allocation 0 (space 0, bytes [4, 12), time [1, 2]) overlaps buffer "
            "'a' (id 0) allocation 0 (space 0, bytes [0, 8), time [0, 1]) at time 1");
}

TEST(VerifierTest, ClosedIntervalsMeetingAtOneStepConflict) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 8});  // b [1,2] and c [2,3] share step 2
  EXPECT_EQ(Verify(set, plan),
            "buffer 'c' (id 2) allocation 0 (space 0, bytes [8, 16), time [2, 3]) overlaps buffer "
            "'b' (id 1) allocation 0 (space 0, bytes [8, 16), time [1, 2]) at time 2");
}

// Times far apart next to the number of buffers: the sweep sorts its events
// by comparison instead of counting them over the steps; the same conflict
// is found at the same step.
TEST(VerifierTest, ConflictFoundWhenTheStepsAreSparse) {
  BufferSet set;
  set.time_steps = 2'000'001;
  set.buffers = {MakeBuffer("a", 8, 0, 1), MakeBuffer("b", 8, 1, 1'000'000),
                 MakeBuffer("c", 8, 1'000'000, 2'000'000)};
  Plan plan = PackedPlan(set, {0, 8, 8});
  EXPECT_EQ(Verify(set, plan),
            "buffer 'c' (id 2) allocation 0 (space 0, bytes [8, 16), time [1000000, 2000000]) "
            "overlaps buffer 'b' (id 1) allocation 0 (space 0, bytes [8, 16), time [1, 1000000]) "
            "at time 1000000");
  plan = PackedPlan(set, {0, 8, 0});
  EXPECT_EQ(Verify(set, plan), "OK");
}

TEST(VerifierTest, NewChunkIsComparedWithBothNeighbours) {
  BufferSet set;
  set.time_steps = 2;
  set.buffers = {MakeBuffer("low", 8, 0, 1), MakeBuffer("high", 8, 0, 1),
                 MakeBuffer("mid", 4, 1, 1)};
  // low [0,8), high [16,24); mid [14,18) overlaps only its upper neighbour.
  Plan plan = PackedPlan(set, {0, 16, 14});
  EXPECT_EQ(Verify(set, plan),
            "buffer 'mid' (id 2) allocation 0 (space 0, bytes [14, 18), time [1, 1]) overlaps "
            "buffer 'high' (id 1) allocation 0 (space 0, bytes [16, 24), time [0, 1]) at time 1");
  plan = PackedPlan(set, {0, 16, 6});  // [6, 10) overlaps only the lower one
  EXPECT_EQ(Verify(set, plan),
            "buffer 'mid' (id 2) allocation 0 (space 0, bytes [6, 10), time [1, 1]) overlaps "
            "buffer 'low' (id 0) allocation 0 (space 0, bytes [0, 8), time [0, 1]) at time 1");
  plan = PackedPlan(set, {0, 16, 8});  // [8, 12) touches neither
  EXPECT_EQ(Verify(set, plan), "OK");
}

TEST(VerifierTest, ZeroSizeBuffersNeverConflict) {
  BufferSet set = ThreeBuffers();
  set.buffers[1].size = 0;
  Plan plan = PackedPlan(set, {0, 0, 0});
  EXPECT_EQ(Verify(set, plan), "OK");
}

TEST(VerifierTest, DifferentSpacesNeverConflict) {
  BufferSet set = ThreeBuffers();
  set.buffers[1].space = kAlternateSpace;
  Plan plan = PackedPlan(set, {0, 0, 8});
  plan.placements[1].allocations[0].space = kAlternateSpace;
  plan.spaces.push_back(SpaceInfo{"alternate", kAlternateSpace, std::nullopt, 0});
  PoolInfo alt;
  alt.name = "transient";
  alt.space = kAlternateSpace;
  plan.pools.push_back(alt);
  Summarize(set, plan);
  EXPECT_EQ(plan.spaces[1].peak, 8);
  EXPECT_EQ(Verify(set, plan), "OK");
}

// --- Rule 4: async copies ----------------------------------------------------

// x(4)[0,5] used at 5: default [0,5] @0, prefetched during [2,4] into the
// alternate space at @0 for [2,5]. y(4)[0,5] produced in the alternate space
// @4 for [0,3], evicted during [1,2] into default @4 for [1,5].
struct MsaCase {
  BufferSet set;
  Plan plan;
};

MsaCase MakeMsaCase() {
  MsaCase c;
  c.set.time_steps = 6;
  c.set.buffers = {MakeBuffer("x", 4, 0, 5), MakeBuffer("y", 4, 0, 5)};
  c.set.buffers[0].mutable_use_times() = {5};
  c.set.buffers[1].mutable_use_times() = {3, 5};
  Plan& p = c.plan;
  p.time_steps = 6;
  p.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 0},
              SpaceInfo{"alternate", kAlternateSpace, 8, 0}};
  PoolInfo pool;
  pool.name = "transient";
  pool.lower_bound = 8;
  p.pools = {pool};
  p.placements = {
      {"transient", {Allocation{kDefaultSpace, 0, 0, 5}, Allocation{kAlternateSpace, 0, 2, 5}}},
      {"transient", {Allocation{kAlternateSpace, 4, 0, 3}, Allocation{kDefaultSpace, 4, 1, 5}}},
  };
  p.copies = {AsyncCopy{0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 2, 4, 4},
              AsyncCopy{1, CopyKind::kEviction, kAlternateSpace, kDefaultSpace, 1, 2, 4}};
  p.msa = MsaStats{};
  p.msa->prefetches = 1;
  p.msa->evictions = 1;
  p.msa->prefetch_bytes = 4;
  p.msa->eviction_bytes = 4;
  Summarize(c.set, p);
  return c;
}

TEST(VerifierTest, ValidMsaPlanPasses) {
  MsaCase c = MakeMsaCase();
  EXPECT_EQ(c.plan.pools[0].size, 8);
  EXPECT_EQ(c.plan.spaces[1].peak, 8);
  EXPECT_EQ(Verify(c.set, c.plan), "OK");
}

TEST(VerifierTest, CopyMustNameABuffer) {
  MsaCase c = MakeMsaCase();
  c.plan.copies[1].buffer = 2;
  EXPECT_EQ(Verify(c.set, c.plan), "copy 1 names buffer id 2 but the input has 2 buffers");
}

TEST(VerifierTest, CopyDirectionMustMatchItsKind) {
  MsaCase c = MakeMsaCase();
  c.plan.copies[0].from_space = kAlternateSpace;
  EXPECT_EQ(Verify(c.set, c.plan),
            "copy 0 (prefetch of buffer 'x' (id 0) from space 1 to space 1, time [2, 4]) must go "
            "from the default space 0 to another space");
  c = MakeMsaCase();
  c.plan.copies[1].to_space = kAlternateSpace;
  EXPECT_EQ(Verify(c.set, c.plan),
            "copy 1 (eviction of buffer 'y' (id 1) from space 1 to space 1, time [1, 2]) must go "
            "from another space to the default space 0");
}

TEST(VerifierTest, CopyTimesMustBeOrderedAndInRange) {
  MsaCase c = MakeMsaCase();
  c.plan.copies[0].done = 1;
  EXPECT_EQ(Verify(c.set, c.plan),
            "copy 0 (prefetch of buffer 'x' (id 0) from space 0 to space 1, time [2, 1]) is done "
            "before it starts");
  c = MakeMsaCase();
  c.plan.copies[0].done = 6;
  EXPECT_EQ(Verify(c.set, c.plan),
            "copy 0 (prefetch of buffer 'x' (id 0) from space 0 to space 1, time [2, 6]) lies "
            "outside the buffer's live range [0, 5]");
}

TEST(VerifierTest, CopyMustMoveTheWholeBuffer) {
  MsaCase c = MakeMsaCase();
  c.plan.copies[0].bytes = 2;
  EXPECT_EQ(Verify(c.set, c.plan),
            "copy 0 (prefetch of buffer 'x' (id 0) from space 0 to space 1, time [2, 4]) moves 2 "
            "bytes but the buffer has 4");
}

TEST(VerifierTest, EvictionSourceMustStayUntilDone) {
  MsaCase c = MakeMsaCase();
  // The eviction (1,2) is done before the ops of step 2: its source may end
  // at 1 (y is then read from default memory at 3).
  c.plan.placements[1].allocations[0].end = 1;
  EXPECT_EQ(Verify(c.set, c.plan), "OK");
  c.plan.copies[1].done = 3;
  EXPECT_EQ(Verify(c.set, c.plan),
            "copy 1 (eviction of buffer 'y' (id 1) from space 1 to space 0, time [1, 3]) needs "
            "the buffer resident in space 1 throughout [1, 2]");
}

TEST(VerifierTest, PrefetchSourceMustHoldTheData) {
  MsaCase c = MakeMsaCase();
  // x resident only in the alternate space from 2: the prefetch has no source.
  c.plan.placements[0].allocations = {Allocation{kDefaultSpace, 0, 0, 1},
                                      Allocation{kAlternateSpace, 0, 2, 5}};
  EXPECT_EQ(Verify(c.set, c.plan),
            "copy 0 (prefetch of buffer 'x' (id 0) from space 0 to space 1, time [2, 4]) needs "
            "the buffer resident in space 0 throughout [2, 3]");
}

TEST(VerifierTest, CopyMustOpenItsDestination) {
  MsaCase c = MakeMsaCase();
  c.plan.copies[0].start = 3;
  EXPECT_EQ(Verify(c.set, c.plan),
            "copy 0 (prefetch of buffer 'x' (id 0) from space 0 to space 1, time [3, 4]) opens no "
            "allocation in space 1 that starts at time 3 and lasts until time 4");
  c = MakeMsaCase();
  c.plan.placements[0].allocations[1].end = 3;  // reserved until 3, copy done at 4
  EXPECT_EQ(Verify(c.set, c.plan),
            "copy 0 (prefetch of buffer 'x' (id 0) from space 0 to space 1, time [2, 4]) opens no "
            "allocation in space 1 that starts at time 2 and lasts until time 4");
}

TEST(VerifierTest, TwoCopiesCannotOpenOneSegment) {
  MsaCase c = MakeMsaCase();
  c.plan.copies.push_back(c.plan.copies[0]);
  EXPECT_EQ(Verify(c.set, c.plan),
            "copy 2 (prefetch of buffer 'x' (id 0) from space 0 to space 1, time [2, 4]) opens "
            "buffer 'x' (id 0) allocation 1 (space 1, bytes [0, 4), time [2, 5]), which copy 0 "
            "already opens");
}

TEST(VerifierTest, LateSegmentNeedsACopy) {
  MsaCase c = MakeMsaCase();
  c.plan.copies.erase(c.plan.copies.begin());
  EXPECT_EQ(Verify(c.set, c.plan),
            "buffer 'x' (id 0) allocation 1 (space 1, bytes [0, 4), time [2, 5]) begins after the "
            "buffer's start 0 but no copy brings the data into it");
  c = MakeMsaCase();
  c.plan.copies.pop_back();
  EXPECT_EQ(Verify(c.set, c.plan),
            "buffer 'y' (id 1) allocation 1 (space 0, bytes [4, 8), time [1, 5]) begins after the "
            "buffer's start 0 but no copy brings the data into it");
}

TEST(VerifierTest, UseMustWaitForItsPrefetch) {
  MsaCase c = MakeMsaCase();
  c.set.buffers[0].mutable_use_times() = {1, 3, 5};  // 1 reads the default copy: fine
  EXPECT_EQ(Verify(c.set, c.plan),
            "buffer 'x' (id 0) is used at time 3 in buffer 'x' (id 0) allocation 1 (space 1, "
            "bytes [0, 4), time [2, 5]) before copy 0 is done at time 4");
  c.set.buffers[0].mutable_use_times() = {4};  // at done: fine
  EXPECT_EQ(Verify(c.set, c.plan), "OK");
}

// --- Rule 5: outstanding copies ----------------------------------------------

TEST(VerifierTest, OutstandingCopyLimits) {
  MsaCase c = MakeMsaCase();
  // A second buffer z(4)[0,5] prefetched during [4,5]: x's prefetch [2,4]
  // and z's share step 4, so two prefetches are outstanding then.
  c.set.buffers.push_back(MakeBuffer("z", 4, 0, 5));
  c.plan.placements.push_back(
      {"transient", {Allocation{kDefaultSpace, 8, 0, 5}, Allocation{kAlternateSpace, 4, 4, 5}}});
  c.plan.copies.push_back(AsyncCopy{2, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 4, 5, 4});
  c.plan.msa->prefetches = 2;
  c.plan.msa->prefetch_bytes = 8;
  Summarize(c.set, c.plan);
  VerifyOptions options;
  options.max_outstanding_prefetches = 2;
  options.max_outstanding_evictions = 1;
  EXPECT_EQ(Verify(c.set, c.plan, options), "OK");
  options.max_outstanding_prefetches = 1;
  EXPECT_EQ(Verify(c.set, c.plan, options),
            "2 prefetches are outstanding at time 4, above the limit 1: copies 0, 2");
  options.max_outstanding_prefetches.reset();
  options.max_outstanding_evictions = 0;
  EXPECT_EQ(Verify(c.set, c.plan, options),
            "1 eviction is outstanding at time 1, above the limit 0: copies 1");
}

// --- Rule 6: pools -----------------------------------------------------------

TEST(VerifierTest, PoolFieldsMustBeSane) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.pools[0].space = 3;
  EXPECT_EQ(Verify(set, plan), "pool 'transient' in space 3 is in a space the plan does not declare");
  plan = PackedPlan(set, {0, 8, 0});
  plan.pools[0].offset = -1;
  EXPECT_EQ(Verify(set, plan), "pool 'transient' in space 0 has a negative offset");
  plan = PackedPlan(set, {0, 8, 0});
  plan.pools[0].size = -1;
  EXPECT_EQ(Verify(set, plan), "pool 'transient' in space 0 has a negative size");
  plan = PackedPlan(set, {0, 8, 0});
  plan.pools[0].lower_bound = 17;
  EXPECT_EQ(Verify(set, plan),
            "pool 'transient' in space 0 has lower bound 17 bytes outside [0, its size 16]");
}

TEST(VerifierTest, PoolMustFitCapacity) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  PoolInfo spare;
  spare.name = "constant";
  spare.offset = 16;
  spare.size = 8;
  plan.pools.push_back(spare);
  plan.spaces[0].capacity = 20;
  EXPECT_EQ(Verify(set, plan),
            "pool 'constant' in space 0 ends at byte 24, beyond the capacity 20 of its space");
}

// --capacity transient=BYTES: the default space's transient pools together
// span at most Plan::pool_capacity[transient].
TEST(VerifierTest, PoolCapacityBoundsItsLifetimesPools) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});  // transient pool [0, 16)
  plan.pool_capacity[Lifetime::kTransient] = 16;
  plan.pool_capacity[Lifetime::kConstant] = 0;  // no constant pool: nothing to bound
  EXPECT_EQ(Verify(set, plan), "OK");
  plan.pool_capacity[Lifetime::kTransient] = 15;
  EXPECT_EQ(Verify(set, plan),
            "the transient pools of space 0 span 16 bytes (bytes [0, 16)), beyond their capacity "
            "15");
  // A second transient pool with a time range (a region slab) widens the span.
  plan = PackedPlan(set, {0, 8, 0});
  PoolInfo slab;
  slab.name = "r.slab";
  slab.offset = 16;
  slab.size = 8;
  slab.start = 0;
  slab.end = 3;
  plan.pools.push_back(slab);
  plan.pool_capacity[Lifetime::kTransient] = 20;
  EXPECT_EQ(Verify(set, plan),
            "the transient pools of space 0 span 24 bytes (bytes [0, 24)), beyond their capacity "
            "20");
}

TEST(VerifierTest, PoolsOfOneSpaceMustBeDisjoint) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  PoolInfo other;
  other.name = "constant";
  other.offset = 12;
  other.size = 8;
  plan.pools.push_back(other);
  EXPECT_EQ(Verify(set, plan),
            "pools 'transient' (bytes [0, 16)) and 'constant' (bytes [12, 20)) overlap in space 0");
}

TEST(VerifierTest, BufferPoolMustExist) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.placements[1].pool = "staging";
  EXPECT_EQ(Verify(set, plan),
            "buffer 'b' (id 1) belongs to pool 'staging', which space 0 does not have");
}

TEST(VerifierTest, SegmentsLieInTheirPool) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.pools[0].offset = 4;
  plan.pools[0].size = 12;
  plan.pools[0].lower_bound = 0;
  EXPECT_EQ(Verify(set, plan),
            "buffer 'a' (id 0) allocation 0 (space 0, bytes [0, 8), time [0, 1]) lies outside "
            "pool 'transient' (bytes [4, 16))");
}

TEST(VerifierTest, PoolTalliesMustMatch) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.pools[0].buffers = 2;
  EXPECT_EQ(Verify(set, plan), "pool 'transient' in space 0 reports 2 buffers but 3 belong to it");
  plan = PackedPlan(set, {0, 8, 0});
  plan.pools[0].total_bytes = 16;
  EXPECT_EQ(Verify(set, plan),
            "pool 'transient' in space 0 reports 16 total bytes but its buffers have 24");
  plan = PackedPlan(set, {0, 8, 0});
  plan.pools[0].size = 24;
  EXPECT_EQ(Verify(set, plan),
            "pool 'transient' in space 0 reports size 24 bytes but its buffers reach 16 bytes "
            "above its offset 0");
}

// --- Rule 7: summary figures -------------------------------------------------

TEST(VerifierTest, SpacePeakMustMatch) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.spaces[0].peak = 8;
  EXPECT_EQ(Verify(set, plan),
            "space 0 reports peak 8 bytes but its pools and allocations reach 16");
}

TEST(VerifierTest, SpacePeakMustFitDeclaredCapacity) {
  MsaCase c = MakeMsaCase();
  c.plan.spaces[1].capacity = 6;  // the alternate space peaks at 8
  EXPECT_EQ(Verify(c.set, c.plan), "space 1 peaks at 8 bytes, beyond its declared capacity 6");
}

TEST(VerifierTest, PlanPeakAndLowerBoundMatchTheTransientPool) {
  BufferSet set = ThreeBuffers();
  Plan plan = PackedPlan(set, {0, 8, 0});
  plan.peak = 24;
  EXPECT_EQ(Verify(set, plan),
            "the plan reports peak 24 bytes but the default space's transient pools span 16");
  plan = PackedPlan(set, {0, 8, 0});
  plan.lower_bound = 8;
  EXPECT_EQ(Verify(set, plan),
            "the plan reports lower bound 8 bytes but the default space's transient pools have 16");
}

TEST(VerifierTest, MsaCountsMustMatchTheCopies) {
  MsaCase c = MakeMsaCase();
  c.plan.msa->evictions = 2;
  EXPECT_EQ(Verify(c.set, c.plan),
            "the MSA statistics report evictions = 2 but the copies give 1");
  c = MakeMsaCase();
  c.plan.msa->prefetch_bytes = 8;
  EXPECT_EQ(Verify(c.set, c.plan),
            "the MSA statistics report prefetch_bytes = 8 but the copies give 4");
}

// --- Randomized cross-check of rule 3 against an O(n^2) brute force ---------

// The message the sweep must give: the first segment in (start, buffer) order
// that overlaps an earlier-ordered segment sharing a step, space and byte; its
// partner is the lowest-offset such segment. "OK" when there is none.
std::string BruteForceOverlap(const BufferSet& set, const Plan& plan) {
  const int n = static_cast<int>(set.buffers.size());
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  auto seg = [&](int i) { return plan.placements[i].allocations[0]; };
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    return std::make_pair(seg(x).start, x) < std::make_pair(seg(y).start, y);
  });
  auto describe = [&](int i) {
    const Allocation a = seg(i);
    return absl::StrCat("buffer '", set.buffers[i].name.str(), "' (id ", i, ") allocation 0 (space ",
                        a.space, ", bytes [", a.offset, ", ", a.offset + set.buffers[i].size,
                        "), time [", a.start, ", ", a.end, "])");
  };
  for (int k = 0; k < n; ++k) {
    const int x = order[k];
    std::optional<int> partner;
    for (int j = 0; j < k; ++j) {
      const int y = order[j];
      const Allocation a = seg(x), b = seg(y);
      const Bytes sx = set.buffers[x].size, sy = set.buffers[y].size;
      if (sx == 0 || sy == 0 || a.space != b.space) continue;
      if (b.end < a.start) continue;  // y ended before x starts
      if (a.offset >= b.offset + sy || b.offset >= a.offset + sx) continue;
      if (!partner || b.offset < seg(*partner).offset) partner = y;
    }
    if (partner) {
      return absl::StrCat(describe(x), " overlaps ", describe(*partner), " at time ", seg(x).start);
    }
  }
  return "OK";
}

TEST(VerifierTest, OverlapSweepMatchesBruteForce) {
  std::mt19937 rng(20261129);
  int conflicts = 0;
  for (int trial = 0; trial < 400; ++trial) {
    BufferSet set;
    set.time_steps = 12;
    const int n = 2 + static_cast<int>(rng() % 14);
    for (int i = 0; i < n; ++i) {
      const TimeStep start = rng() % 12;
      const TimeStep end = start + rng() % (12 - start);
      set.buffers.push_back(MakeBuffer(absl::StrCat("t", i), rng() % 9, start, end));
    }
    Plan plan;
    plan.time_steps = set.time_steps;
    plan.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 0},
                   SpaceInfo{"alternate", kAlternateSpace, std::nullopt, 0}};
    PoolInfo pool;
    pool.name = "transient";
    plan.pools = {pool};
    plan.msa = MsaStats{};  // buffers placed out of their home space, as MSA does
    for (const Buffer& b : set.buffers) {
      const MemorySpace space = rng() % 4 == 0 ? kAlternateSpace : kDefaultSpace;
      const Bytes offset = rng() % 48;
      plan.placements.push_back({"transient", {Allocation{space, offset, b.start, b.end}}});
    }
    Summarize(set, plan);
    const std::string expected = BruteForceOverlap(set, plan);
    if (expected != "OK") ++conflicts;
    EXPECT_EQ(Verify(set, plan), expected) << "trial " << trial;
  }
  // Both outcomes are exercised.
  EXPECT_GT(conflicts, 50);
  EXPECT_LT(conflicts, 400);
}

}  // namespace
}  // namespace memplan
