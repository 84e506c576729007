// The verifier's memory-space rules on one hand-made MSA plan, one test per
// rule: each breaks the valid plan in exactly one way.
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/verify/buffer_builder.h"
#include "tests/verify/hand_made_plan.h"

namespace memplan::testing_verify {
namespace {

// Eight steps, alternate memory of 16 bytes:
//  w(8)[0,7] a weight read at 3 and 6: default [0,7] @0; prefetched (1,3)
//    into alternate [1,6] @0.
//  t(8)[1,7] produced in alternate [1,4] @8 and read at 2; evicted (2,4)
//    into default [2,7] @8; read from default at 7.
//  u(8)[5,6] produced in alternate [5,6] @8.
HandMadePlan MakeMsaPlan() {
  HandMadePlan m;
  m.set.time_steps = 8;
  m.set.buffers = {MakeBuffer("w", 8, 0, 7, {3, 6}), MakeBuffer("t", 8, 1, 7, {2, 7}),
                   MakeBuffer("u", 8, 5, 6, {6})};
  Plan& p = m.plan;
  p.time_steps = 8;
  p.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 16},
              SpaceInfo{"alternate", kAlternateSpace, 16, 16}};
  PoolInfo transient = TransientPool(16, 3, 24);
  p.pools = {transient};
  p.peak = 16;
  p.lower_bound = 16;
  p.placements = {
      {"transient", {Allocation{kDefaultSpace, 0, 0, 7}, Allocation{kAlternateSpace, 0, 1, 6}}},
      {"transient", {Allocation{kAlternateSpace, 8, 1, 4}, Allocation{kDefaultSpace, 8, 2, 7}}},
      {"transient", {Allocation{kAlternateSpace, 8, 5, 6}}},
  };
  p.copies = {AsyncCopy{0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 1, 3, 8},
              AsyncCopy{1, CopyKind::kEviction, kAlternateSpace, kDefaultSpace, 2, 4, 8}};
  p.msa = CopyStats(1, 1, 8);
  m.options.capacity[kAlternateSpace] = 16;
  m.options.max_outstanding_prefetches = 1;
  m.options.max_outstanding_evictions = 1;
  return m;
}

TEST(MsaRulesTest, TheHandMadePlanIsValid) { EXPECT_EQ(Verify(MakeMsaPlan()), "OK"); }

// Six steps: an entry parameter w (8 B, external: the caller keeps it
// between runs) is read at 1 and dies at 2; an end-of-program prefetch
// refills fast memory over [3, 5] for the next run, after w's live range.
HandMadePlan MakeRefillPlan() {
  HandMadePlan m;
  m.set.time_steps = 6;
  m.set.buffers = {MakeBuffer("w", 8, 0, 2, {1})};
  m.set.buffers[0].lifetime = Lifetime::kExternal;
  Plan& p = m.plan;
  p.time_steps = 6;
  p.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 8},
              SpaceInfo{"alternate", kAlternateSpace, 16, 8}};
  PoolInfo external;
  external.name = "external";
  external.lifetime = Lifetime::kExternal;
  external.size = 8;
  external.lower_bound = 8;
  external.buffers = 1;
  external.total_bytes = 8;
  p.pools = {external};
  p.placements = {
      {"external", {Allocation{kDefaultSpace, 0, 0, 5}, Allocation{kAlternateSpace, 0, 3, 5}}}};
  p.copies = {AsyncCopy{0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 3, 5, 8}};
  p.msa = CopyStats(1, 0, 8);
  m.options.capacity[kAlternateSpace] = 16;
  return m;
}

TEST(MsaRulesTest, StorageThatOutlivesTheRunMayBeRefilledAfterItsLiveRange) {
  EXPECT_EQ(Verify(MakeRefillPlan()), "OK");
  // A transient buffer's storage ends with its live range.
  HandMadePlan m = MakeRefillPlan();
  m.set.buffers[0].lifetime = Lifetime::kTransient;
  m.plan.pools[0].name = "transient";
  m.plan.pools[0].lifetime = Lifetime::kTransient;
  m.plan.placements[0].pool = "transient";
  EXPECT_EQ(Verify(m),
            "buffer 'w' (id 0) allocation 0 (space 0, bytes [0, 8), time [0, 5]) lies outside "
            "the buffer's live range [0, 2]");
  // The refilled segment is still opened by a copy.
  m = MakeRefillPlan();
  m.plan.copies.clear();
  m.plan.msa->prefetches = 0;
  m.plan.msa->prefetch_bytes = 0;
  EXPECT_EQ(Verify(m),
            "buffer 'w' (id 0) allocation 1 (space 1, bytes [0, 8), time [3, 5]) begins after "
            "the buffer's start 0 but no copy brings the data into it");
}

