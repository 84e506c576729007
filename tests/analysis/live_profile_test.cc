#include "analysis/live_profile.h"

#include <limits>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/buffer_maker.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

bool All(const Buffer&) { return true; }

// The example of live_profile.h.
TEST(LiveProfileTest, HeaderExample) {
  BufferSet set;
  set.time_steps = 4;
  set.buffers = {Make("a", 4, 0, 1), Make("b", 8, 1, 2), Make("c", 2, 3, 3)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.changes, ElementsAre(LiveChange{0, 4}, LiveChange{1, 12}, LiveChange{2, 8},
                                     LiveChange{3, 2}));
  EXPECT_EQ(p.time_steps, 4);
  EXPECT_EQ(p.peak, 12);
  EXPECT_EQ(p.peak_time, 1);
  set.time_steps = 1000;
  EXPECT_THAT(ComputeLiveProfile(set, All).changes,
              ElementsAre(LiveChange{0, 4}, LiveChange{1, 12}, LiveChange{2, 8}, LiveChange{3, 2},
                          LiveChange{4, 0}));
}

TEST(LiveProfileTest, PeakTimeIsTheFirstStepReachingThePeak) {
  BufferSet set;
  set.time_steps = 6;
  // t: 0   1   2   3   4   5
  //    10  10  30  10  30  0
  set.buffers = {Make("long", 10, 0, 4), Make("x", 20, 2, 2), Make("y", 20, 4, 4)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.changes, ElementsAre(LiveChange{0, 10}, LiveChange{2, 30}, LiveChange{3, 10},
                                     LiveChange{4, 30}, LiveChange{5, 0}));
  EXPECT_EQ(p.peak, 30);
  EXPECT_EQ(p.peak_time, 2);
}

// The same buffers with their steps a million apart: far more steps than
// events, so the events are sorted instead of summed in a table over the
// steps; the changes and the peak are the same, at the spread-out steps.
TEST(LiveProfileTest, SparseStepsGiveTheSameProfile) {
  constexpr TimeStep kM = 1'000'000;
  BufferSet set;
  set.time_steps = 6 * kM;
  set.buffers = {Make("long", 10, 0, 4 * kM), Make("x", 20, 2 * kM, 2 * kM),
                 Make("y", 20, 4 * kM, 4 * kM)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.changes, ElementsAre(LiveChange{0, 10}, LiveChange{2 * kM, 30},
                                     LiveChange{2 * kM + 1, 10}, LiveChange{4 * kM, 30},
                                     LiveChange{4 * kM + 1, 0}));
  EXPECT_EQ(p.peak, 30);
  EXPECT_EQ(p.peak_time, 2 * kM);
  const LivePeak peak = ComputeLivePeak(set, All);
  EXPECT_EQ(peak.peak, 30);
  EXPECT_EQ(peak.peak_time, 2 * kM);
}

TEST(LiveProfileTest, SimultaneousStartAndEndMakeNoChange) {
  BufferSet set;
  set.time_steps = 4;
  // a ends at 1 and b (same size) starts at 2: 6 B live throughout.
  set.buffers = {Make("a", 6, 0, 1), Make("b", 6, 2, 3)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.changes, ElementsAre(LiveChange{0, 6}));
  EXPECT_EQ(p.peak, 6);
  EXPECT_EQ(p.peak_time, 0);
}

TEST(LiveProfileTest, PredicateSelectsBuffers) {
  BufferSet set;
  set.time_steps = 3;
  set.buffers = {Make("in", 100, 0, 2, Lifetime::kExternal), Make("t1", 8, 0, 1),
                 Make("t2", 16, 1, 2), Make("k", 50, 0, 2, Lifetime::kConstant)};
  LiveProfile p = ComputeLiveProfile(
      set, [](const Buffer& b) { return b.lifetime == Lifetime::kTransient; });
  EXPECT_THAT(p.changes, ElementsAre(LiveChange{0, 8}, LiveChange{1, 24}, LiveChange{2, 16}));
  EXPECT_EQ(p.peak, 24);
  EXPECT_EQ(p.peak_time, 1);
  LiveProfile all = ComputeLiveProfile(set, All);
  EXPECT_THAT(all.changes,
              ElementsAre(LiveChange{0, 158}, LiveChange{1, 174}, LiveChange{2, 166}));
}

