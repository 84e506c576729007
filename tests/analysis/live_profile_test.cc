#include "analysis/live_profile.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

Buffer Make(std::string name, Bytes size, TimeStep start, TimeStep end,
            Lifetime lifetime = Lifetime::kTransient) {
  Buffer b;
  b.name = std::move(name);
  b.size = size;
  b.start = start;
  b.end = end;
  b.lifetime = lifetime;
  return b;
}

bool All(const Buffer&) { return true; }

// The example of live_profile.h.
TEST(LiveProfileTest, HeaderExample) {
  BufferSet set;
  set.time_steps = 4;
  set.buffers = {Make("a", 4, 0, 1), Make("b", 8, 1, 2), Make("c", 2, 3, 3)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.bytes, ElementsAre(4, 12, 8, 2));
  EXPECT_EQ(p.peak, 12);
  EXPECT_EQ(p.peak_time, 1);
}

TEST(LiveProfileTest, PeakTimeIsTheFirstStepReachingThePeak) {
  BufferSet set;
  set.time_steps = 6;
  // t: 0   1   2   3   4   5
  //    10  10  30  10  30  0
  set.buffers = {Make("long", 10, 0, 4), Make("x", 20, 2, 2), Make("y", 20, 4, 4)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.bytes, ElementsAre(10, 10, 30, 10, 30, 0));
  EXPECT_EQ(p.peak, 30);
  EXPECT_EQ(p.peak_time, 2);
}

TEST(LiveProfileTest, PredicateSelectsBuffers) {
  BufferSet set;
  set.time_steps = 3;
  set.buffers = {Make("in", 100, 0, 2, Lifetime::kExternal), Make("t1", 8, 0, 1),
                 Make("t2", 16, 1, 2), Make("k", 50, 0, 2, Lifetime::kConstant)};
  LiveProfile p = ComputeLiveProfile(
      set, [](const Buffer& b) { return b.lifetime == Lifetime::kTransient; });
  EXPECT_THAT(p.bytes, ElementsAre(8, 24, 16));
  EXPECT_EQ(p.peak, 24);
  EXPECT_EQ(p.peak_time, 1);
  LiveProfile all = ComputeLiveProfile(set, All);
  EXPECT_THAT(all.bytes, ElementsAre(158, 174, 166));
}

TEST(LiveProfileTest, NothingLiveHasPeakZeroAtTimeZero) {
  BufferSet set;
  set.time_steps = 2;
  set.buffers = {Make("zero", 0, 0, 1)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.bytes, ElementsAre(0, 0));
  EXPECT_EQ(p.peak, 0);
  EXPECT_EQ(p.peak_time, 0);
}

TEST(LiveProfileTest, NoTimeStepsGivesAnEmptyProfile) {
  BufferSet set;
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.bytes, IsEmpty());
  EXPECT_EQ(p.peak, 0);
  EXPECT_EQ(p.peak_time, kNoId);
}

TEST(LiveProfileTest, PartsOutsideTheTimeLineAreIgnored) {
  BufferSet set;
  set.time_steps = 3;
  set.buffers = {Make("late", 5, 1, 9), Make("early", 7, -2, 0), Make("gone", 9, 4, 6)};
  LiveProfile p = ComputeLiveProfile(set, All);
  EXPECT_THAT(p.bytes, ElementsAre(7, 5, 5));
  EXPECT_EQ(p.peak, 7);
  EXPECT_EQ(p.peak_time, 0);
}

}  // namespace
}  // namespace memplan