TEST(MsaRulesTest, NoOverlapInAlternateMemory) {
  HandMadePlan m = MakeMsaPlan();
  m.plan.placements[1].allocations[0].offset = 4;  // t's [4,12) meets w's [0,8) during 1..4
  EXPECT_EQ(Verify(m), "buffer 't' (id 1) allocation 0 (space 1, bytes [4, 12), time [1, 4]) overlaps buffer 'w' "
            "(id 0) allocation 1 (space 1, bytes [0, 8), time [1, 6]) at time 1");
}

TEST(MsaRulesTest, AlternateCapacity) {
  HandMadePlan m = MakeMsaPlan();
  m.options.capacity[kAlternateSpace] = 12;
  EXPECT_EQ(Verify(m), "buffer 't' (id 1) allocation 0 (space 1, bytes [8, 16), time [1, 4]) ends at byte 16, "
            "beyond the capacity 12 of space 1");
}

TEST(MsaRulesTest, AlternateSegmentStartsAtDefinitionOrAtACopy) {
  HandMadePlan m = MakeMsaPlan();
  // u is produced in default memory at 5 (a new chunk at 16) and then claimed
  // resident in alternate memory from 6 without a prefetch.
  m.plan.placements[2].allocations = {Allocation{kDefaultSpace, 16, 5, 5},
                                      Allocation{kAlternateSpace, 8, 6, 6}};
  m.plan.pools[0].size = 24;
  m.plan.spaces[0].peak = 24;
  m.plan.peak = 24;
  EXPECT_EQ(Verify(m),
            "buffer 'u' (id 2) allocation 1 (space 1, bytes [8, 16), time [6, 6]) begins after "
            "the buffer's start 5 but no copy brings the data into it");
}

TEST(MsaRulesTest, UseWaitsForThePrefetch) {
  HandMadePlan m = MakeMsaPlan();
  m.plan.copies[0].done = 4;  // w is read in alternate memory at 3
  EXPECT_EQ(Verify(m), "buffer 'w' (id 0) is used at time 3 in buffer 'w' (id 0) allocation 1 (space 1, bytes "
            "[0, 8), time [1, 6]) before copy 0 is done at time 4");
}

TEST(MsaRulesTest, CopyStartsAfterTheDataExists) {
  HandMadePlan m = MakeMsaPlan();
  // t is prefetched back from default memory at 3, before its eviction has
  // brought the data there (done at 4): the new segment would overlap the
  // eviction's source, which is reserved until 4.
  m.plan.placements[1].allocations.push_back(Allocation{kAlternateSpace, 8, 3, 7});
  m.plan.copies.push_back(AsyncCopy{1, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 3, 5, 8});
  m.plan.msa->prefetches = 2;
  m.plan.msa->prefetch_bytes = 16;
  EXPECT_EQ(Verify(m),
            "buffer 't' (id 1) has allocations 0 and 2 both in space 1 at time 3");
}

TEST(MsaRulesTest, EvictionSourceReservedUntilDone) {
  HandMadePlan m = MakeMsaPlan();
  // The eviction (2,4) completes before the op at 4: the source may end at 3.
  m.plan.placements[1].allocations[0].end = 3;
  EXPECT_EQ(Verify(m), "OK");
  m.plan.placements[1].allocations[0].end = 2;  // freed while the eviction still reads it
  EXPECT_EQ(Verify(m), "copy 1 (eviction of buffer 't' (id 1) from space 1 to space 0, time [2, 4]) needs the "
            "buffer resident in space 1 throughout [2, 3]");
}

// u (8 B) is produced at 4 in the bytes t's eviction (2,4) reads: the copy
// is done before the op at 4 writes, so t's source ends at 3 and the two
// share the chunk. Held one step longer, the source overlaps u.
TEST(MsaRulesTest, EvictionDoneWhereAnotherBufferStarts) {
  HandMadePlan m = MakeMsaPlan();
  m.set.buffers[2] = MakeBuffer("u", 8, 4, 6, {6});
  m.plan.placements[2].allocations = {Allocation{kAlternateSpace, 8, 4, 6}};
  m.plan.placements[1].allocations[0].end = 3;
  EXPECT_EQ(Verify(m), "OK");
  m.plan.placements[1].allocations[0].end = 4;
  EXPECT_EQ(Verify(m), "buffer 'u' (id 2) allocation 0 (space 1, bytes [8, 16), time [4, 6]) overlaps buffer "
            "'t' (id 1) allocation 0 (space 1, bytes [8, 16), time [1, 4]) at time 4");
}

