// ONNX Runtime's memory pattern emulation against cases worked by hand from
// mem_pattern_planner.h (TraceAllocation / TraceFree).
#include "packing/peers/onnxruntime_pattern.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "packing/online_best_fit.h"
#include "tests/packing/packing_test_support.h"

namespace memplan::peers {
namespace {

using ::testing::ElementsAre;
using testing::CheckPacking;

TEST(OnnxRuntimePatternTest, HeaderExampleUsesTheGapBelowTheHighWaterMark) {
  // p 0, q 40, r 44 (high water 54). At step 2 p and r are freed: [0,40)
  // and the top gap [44,54). s (10 B) wastes 30 below, 0 on top -> 44; t
  // (38 B) then fits [0,40) -> 0. Arena 54.
  const std::vector<PackItem> items = {
      {40, 1, 0, 1}, {4, 1, 0, 9}, {10, 1, 0, 1}, {10, 1, 2, 9}, {38, 1, 3, 9}};
  const PackResult r = OnnxRuntimePatternPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 40, 44, 44, 0));
  EXPECT_EQ(r.peak, 54);
  EXPECT_EQ(r.algorithm, "onnxruntime-mem-pattern");
}

TEST(OnnxRuntimePatternTest, ExecutionOrderNotSizeOrder) {
  // All start at 0, in index order: 10 B -> 0, 30 B -> 10, 20 B -> 40. At
  // step 2 the 10 B and 20 B ones are freed: [0,10) and the top gap
  // [40,60). A 10 B buffer fits [0,10) exactly (waste 0) -> 0.
  // memplan's online-best-fit places same-step buffers largest first.
  const std::vector<PackItem> items = {
      {10, 1, 0, 1}, {30, 1, 0, 5}, {20, 1, 0, 1}, {10, 1, 2, 5}};
  const PackResult r = OnnxRuntimePatternPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 10, 40, 0));
  EXPECT_EQ(r.peak, 60);
  EXPECT_THAT(OnlineBestFitPack(items, 1).offsets, ElementsAre(50, 0, 30, 30));
}

TEST(OnnxRuntimePatternTest, NothingFitsGoesOnTopOfTheLiveBlocks) {
  // a 0 (high water 100), b 100 (high water 110); a is freed at step 2:
  // [0,100) below b. c (150 B) fits no gap and goes on top of b: 110.
  const std::vector<PackItem> items = {{100, 1, 0, 1}, {10, 1, 0, 5}, {150, 1, 2, 5}};
  const PackResult r = OnnxRuntimePatternPack(items, 1);
  EXPECT_THAT(r.offsets, ElementsAre(0, 100, 110));
  EXPECT_EQ(r.peak, 260);
}

TEST(OnnxRuntimePatternTest, SizesAreRoundedUpToTheAlignment) {
  // Alignment 64 (ORT pads to 64): 10 B -> 0, 70 B -> 64; the next offset
  // would be 192.
  const std::vector<PackItem> items = {{10, 1, 0, 3}, {70, 1, 1, 3}, {1, 1, 2, 3}};
  const PackResult r = OnnxRuntimePatternPack(items, 64);
  EXPECT_THAT(r.offsets, ElementsAre(0, 64, 192));
  EXPECT_EQ(r.peak, 193);
}

TEST(OnnxRuntimePatternTest, RandomItemsPackValidly) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<PackItem> items = testing::RandomItems(80, 30, 100, seed);
    const PackResult r = OnnxRuntimePatternPack(items, 4);
    EXPECT_EQ(CheckPacking(items, r.offsets, r.peak, 4), "") << "seed " << seed;
  }
}

}  // namespace
}  // namespace memplan::peers
