// regions/fast_slab.h: the choice by benefit per byte and the capacity.
#include "regions/fast_slab.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

LayoutItem Live(Bytes size, TimeStep start, TimeStep end) {
  return LayoutItem{SizeExpr::Constant(size), start, end};
}

// The header's example: three 8192-byte slices live together, 16384 bytes
// hold the two of highest benefit.
TEST(FastSlab, HighestBenefitPerByteFirst) {
  const std::vector<LayoutItem> items = {Live(8192, 0, 2), Live(8192, 0, 2), Live(8192, 0, 2)};
  const FastSlabChoice c = ChooseFastSlices(items, {3e-7, 1e-7, 2e-7}, 16384, LayoutOptions{},
                                            false, PackingAlgorithm::kAuto);
  EXPECT_THAT(c.fast, ElementsAre(0, 2));
  EXPECT_THAT(c.layout.total.Evaluate({}), ::testing::Optional(16384));
}

// Per byte, not per slice: a 4096-byte slice saving 2e-7 s beats an
// 8192-byte one saving 3e-7 s; slices never live together share the bytes.
TEST(FastSlab, DensityAndSharing) {
  const std::vector<LayoutItem> items = {Live(8192, 0, 1), Live(4096, 0, 1), Live(8192, 2, 3)};
  const FastSlabChoice c = ChooseFastSlices(items, {3e-7, 2e-7, 1e-9}, 8192, LayoutOptions{},
                                            false, PackingAlgorithm::kAuto);
  EXPECT_THAT(c.fast, ElementsAre(1, 2));
  EXPECT_THAT(c.layout.total.Evaluate({}), ::testing::Optional(8192));
}

// No benefit, too large or dynamic: nothing is taken.
TEST(FastSlab, NothingToTake) {
  LayoutItem dynamic = Live(0, 0, 1);
  dynamic.size = SizeExpr::Dim(0);
  LayoutOptions options;
  options.planning_point = {64};
  const std::vector<LayoutItem> items = {Live(64, 0, 1), Live(100000, 0, 1), dynamic};
  const FastSlabChoice c = ChooseFastSlices(items, {0, 1e-6, 1e-6}, 4096, options, false,
                                            PackingAlgorithm::kAuto);
  EXPECT_TRUE(c.fast.empty());
}

}  // namespace
}  // namespace memplan