TEST(MsaRulesTest, DefaultCopyOfAlternateDataNeedsAnEviction) {
  HandMadePlan m = MakeMsaPlan();
  // t's default chunk claims the data from t's definition, without the eviction.
  m.plan.copies.pop_back();
  m.plan.msa->evictions = 0;
  m.plan.msa->eviction_bytes = 0;
  m.plan.placements[1].allocations[1].start = 1;
  EXPECT_EQ(Verify(m), "buffer 't' (id 1) allocation 0 (space 1, bytes [8, 16), time [1, 4]) and buffer 't' "
            "(id 1) allocation 1 (space 0, bytes [8, 16), time [1, 7]) both hold the data from "
            "the buffer's start 1, but it is produced in one place: the second needs an async "
            "copy");
}

// Adds an eviction of w over [start, done] that refreshes its default chunk,
// with the plan's counts and a limit of two outstanding evictions.
void AddRefreshOfW(HandMadePlan& m, TimeStep start, TimeStep done) {
  m.plan.copies.push_back(
      AsyncCopy{0, CopyKind::kEviction, kAlternateSpace, kDefaultSpace, start, done, 8});
  m.plan.msa->evictions = 2;
  m.plan.msa->eviction_bytes = 16;
  m.options.max_outstanding_evictions = 2;
}

// w is rewritten in place in alternate memory at 4 and evicted back (4,5)
// into its default chunk, which is reserved from 0: a refresh, not a new
// segment. A prefetch may not refresh.
TEST(MsaRulesTest, EvictionMayRefreshTheDefaultChunk) {
  HandMadePlan m = MakeMsaPlan();
  AddRefreshOfW(m, 4, 5);
  EXPECT_EQ(Verify(m), "OK");
  m.plan.copies.back() = AsyncCopy{0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 4, 5, 8};
  m.plan.msa->evictions = 1;
  m.plan.msa->eviction_bytes = 8;
  m.plan.msa->prefetches = 2;
  m.plan.msa->prefetch_bytes = 16;
  EXPECT_EQ(Verify(m),
            "copy 2 (prefetch of buffer 'w' (id 0) from space 0 to space 1, time [4, 5]) opens no "
            "allocation in space 1 that starts at time 4 and lasts until time 5");
}

// An eviction that refreshes w's default chunk from the alternate segment
// that the prefetch (1,3) is still filling would write back data that is not
// there yet.
TEST(MsaRulesTest, RefreshWaitsForItsSourceToFill) {
  HandMadePlan m = MakeMsaPlan();
  AddRefreshOfW(m, 2, 4);
  EXPECT_EQ(Verify(m),
            "copy 2 (eviction of buffer 'w' (id 0) from space 1 to space 0, time [2, 4]) starts at "
            "time 2 but its source buffer 'w' (id 0) allocation 1 (space 1, bytes [0, 8), time "
            "[1, 6]) holds the data only when copy 0 is done at time 3");
  m.plan.copies.back().start = 3;  // issued after the op at 3, when the prefetch is done
  EXPECT_EQ(Verify(m), "OK");
}

TEST(MsaRulesTest, OutstandingPrefetchLimit) {
  HandMadePlan m = MakeMsaPlan();
  // u becomes an input prefetched during (2,5), overlapping w's (1,3), in a
  // larger alternate memory.
  m.set.buffers[2].start = 0;
  m.plan.placements[2].allocations = {Allocation{kDefaultSpace, 16, 0, 6},
                                      Allocation{kAlternateSpace, 16, 2, 6}};
  m.plan.copies.push_back(AsyncCopy{2, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 2, 5, 8});
  m.plan.msa->prefetches = 2;
  m.plan.msa->prefetch_bytes = 16;
  m.plan.pools[0].size = 24;
  m.plan.spaces[0].peak = 24;
  m.plan.spaces[1].capacity = 24;
  m.plan.spaces[1].peak = 24;
  m.plan.peak = 24;
  m.options.capacity[kAlternateSpace] = 24;
  m.options.max_outstanding_prefetches = 2;
  EXPECT_EQ(Verify(m), "OK");
  m.options.max_outstanding_prefetches = 1;
  EXPECT_EQ(Verify(m), "2 prefetches are outstanding at time 2, above the limit 1: copies 0, 2");
}