TEST(LiveProfileTest, NothingLiveHasPeakZeroAtTimeZero) {
  BufferSet set;
  set.time_steps = 2;
  set.buffers = {Make("zero", 0, 0, 1)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.changes, ElementsAre(LiveChange{0, 0}));
  EXPECT_EQ(p.peak, 0);
  EXPECT_EQ(p.peak_time, 0);
}

TEST(LiveProfileTest, NoTimeStepsGivesAnEmptyProfile) {
  BufferSet set;
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.changes, IsEmpty());
  EXPECT_EQ(p.peak, 0);
  EXPECT_EQ(p.peak_time, kNoId);
  EXPECT_EQ(MaxLiveIn(p, 0, 10), 0);
}

TEST(LiveProfileTest, PartsOutsideTheTimeLineAreIgnored) {
  BufferSet set;
  set.time_steps = 3;
  set.buffers = {Make("late", 5, 1, 9), Make("early", 7, -2, 0), Make("gone", 9, 4, 6)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.changes, ElementsAre(LiveChange{0, 7}, LiveChange{1, 5}));
  EXPECT_EQ(p.peak, 7);
  EXPECT_EQ(p.peak_time, 0);
}

// A MiniMalloc-style time line of 2^63 - 1 steps costs only its events.
TEST(LiveProfileTest, HugeTimeLineCostsOnlyItsEvents) {
  constexpr TimeStep kMax = std::numeric_limits<TimeStep>::max();
  BufferSet set;
  set.time_steps = kMax;
  set.buffers = {Make("b1", 4, 0, 3999999999), Make("b2", 8, 3999999999, kMax - 1),
                 Make("b3", 2, kMax - 1, kMax - 1)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.changes, ElementsAre(LiveChange{0, 4}, LiveChange{3999999999, 12},
                                     LiveChange{4000000000, 8}, LiveChange{kMax - 1, 10}));
  EXPECT_EQ(p.peak, 12);
  EXPECT_EQ(p.peak_time, 3999999999);
  EXPECT_EQ(MaxLiveIn(p, 0, kMax), 12);
  EXPECT_EQ(MaxLiveIn(p, 4000000000, kMax - 2), 8);
  EXPECT_EQ(MaxLiveIn(p, kMax - 1, kMax), 10);
}

TEST(LiveProfileTest, MaxLiveInClampsAndSpansChanges) {
  BufferSet set;
  set.time_steps = 6;
  set.buffers = {Make("long", 10, 0, 4), Make("x", 20, 2, 2), Make("y", 20, 4, 4)};
  LiveProfile p = ComputeLiveProfile(set, All);  // 10 10 30 10 30 0
  EXPECT_EQ(MaxLiveIn(p, 0, 1), 10);
  EXPECT_EQ(MaxLiveIn(p, 1, 2), 30);
  EXPECT_EQ(MaxLiveIn(p, 3, 3), 10);
  EXPECT_EQ(MaxLiveIn(p, 5, 5), 0);
  EXPECT_EQ(MaxLiveIn(p, -5, 0), 10);
  EXPECT_EQ(MaxLiveIn(p, 5, 100), 0);
  EXPECT_EQ(MaxLiveIn(p, 6, 100), 0);  // outside the time line
  EXPECT_EQ(MaxLiveIn(p, 3, 2), 0);    // empty range
}

TEST(LiveProfileTest, AWindowCountsOnlyItsBytes) {
  // a (16 B) holds [0, 8) at steps 1..2 and [4, 6) at step 4, the last
  // step; b (4 B) lives at 1..2.
  BufferSet set;
  set.time_steps = 5;
  set.buffers = {Make("a", 16, 0, 4), Make("b", 4, 1, 2)};
  set.buffers[0].mutable_windows() = {OccupancyWindow{{1, 2}, 0, 8}, OccupancyWindow{{4, 4}, 4, 6}};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.changes, ElementsAre(LiveChange{0, 16}, LiveChange{1, 12}, LiveChange{3, 16},
                                     LiveChange{4, 2}));
  EXPECT_EQ(p.peak, 16);
  EXPECT_EQ(p.peak_time, 0);
}

}  // namespace
}  // namespace memplan
