#include "report/map/live_series.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/report/map/test_plans.h"

namespace memplan::memmap {
namespace {

using maptest::kKiB;
using maptest::kMiB;
using ::testing::ElementsAre;

TEST(SpaceLiveProfileTest, SumsAllocationsInTheSpace) {
  // x 256 KiB in alternate memory over [2,6], y 256 KiB over [0,4].
  const maptest::PlannedBuffers p = maptest::MsaPlan();
  EXPECT_THAT(SpaceLiveProfile(p.buffers, p.plan, kAlternateSpace, false),
              ElementsAre(LiveStep{0, 256 * kKiB}, LiveStep{2, 512 * kKiB},
                          LiveStep{5, 256 * kKiB}, LiveStep{7, 0}));
  EXPECT_THAT(SpaceLiveProfile(p.buffers, p.plan, 2, false), ElementsAre(LiveStep{0, 0}));
}

TEST(SpaceLiveProfileTest, CountsABufferOnceOverTouchingAllocations) {
  maptest::PlannedBuffers p;
  maptest::Add(p, "z", 100, 0, 9, "transient",
               {{kAlternateSpace, 0, 0, 3}, {kAlternateSpace, 200, 4, 5}, {kAlternateSpace, 0, 3, 4}});
  EXPECT_THAT(SpaceLiveProfile(p.buffers, p.plan, kAlternateSpace, false),
              ElementsAre(LiveStep{0, 100}, LiveStep{6, 0}));
}

TEST(SpaceLiveProfileTest, ActivationsOnlyLeavesWeightsOut) {
  maptest::PlannedBuffers p = maptest::WeightsPlan();
  // Prefetch w1 into alternate memory over [0,1] next to a transient.
  p.plan.placements[3].allocations.push_back({kAlternateSpace, 0, 0, 1});
  p.plan.placements[0].allocations.push_back({kAlternateSpace, 512 * kKiB, 1, 1});
  EXPECT_THAT(SpaceLiveProfile(p.buffers, p.plan, kAlternateSpace, false),
              ElementsAre(LiveStep{0, 512 * kKiB}, LiveStep{1, 512 * kKiB + kMiB},
                          LiveStep{2, 0}));
  EXPECT_THAT(SpaceLiveProfile(p.buffers, p.plan, kAlternateSpace, true),
              ElementsAre(LiveStep{0, 0}, LiveStep{1, kMiB}, LiveStep{2, 0}));
}

TEST(SpaceLiveProfileTest, CountsStagedChunksInTheIntermediateLevel) {
  // sram: act 512 KiB over [0,3], w's staged chunk 256 KiB over [0,1]; the
  // chunk is a weight's, so the activations view leaves it out.
  const maptest::PlannedBuffers p = maptest::StagedPlan();
  EXPECT_THAT(SpaceLiveProfile(p.buffers, p.plan, 2, false),
              ElementsAre(LiveStep{0, 768 * kKiB}, LiveStep{2, 512 * kKiB}, LiveStep{4, 0}));
  EXPECT_THAT(SpaceLiveProfile(p.buffers, p.plan, 2, true),
              ElementsAre(LiveStep{0, 512 * kKiB}, LiveStep{4, 0}));
  // tcm holds w's segment only; flash its home.
  EXPECT_THAT(SpaceLiveProfile(p.buffers, p.plan, kAlternateSpace, false),
              ElementsAre(LiveStep{0, 0}, LiveStep{2, 256 * kKiB}, LiveStep{4, 0}));
}

TEST(PoolLifetimesTest, ByPoolNameElseTheBuffersOwn) {
  maptest::PlannedBuffers p = maptest::WeightsPlan();
  p.plan.placements[1].pool = PoolName();
  p.buffers.buffers[1].lifetime = Lifetime::kExternal;
  EXPECT_THAT(PoolLifetimes(p.buffers, p.plan),
              ElementsAre(Lifetime::kTransient, Lifetime::kExternal, Lifetime::kTransient,
                          Lifetime::kConstant, Lifetime::kConstant));
  EXPECT_TRUE(IsActivationLifetime(Lifetime::kTransient));
  EXPECT_TRUE(IsActivationLifetime(Lifetime::kStaging));
  EXPECT_FALSE(IsActivationLifetime(Lifetime::kConstant));
  EXPECT_FALSE(IsActivationLifetime(Lifetime::kVariable));
  EXPECT_FALSE(IsActivationLifetime(Lifetime::kExternal));
}

TEST(PeakOfTest, FirstStepWithTheMaximum) {
  EXPECT_EQ(PeakOf({{0, 4}, {1, 12}, {2, 8}, {3, 12}, {4, 0}}), (ProfilePeak{1, 12}));
  EXPECT_EQ(PeakOf({{0, 0}}), std::nullopt);
  EXPECT_EQ(PeakOf({}), std::nullopt);
}

TEST(ElideMiddleTest, KeepsBothEnds) {
  EXPECT_EQ(ElideMiddle("abcdefghij", 7), "abc\u2026hij");
  EXPECT_EQ(ElideMiddle("abcdefghij", 10), "abcdefghij");
  EXPECT_EQ(ElideMiddle("abcdefghij", 1), "\u2026");
  EXPECT_EQ(ElideMiddle("abcdefghij", 0), "");
  // A cut never splits the two bytes of "é": head "a", tail "fg".
  EXPECT_EQ(ElideMiddle("a\u00e9cdefg", 5), "a\u2026fg");
}

}  // namespace
}  // namespace memplan::memmap