TEST(MsaRulesTest, OutstandingEvictionLimit) {
  HandMadePlan m = MakeMsaPlan();
  m.options.max_outstanding_evictions = 0;
  EXPECT_EQ(Verify(m), "1 eviction is outstanding at time 2, above the limit 0: copies 1");
}

// The alternate space declares its own alignment (the target's fast-memory
// alignment); t's chunk at byte 8 honours 8 but not 16, and a chunk shifted
// by one byte honours nothing.
TEST(MsaRulesTest, AlternateOffsetsHonourTheSpaceAlignment) {
  HandMadePlan m = MakeMsaPlan();
  m.plan.spaces[1].alignment = 8;
  EXPECT_EQ(Verify(m), "OK");
  m.plan.spaces[1].alignment = 16;
  EXPECT_EQ(Verify(m),
            "buffer 't' (id 1) allocation 0 (space 1, bytes [8, 16), time [1, 4]): offset 8 is "
            "not a multiple of 16, the alignment of memory space 1");
  m.plan.spaces[1].alignment = 4;
  m.plan.placements[2].allocations[0].offset = 9;  // u, no overlap: w ends at 8, t at 4
  m.plan.spaces[1].peak = 17;
  EXPECT_EQ(Verify(m),
            "buffer 'u' (id 2) allocation 0 (space 1, bytes [9, 17), time [5, 6]): offset 9 is "
            "not a multiple of 4, the alignment of memory space 1");
  m.plan.spaces[1].alignment = 0;
  EXPECT_EQ(Verify(m), "space 1 has alignment 0 (must be at least 1)");
}

TEST(MsaRulesTest, EstimatedTimeLiesBetweenItsBounds) {
  HandMadePlan m = MakeMsaPlan();
  m.plan.msa->time_all_fast_s = 0.001;
  m.plan.msa->time_all_default_s = 0.004;
  m.plan.msa->estimated_time_s = 0.002;
  EXPECT_EQ(Verify(m), "OK");
  m.plan.msa->estimated_time_s = 0;
  EXPECT_EQ(Verify(m),
            "the MSA statistics report estimated_time_s = 0 s, below time_all_fast_s = 0.001 s "
            "(every buffer in fast memory, the fastest possible)");
  m.plan.msa->estimated_time_s = 0.005;
  EXPECT_EQ(Verify(m),
            "the MSA statistics report estimated_time_s = 0.005 s, above time_all_default_s = "
            "0.004 s (every buffer in default memory; a plan is never slower)");
  // Decimal round trips may move a bound by a relative 1e-9.
  m.plan.msa->estimated_time_s = 0.001 * (1 - 5e-10);
  EXPECT_EQ(Verify(m), "OK");
  m.plan.msa->estimated_time_s = 0.004 * (1 + 5e-10);
  EXPECT_EQ(Verify(m), "OK");
  m.plan.msa->estimated_time_s = 0.004 * (1 + 2e-9);
  EXPECT_EQ(Verify(m),
            "the MSA statistics report estimated_time_s = 0.004000000008 s, above "
            "time_all_default_s = 0.004 s (every buffer in default memory; a plan is never "
            "slower)");
  m.plan.msa->estimated_time_s = 0.002;
  m.plan.msa->time_all_fast_s = -1;
  EXPECT_EQ(Verify(m), "the MSA statistics report time_all_fast_s = -1 s, not a finite time >= 0");
  m.plan.msa->time_all_fast_s = 0.001;
  m.plan.msa->time_all_default_s = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(Verify(m),
            "the MSA statistics report time_all_default_s = nan s, not a finite time >= 0");
}

// All in default memory bounds the estimate only when it fits
// (MsaStats::time_all_default_fits): a plan may be slower than a layout
// no plan can have, but never faster than all in fast memory.
TEST(MsaRulesTest, EstimatedTimeAboveABaselineThatDoesNotFit) {
  HandMadePlan m = MakeMsaPlan();
  m.plan.msa->time_all_fast_s = 0.001;
  m.plan.msa->time_all_default_s = 0.004;
  m.plan.msa->estimated_time_s = 0.005;
  EXPECT_EQ(Verify(m),
            "the MSA statistics report estimated_time_s = 0.005 s, above time_all_default_s = "
            "0.004 s (every buffer in default memory; a plan is never slower)");
  m.plan.msa->time_all_default_fits = false;
  EXPECT_EQ(Verify(m), "OK");
  m.plan.msa->estimated_time_s = 0;
  EXPECT_EQ(Verify(m),
            "the MSA statistics report estimated_time_s = 0 s, below time_all_fast_s = 0.001 s "
            "(every buffer in fast memory, the fastest possible)");
}

