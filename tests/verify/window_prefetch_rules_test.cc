// The verifier's window-prefetch rules (rule 16, verify/window_checks.cc) on
// one hand-made plan: each test breaks the valid plan in exactly one way.
#include <string>

#include "gtest/gtest.h"
#include "tests/verify/buffer_builder.h"
#include "tests/verify/hand_made_plan.h"

namespace memplan::testing_verify {
namespace {

// Eight steps, alternate memory of 16 bytes:
//  w(32)[0,7], a weight read at 5, only in default memory [0,7] @0; an
//    8-byte window of it is prefetched for op 3 (at step 5) into alternate
//    bytes [0, 8), reserved from its copy-start at 2 through 5.
//  v(4)[0,3], produced in alternate [0,3] @8.
HandMadePlan MakeWindowPlan() {
  HandMadePlan m;
  m.set.time_steps = 8;
  m.set.buffers = {MakeBuffer("w", 32, 0, 7, {5}), MakeBuffer("v", 4, 0, 3, {3})};
  Plan& p = m.plan;
  p.time_steps = 8;
  p.spaces = {SpaceInfo{"default", kDefaultSpace, std::nullopt, 32},
              SpaceInfo{"alternate", kAlternateSpace, 16, 12}};
  p.pools = {TransientPool(32, 2, 36)};
  p.peak = 32;
  p.lower_bound = 32;
  p.placements = {
      {"transient", {Allocation{kDefaultSpace, 0, 0, 7}}},
      {"transient", {Allocation{kAlternateSpace, 8, 0, 3}}},
  };
  WindowPrefetch w;
  w.buffer = 0;
  w.op = 3;
  w.operand = 1;
  w.start = 2;
  w.done = 5;
  w.bytes = 8;
  w.offset = 0;
  p.window_prefetches = {w};
  p.msa = CopyStats(0, 0, 0);
  p.msa->window_prefetches = 1;
  p.msa->window_prefetch_bytes = 8;
  m.options.capacity[kAlternateSpace] = 16;
  return m;
}

TEST(WindowPrefetchRulesTest, TheHandMadePlanIsValid) { EXPECT_EQ(Verify(MakeWindowPlan()), "OK"); }

TEST(WindowPrefetchRulesTest, TheWindowMeetsNoSegmentWhileReserved) {
  HandMadePlan m = MakeWindowPlan();
  // Bytes [8, 16) from step 2: v holds [8, 12) through step 3.
  m.plan.window_prefetches[0].offset = 8;
  EXPECT_EQ(Verify(m),
            "window prefetch 0 (buffer 'w' (id 0) for op 3, bytes [8, 16) of space 1 during [2, "
            "5]) meets buffer 'v' (id 1) allocation 0 (space 1, bytes [8, 12), time [0, 3])");
  // From step 4 on, v's bytes are free.
  m.plan.window_prefetches[0].start = 4;
  m.plan.spaces[1].peak = 16;
  EXPECT_EQ(Verify(m), "OK");
}

TEST(WindowPrefetchRulesTest, TheWindowLiesInsideAlternateMemory) {
  HandMadePlan m = MakeWindowPlan();
  m.plan.window_prefetches[0].offset = 12;
  EXPECT_EQ(Verify(m),
            "window prefetch 0 (buffer 'w' (id 0) for op 3, bytes [12, 20) of space 1 during [2, "
            "5]) is not inside the space: its offset must be >= 0 and a multiple of 1, and it "
            "must end by byte 16");
  m = MakeWindowPlan();
  m.plan.window_prefetches[0].space = kDefaultSpace;
  EXPECT_EQ(Verify(m),
            "window prefetch 0 (buffer 'w' (id 0) for op 3, bytes [0, 8) of space 0 during [2, "
            "5]): a window lies in a declared space other than the default space");
  m = MakeWindowPlan();
  m.plan.window_prefetches[0].bytes = 33;
  EXPECT_EQ(Verify(m),
            "window prefetch 0 (buffer 'w' (id 0) for op 3, bytes [0, 33) of space 1 during [2, "
            "5]) moves 33 bytes of a buffer of 32: a window is 1 to size bytes");
}

TEST(WindowPrefetchRulesTest, TheCopyIsDoneAfterItStarts) {
  HandMadePlan m = MakeWindowPlan();
  m.plan.window_prefetches[0].start = 5;
  EXPECT_EQ(Verify(m),
            "window prefetch 0 (buffer 'w' (id 0) for op 3, bytes [0, 8) of space 1 during [5, "
            "5]): its copy runs from time 5 to 5; a window copy starts at or after the buffer's "
            "start (0) and is done at a later step, within its live range (to 7)");
}

TEST(WindowPrefetchRulesTest, TwoWindowsNeverShareBytes) {
  HandMadePlan m = MakeWindowPlan();
  WindowPrefetch second = m.plan.window_prefetches[0];
  second.op = 4;
  second.start = 5;
  second.done = 6;
  m.plan.window_prefetches.push_back(second);
  m.plan.msa->window_prefetches = 2;
  m.plan.msa->window_prefetch_bytes = 16;
  EXPECT_EQ(Verify(m),
            "window prefetch 0 (buffer 'w' (id 0) for op 3, bytes [0, 8) of space 1 during [2, "
            "5]) and window prefetch 1 (buffer 'w' (id 0) for op 4, bytes [0, 8) of space 1 "
            "during [5, 6]) hold the same bytes at one time");
  // Issued after the first window's op, the second may reuse its bytes.
  m.plan.window_prefetches[1].start = 6;
  m.plan.window_prefetches[1].done = 7;
  EXPECT_EQ(Verify(m), "OK");
}

TEST(WindowPrefetchRulesTest, TheStatisticsCountTheWindows) {
  HandMadePlan m = MakeWindowPlan();
  m.plan.msa->window_prefetch_bytes = 16;
  EXPECT_EQ(Verify(m),
            "the MSA statistics report window_prefetch_bytes = 16 but the copies give 8");
  m = MakeWindowPlan();
  m.plan.spaces[1].peak = 16;
  EXPECT_EQ(Verify(m), "space 1 reports peak 16 bytes but its pools and allocations reach 12");
}

}  // namespace
}  // namespace memplan::testing_verify
