#include "packing/exact/incumbent.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "packing/pack_support.h"
#include "packing/skyline.h"
#include "tests/packing/packing_test_support.h"

namespace memplan {
namespace {

using ::memplan::testing::CheckPacking;

// skyline.h's example: a(10)[0,3] b(20)[1,6] c(40)[2,7] d(30)[4,8]
// e(50)[5,9]; b, c, d and e are live together at step 5 (140 bytes).
std::vector<PackItem> SkylineExample() {
  return {{.size = 10, .start = 0, .end = 3},
          {.size = 20, .start = 1, .end = 6},
          {.size = 40, .start = 2, .end = 7},
          {.size = 30, .start = 4, .end = 8},
          {.size = 50, .start = 5, .end = 9}};
}

TEST(ExactIncumbentTest, MeetsMaxLiveWhereASkylineDoes) {
  const std::vector<PackItem> items = SkylineExample();
  ASSERT_EQ(MaxLiveBytes(items), 140);
  // skyline-longest packs it at 140 (skyline.h), so the best member does.
  ASSERT_EQ(SkylinePack(items, SkylineOrder::kLongestFirst, 1).peak, 140);
  const std::vector<Bytes> offsets = exact::ExactIncumbent(items, 1, /*search=*/false);
  EXPECT_EQ(PeakOf(items, offsets), 140);
  EXPECT_EQ(CheckPacking(items, offsets, 140, 1), "");
}

TEST(ExactIncumbentTest, HonoursTheAlignmentAndTheSearchLowersThePeak) {
  const std::vector<PackItem> items = SkylineExample();
  const std::vector<Bytes> plain = exact::ExactIncumbent(items, 16, /*search=*/false);
  const std::vector<Bytes> searched = exact::ExactIncumbent(items, 16, /*search=*/true);
  for (Bytes offset : plain) EXPECT_EQ(offset % 16, 0);
  EXPECT_EQ(CheckPacking(items, plain, PeakOf(items, plain), 16), "");
  EXPECT_EQ(CheckPacking(items, searched, PeakOf(items, searched), 16), "");
  // At alignment 16, b, c, d and e (live at step 5) stack at multiples of
  // 16: at best 32 + 48 + 32 below e's 50 bytes (e on top wastes the
  // most, 14 bytes, and nothing above it), 162.
  // The constructive members' best leaves 2 bytes more (164); the local
  // search reaches the bound.
  EXPECT_EQ(PeakOf(items, plain), 164);
  EXPECT_EQ(PeakOf(items, searched), 162);
}

// A deadline that has passed stops the incumbent's work: here the local
// search does not start (the constructive members, too short to poll the
// clock, finish), so the peak stays 164. A search given --time-limit 1 on
// PanGu's 18,692 buffers spent 5 s here before it honoured the deadline.
TEST(ExactIncumbentTest, APassedDeadlineSkipsTheSearch) {
  const std::vector<PackItem> items = SkylineExample();
  const PackDeadline passed = std::optional(PackClock::now() - std::chrono::seconds(1));
  const std::vector<Bytes> offsets = exact::ExactIncumbent(items, 16, /*search=*/true, passed);
  EXPECT_EQ(CheckPacking(items, offsets, PeakOf(items, offsets), 16), "");
  EXPECT_EQ(PeakOf(items, offsets), 164);
}

}  // namespace
}  // namespace memplan
