// Packing items with dead gaps (PackItem::gaps): the exclusive branches of a
// conditional share bytes, the lower bound counts an item only where it is
// live, and every packer stays valid (the hull packers conservatively).
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "packing/baselines.h"
#include "packing/best_fit.h"
#include "packing/pack_support.h"
#include "packing/packer.h"
#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

PackItem Item(Bytes size, TimeStep start, TimeStep end, std::vector<StepRange> gaps = {}) {
  PackItem item;
  item.size = size;
  item.start = start;
  item.end = end;
  item.mutable_gaps() = std::move(gaps);
  return item;
}

// The buffers of a conditional (tests/analysis/control_flow_liveness_test.cc):
// y is its result, dead at [2,3] while branch b runs b1 and b2.
std::vector<PackItem> TwoBranches() {
  return {Item(1024, 1, 6, {{2, 3}}),  // y
          Item(3072, 2, 3),            // b1
          Item(3072, 3, 4),            // b2
          Item(4096, 0, 1)};           // a1
}

TEST(DeadGapsTest, LivePiecesSplitItemsAtTheirGaps) {
  const LivePieceSlots slots = LivePieces({Item(1, 0, 9, {{2, 4}, {6, 6}}), Item(1, 3, 5)});
  EXPECT_THAT(slots.ranges, ElementsAre(Pair(0, 1), Pair(5, 5), Pair(7, 9), Pair(3, 5)));
  EXPECT_THAT(slots.first, ElementsAre(0, 3, 4));
}

TEST(DeadGapsTest, MalformedGapsAreIgnoredNeverShrinkingTheLiveSet) {
  // At the start, at the end, reversed, adjacent to the previous one.
  const LivePieceSlots slots =
      LivePieces({Item(1, 0, 9, {{0, 1}, {3, 4}, {5, 5}, {7, 6}, {9, 9}})});
  EXPECT_THAT(slots.ranges, ElementsAre(Pair(0, 2), Pair(5, 9)));
  EXPECT_EQ(MaxLiveBytes({Item(8, 0, 9, {{0, 1}, {9, 9}})}), 8);
}

TEST(DeadGapsTest, LowerBoundIsTheLargerBranch) {
  std::vector<PackItem> items = TwoBranches();
  EXPECT_EQ(MaxLiveBytes(items), 6144);  // b1 + b2 at t3
  items[0].mutable_gaps().clear();
  EXPECT_EQ(MaxLiveBytes(items), 7168);  // y + b1 + b2 at t3
}

// The exact search reads y as live over its gap, so with gaps it proves no
// more than max-live with the gaps honoured (was 0 in the summary).
TEST(DeadGapsTest, TheExactSearchProvesMaxLiveWithGaps) {
  PackOptions options;
  options.minimize = true;
  const PackResult r = Pack(TwoBranches(), PackingAlgorithm::kExact, options);
  EXPECT_EQ(r.proven_lower_bound, MaxLiveBytes(TwoBranches()));
  EXPECT_EQ(r.lower_bound, MaxLiveBytes(TwoBranches()));
  EXPECT_GT(r.proven_lower_bound, 0);
}

TEST(DeadGapsTest, BestFitPlacesATemporaryInTheResultsGap) {
  const std::vector<PackItem> items = TwoBranches();
  // Temporal order: y (longest) at 0; a1 above it (both live at t1); b1 at 0
  // during y's gap; b2 above b1. Peak = the larger branch.
  const PackResult temporal = Pack(items, PackingAlgorithm::kBestFitTemporal);
  EXPECT_THAT(temporal.offsets, ElementsAre(0, 0, 3072, 1024));
  EXPECT_EQ(temporal.peak, 6144);
  EXPECT_EQ(testing::CheckPacking(items, temporal.offsets, temporal.peak, 1), "");
  // Spatial order places y last, on top of a1 and b2: 7168.
  const PackResult spatial = Pack(items, PackingAlgorithm::kBestFitSpatial);
  EXPECT_THAT(spatial.offsets, ElementsAre(6144, 0, 3072, 0));
  EXPECT_EQ(spatial.peak, 7168);
  // auto keeps the lowest peak, which meets the lower bound.
  const PackResult best = Pack(items, PackingAlgorithm::kAuto);
  EXPECT_EQ(best.peak, 6144);
  EXPECT_EQ(best.algorithm, "best-fit-temporal");
}

TEST(DeadGapsTest, InOrderUsesTheGapToo) {
  const std::vector<PackItem> items = TwoBranches();
  const PackResult with_gaps = InOrderPack(items, 1);
  EXPECT_THAT(with_gaps.offsets, ElementsAre(0, 0, 3072, 1024));
  EXPECT_EQ(with_gaps.peak, 6144);
  std::vector<PackItem> hulls = items;
  hulls[0].mutable_gaps().clear();
  const PackResult without = InOrderPack(hulls, 1);
  EXPECT_THAT(without.offsets, ElementsAre(0, 1024, 4096, 1024));
  EXPECT_EQ(without.peak, 7168);
}

// Random items with random gaps: every algorithm gives a valid packing under
// the gap rule, never below the lower bound, and the lower bound is the
// brute-force max over steps of the bytes live then.
TEST(DeadGapsTest, RandomItemsWithGapsPackValidly) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<PackItem> items = testing::RandomItems(40, 30, 64, 100 + round);
    for (PackItem& item : items) {
      // Up to two gaps strictly inside, separated by a live step.
      TimeStep from = item.start + 1;
      for (int g = 0; g < 2 && from + 1 <= item.end - 1; ++g) {
        if (rng() % 2 == 0) continue;
        const TimeStep first = from + static_cast<TimeStep>(rng() % (item.end - from));
        if (first >= item.end) break;
        const TimeStep last = first + static_cast<TimeStep>(rng() % (item.end - first));
        if (last >= item.end) break;
        item.mutable_gaps().push_back({first, last});
        from = last + 2;
      }
    }
    Bytes brute = 0;
    for (TimeStep t = 0; t < 30; ++t) {
      Bytes live = 0;
      for (const PackItem& item : items) {
        for (const auto& [s, e] : testing::LiveSteps(item)) {
          if (s <= t && t <= e) live += item.size;
        }
      }
      brute = std::max(brute, live);
    }
    ASSERT_EQ(MaxLiveBytes(items), brute) << "round " << round;
    for (PackingAlgorithm algorithm : AllPackingAlgorithms()) {
      const PackResult r = Pack(items, algorithm, 4);
      EXPECT_EQ(testing::CheckPacking(items, r.offsets, r.peak, 4), "")
          << PackingAlgorithmName(algorithm) << " round " << round;
      EXPECT_GE(r.peak, brute);
    }
  }
}

}  // namespace
}  // namespace memplan
