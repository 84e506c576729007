// msa/sliced_prefetch.h: how a buffer is sliced and when the slices start.
#include "msa/sliced_prefetch.h"

#include <vector>

#include "gtest/gtest.h"

namespace memplan {
namespace {

std::vector<std::pair<Bytes, Bytes>> Pairs(const std::vector<ByteSlice>& slices) {
  std::vector<std::pair<Bytes, Bytes>> out;
  for (const ByteSlice& s : slices) out.emplace_back(s.offset, s.bytes);
  return out;
}

using Slices = std::vector<std::pair<Bytes, Bytes>>;

TEST(SliceBufferTest, HeaderExample) {
  EXPECT_EQ(Pairs(SliceBuffer(1000, 4, {}, 64)),
            (Slices{{0, 256}, {256, 256}, {512, 256}, {768, 232}}));
}

TEST(SliceBufferTest, EvenSplitWithoutAlignment) {
  EXPECT_EQ(Pairs(SliceBuffer(1024, 4, {}, 1)), (Slices{{0, 256}, {256, 256}, {512, 256}, {768, 256}}));
  // Rounding up to the alignment can leave fewer slices than asked for.
  EXPECT_EQ(Pairs(SliceBuffer(96, 4, {}, 32)), (Slices{{0, 32}, {32, 32}, {64, 32}}));
  EXPECT_EQ(Pairs(SliceBuffer(100, 3, {}, 64)), (Slices{{0, 64}, {64, 36}}));
}

TEST(SliceBufferTest, OneSliceWhenSlicingDoesNotApply) {
  EXPECT_EQ(Pairs(SliceBuffer(1024, 1, {}, 1)), (Slices{{0, 1024}}));
  EXPECT_EQ(Pairs(SliceBuffer(1024, 0, {}, 1)), (Slices{{0, 1024}}));
  SlicedPrefetchOptions big_only;
  big_only.min_bytes = 2048;
  EXPECT_EQ(Pairs(SliceBuffer(1024, 4, big_only, 1)), (Slices{{0, 1024}}));
  EXPECT_EQ(Pairs(SliceBuffer(64, 4, {}, 64)), (Slices{{0, 64}}));  // one aligned slice only
}

TEST(SliceBufferTest, PreferredSliceSizeCapsTheCount) {
  SlicedPrefetchOptions sized;
  sized.preferred_slice_bytes = 400;
  EXPECT_EQ(Pairs(SliceBuffer(1000, 8, sized, 1)), (Slices{{0, 334}, {334, 334}, {668, 332}}));
  sized.preferred_slice_bytes = 1000;
  EXPECT_EQ(Pairs(SliceBuffer(1000, 8, sized, 1)), (Slices{{0, 1000}}));
}

// Steps of 1 s each: elapsed(s, d) counts the steps strictly between.
double OneSecondSteps(TimeStep s, TimeStep d) {
  return d - s < 2 ? 0.0 : static_cast<double>(d - s - 1);
}

TEST(PickSliceStartsTest, HeaderExample) {
  EXPECT_EQ(PickSliceStarts(2, -1, 4, {0, 1, 2, 3}, OneSecondSteps), (std::vector<TimeStep>{-1, 1}));
}

TEST(PickSliceStartsTest, StartsSpreadEvenlyInOverlap) {
  // Nine steps of overlap between 0 and 10: slices keep >= 9, 6, 3.
  EXPECT_EQ(PickSliceStarts(3, 0, 10, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, OneSecondSteps),
            (std::vector<TimeStep>{0, 3, 6}));
  // Only the computation's own steps are candidates.
  EXPECT_EQ(PickSliceStarts(3, 0, 10, {0, 2, 4, 8, 10}, OneSecondSteps),
            (std::vector<TimeStep>{0, 2, 4}));
  // No overlap to spread: every slice starts first.
  EXPECT_EQ(PickSliceStarts(3, 4, 5, {4, 5}, OneSecondSteps), (std::vector<TimeStep>{4, 4, 4}));
}

TEST(PickSliceStartsTest, WeightedByElapsedTime) {
  // Step 1 takes 10 s, every other step 1 s: the overlap from 0 to 6 is
  // 14 s (steps 1..5). Half of it, 7 s, lies ahead only of start 0; a
  // quarter, 3.5 s, also ahead of start 1 (4 s left), not of 2 (3 s).
  const auto elapsed = [](TimeStep s, TimeStep d) {
    double total = 0;
    for (TimeStep t = s + 1; t < d; ++t) total += t == 1 ? 10 : 1;
    return total;
  };
  EXPECT_EQ(PickSliceStarts(2, 0, 6, {0, 1, 2, 3, 4, 5, 6}, elapsed), (std::vector<TimeStep>{0, 0}));
  EXPECT_EQ(PickSliceStarts(4, 0, 6, {0, 1, 2, 3, 4, 5, 6}, elapsed),
            (std::vector<TimeStep>{0, 0, 0, 1}));
}

}  // namespace
}  // namespace memplan
