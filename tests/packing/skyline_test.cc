#include "packing/skyline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

using testing::XlaExample;

TEST(SkylineTest, LongestFirstWorkedExample) {
  const PackResult r = SkylinePack(XlaExample(), SkylineOrder::kLongestFirst, 1);
  EXPECT_THAT(r.offsets, ElementsAre(60, 40, 0, 110, 60));
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.algorithm, "skyline-longest");
}

TEST(SkylineTest, LargestAreaWorkedExample) {
  // Areas a 40, b 120, c 240, d 150, e 250: e -> 0; a (floor 0) -> 0; c -> 50;
  // d (area 150 > b's 120, both floor 90) -> 90; b -> 120.
  const PackResult r = SkylinePack(XlaExample(), SkylineOrder::kLargestArea, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 120, 50, 90, 0));
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.algorithm, "skyline-area");
}

TEST(SkylineTest, CrowdedFirstWorkedExample) {
  // XlaExample plus g (20 B) over [10, 29], alone then. Crowds (max live
  // bytes during the range): a 70, b to e 140 (steps 5-6), g 20. Among the
  // 140s by area: e 250, c 240, d 150, b 120; then a, then g, although g's
  // area (400) is the largest, which puts it first for skyline-area.
  std::vector<PackItem> items = XlaExample();
  items.push_back(PackItem{20, 1, 10, 29});
  EXPECT_THAT(SortForSkyline(items, SkylineOrder::kCrowdedFirst), ElementsAre(4, 2, 3, 1, 0, 5));
  EXPECT_THAT(SortForSkyline(items, SkylineOrder::kLargestArea), ElementsAre(5, 4, 2, 3, 1, 0));
  // As for skyline-area: e -> 0; a -> 0; c -> 50; d -> 90; b -> 120; g,
  // live with nothing, -> 0.
  const PackResult r = SkylinePack(items, SkylineOrder::kCrowdedFirst, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 120, 50, 90, 0, 0));
  EXPECT_EQ(r.peak, 140);
  EXPECT_EQ(r.algorithm, "skyline-crowded");
}

TEST(SkylineTest, LowestFloorBeatsLongerRange) {
  // x [0,3] 5 B -> 0. Floors: y [2,3], z [1,2], w [1,1] all 5; y and z are
  // longer than w, y is larger: y -> 5. Now z's floor is 25 but w's is 5: w
  // goes first although it is shorter. Then z -> 25.
  const std::vector<PackItem> items = {{5, 1, 0, 3}, {20, 1, 2, 3}, {3, 1, 1, 2}, {4, 1, 1, 1}};
  const PackResult r = SkylinePack(items, SkylineOrder::kLongestFirst, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 5, 25, 5));
  EXPECT_EQ(r.peak, 28);
}

TEST(SkylineTest, FloorsAreRoundedToAlignment) {
  // c -> 0, b -> align(40, 32) = 64; e rests on b: align(84, 32) = 96; a on b
  // -> 96; d on e -> align(146, 32) = 160.
  const PackResult r = SkylinePack(XlaExample(), SkylineOrder::kLongestFirst, 32);
  EXPECT_THAT(r.offsets, ElementsAre(96, 64, 0, 160, 96));
  EXPECT_EQ(r.peak, 190);
}

// The rule written out directly: every step, recompute each unplaced item's
// floor from a per-time-step skyline and place the lowest (first in priority
// on ties). O(n^2 T).
std::vector<Bytes> ReferenceSkyline(const std::vector<PackItem>& items,
                                    const std::vector<std::int32_t>& priority, Bytes alignment) {
  TimeStep horizon = 0;
  for (const PackItem& item : items) horizon = std::max(horizon, item.end + 1);
  std::vector<Bytes> sky(horizon, 0);
  std::vector<Bytes> offsets(items.size(), 0);
  std::vector<bool> placed(priority.size(), false);
  for (std::size_t step = 0; step < priority.size(); ++step) {
    std::size_t pick = 0;
    Bytes pick_floor = -1;
    for (std::size_t p = 0; p < priority.size(); ++p) {
      if (placed[p]) continue;
      const PackItem& item = items[priority[p]];
      Bytes floor = 0;
      for (TimeStep t = item.start; t <= item.end; ++t) floor = std::max(floor, sky[t]);
      floor = AlignUp(floor, std::max(item.alignment, alignment));
      if (pick_floor < 0 || floor < pick_floor) {
        pick = p;
        pick_floor = floor;
      }
    }
    placed[pick] = true;
    const PackItem& item = items[priority[pick]];
    offsets[priority[pick]] = pick_floor;
    for (TimeStep t = item.start; t <= item.end; ++t) sky[t] = pick_floor + item.size;
  }
  return offsets;
}

// Both strategies inside SkylinePacker without fixed items (an exact scan
// up to 1024 items, the sweep of skyline_sweep.cc above) must follow the rule
// exactly: short and long horizons, one alignment and several (the sweep's
// alignment classes, one of them not a power of two).
TEST(SkylineTest, MatchesReferenceOnRandomInputs) {
  struct Shape {
    int n;
    TimeStep horizon;
    std::vector<Bytes> alignments;
  };
  for (const Shape& shape : {Shape{300, 40, {1, 8}}, Shape{2100, 40, {1, 8}},
                             Shape{2600, 400, {1}}, Shape{2600, 300, {1, 3, 8, 64}}}) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(shape.n + shape.horizon));
    std::vector<PackItem> items(shape.n);
    for (PackItem& item : items) {
      item.start = static_cast<TimeStep>(rng() % shape.horizon);
      item.end = item.start + static_cast<TimeStep>(rng() % (rng() % 3 == 0 ? 30 : 4));
      item.size = 1 + static_cast<Bytes>(rng() % 50);
      item.alignment = shape.alignments[rng() % shape.alignments.size()];
    }
    for (SkylineOrder order : {SkylineOrder::kLongestFirst, SkylineOrder::kLargestArea,
                               SkylineOrder::kCrowdedFirst}) {
      const std::vector<std::int32_t> priority = SortForSkyline(items, order);
      const SkylinePacker packer(items, 2);
      EXPECT_EQ(*packer.Run(priority, std::numeric_limits<Bytes>::max()),
                ReferenceSkyline(items, priority, 2))
          << shape.n << " items over " << shape.horizon << " steps, "
          << SkylineOrderName(order);
    }
  }
}

TEST(SkylineTest, RunStopsAtTheCutoff) {
  const std::vector<PackItem> items = XlaExample();
  const SkylinePacker packer(items, 1);
  const std::vector<std::int32_t> priority = SortForSkyline(items, SkylineOrder::kLongestFirst);
  EXPECT_TRUE(packer.Run(priority, 141).has_value());  // peak 140 < 141
  EXPECT_FALSE(packer.Run(priority, 140).has_value());
}

}  // namespace
}  // namespace memplan