// The time bound (msa/time_bound.h), when the plan records one: no plan
// with that fast memory is faster, up to the same relative 1e-9.
TEST(MsaRulesTest, EstimatedTimeIsAtOrAboveTheTimeBound) {
  HandMadePlan m = MakeMsaPlan();
  m.plan.msa->time_all_fast_s = 0.001;
  m.plan.msa->time_all_default_s = 0.004;
  m.plan.msa->estimated_time_s = 0.002;
  m.plan.msa->time_bound_s = 0.002 * (1 + 5e-10);
  EXPECT_EQ(Verify(m), "OK");
  m.plan.msa->time_bound_s = 0.003;
  EXPECT_EQ(Verify(m),
            "the MSA statistics report estimated_time_s = 0.002 s, below time_bound_s = 0.003 s "
            "(no plan with this fast memory is faster)");
  m.plan.msa->time_bound_s = -1;
  EXPECT_EQ(Verify(m), "the MSA statistics report time_bound_s = -1 s, not a finite time >= 0");
  m.plan.msa->time_bound_s.reset();  // plans written before the bound
  EXPECT_EQ(Verify(m), "OK");
}

TEST(MsaRulesTest, CopiesNeedMsaStatistics) {
  HandMadePlan m = MakeMsaPlan();
  m.plan.msa.reset();
  EXPECT_EQ(Verify(m), "the plan has 2 async copies but no MSA statistics");
}

// Only memory space assignment moves a buffer out of its home space: u,
// produced in alternate memory without any copy, still needs MSA statistics
// unless it is pinned there.
TEST(MsaRulesTest, DataOutsideItsHomeSpaceNeedsMsaStatistics) {
  HandMadePlan m = MakeMsaPlan();
  m.plan.copies.clear();
  m.plan.placements[0].allocations.pop_back();      // w stays in default memory
  m.plan.placements[1].allocations = {Allocation{kDefaultSpace, 8, 1, 7}};
  m.plan.msa.reset();
  EXPECT_EQ(Verify(m),
            "buffer 'u' (id 2) allocation 0 (space 1, bytes [8, 16), time [5, 6]) lies outside "
            "the buffer's home space, which only memory space assignment does, but the plan has "
            "no MSA statistics");
  m.set.buffers[2].space = kAlternateSpace;  // pinned: its home pool is in space 1
  PoolInfo pinned;
  pinned.name = "alternate";
  pinned.space = kAlternateSpace;
  pinned.offset = 0;
  pinned.size = 16;
  pinned.buffers = 1;
  pinned.total_bytes = 8;
  m.plan.pools[0].buffers = 2;
  m.plan.pools[0].total_bytes = 16;
  m.plan.pools.push_back(pinned);
  m.plan.placements[2].pool = "alternate";
  EXPECT_EQ(Verify(m), "OK");
}

// A copy-done precedes the ops of its step and a copy-start follows them, so
// a copy done at its start step would complete before it is issued. Only the
// cross-program prefetch, at the buffer's start, is listed that way.
TEST(MsaRulesTest, CopyDoneComesAfterItsStart) {
  HandMadePlan m = MakeMsaPlan();
  m.plan.copies[0].done = 1;
  EXPECT_EQ(Verify(m),
            "copy 0 (prefetch of buffer 'w' (id 0) from space 0 to space 1, time [1, 1]) is done "
            "at time 1, the step it starts at: a copy-done must come after its copy-start (only "
            "a cross-program prefetch, at the buffer's start 0, may be done when it starts)");
  m = MakeMsaPlan();
  m.plan.copies[1].done = 2;
  EXPECT_EQ(Verify(m),
            "copy 1 (eviction of buffer 't' (id 1) from space 1 to space 0, time [2, 2]) is done "
            "at time 2, the step it starts at: a copy-done must come after its copy-start (only "
            "a cross-program prefetch, at the buffer's start 1, may be done when it starts)");
  // w prefetched across runs: in alternate memory from its start 0.
  m = MakeMsaPlan();
  m.plan.placements[0].allocations[1].start = 0;
  m.plan.copies[0].start = 0;
  m.plan.copies[0].done = 0;
  EXPECT_EQ(Verify(m), "OK");
}

}  // namespace
}  // namespace memplan::testing_verify
