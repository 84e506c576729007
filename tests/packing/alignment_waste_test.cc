#include "packing/exact/alignment_waste.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/packing/brute_force_packing.h"

namespace memplan::exact {
namespace {

TEST(AlignmentWasteTest, OddSizedAlignedBuffersWasteABytePerSegment) {
  // Sizes 5, 3, 1 at alignment 2 and 4 at alignment 1: the even-sized
  // unaligned buffer fixes no parity, so two of the three odd ones leave a
  // byte empty: 13 + 2.
  const std::vector<StackBuffer> stack = {{5, 2}, {3, 2}, {1, 2}, {4, 1}};
  std::vector<Bytes> scratch;
  EXPECT_EQ(MinStackTop(0, stack, scratch), 15);
  EXPECT_EQ(ExactStackTop(stack, {}), 15);
  // Above floor 7 nothing rounds the floor (an unaligned buffer may go first).
  EXPECT_EQ(MinStackTop(7, stack, scratch), 22);
}

TEST(AlignmentWasteTest, OddSizedFillerCancelsOneSegmentsWaste) {
  // A 1-byte unaligned buffer fills one hole: 14 + 1.
  const std::vector<StackBuffer> stack = {{5, 2}, {3, 2}, {1, 2}, {1, 1}, {4, 1}};
  std::vector<Bytes> scratch;
  EXPECT_EQ(MinStackTop(0, stack, scratch), 15);
  EXPECT_EQ(ExactStackTop(stack, {}), 15);
}

TEST(AlignmentWasteTest, AllAlignedStackStartsAtAnAlignedFloor) {
  // Both at alignment 4 above floor 1: the lowest starts at 4; sizes 3 and 4
  // with the 3 on top waste nothing more: 4 + 4 + 3.
  const std::vector<StackBuffer> stack = {{3, 4}, {4, 4}};
  std::vector<Bytes> scratch;
  EXPECT_EQ(MinStackTop(1, stack, scratch), 11);
  EXPECT_EQ(MinStackTop(0, stack, scratch), 7);
  EXPECT_EQ(ExactStackTop(stack, {}), 7);
}

TEST(AlignmentWasteTest, FixedBuffersCountAsFillers) {
  // The fixed 1-byte buffer could sit in a hole: only one byte of waste is
  // certain for the bound; the exact stack around [4, 6) needs 17.
  const std::vector<StackBuffer> stack = {{5, 2}, {3, 2}, {1, 2}, {1, 1, true}, {4, 1}};
  std::vector<Bytes> scratch;
  EXPECT_EQ(MinStackTop(0, stack, scratch), 15);
  const std::vector<StackBuffer> movable = {{5, 2}, {3, 2}, {1, 2}, {4, 1}};
  EXPECT_EQ(ExactStackTop(movable, {{4, 6}}), 17);
  // A fixed interval above everything is the top.
  EXPECT_EQ(ExactStackTop(movable, {{30, 32}}), 32);
}

TEST(AlignmentWasteTest, ExactStackTopMatchesBruteForceOnOneStep) {
  // Every item live at step 0: the exact stack is the optimum packing.
  const std::vector<StackBuffer> stack = {{5, 4}, {3, 4}, {6, 1}, {1, 2}, {5, 2}, {3, 2}, {4, 1}};
  std::vector<PackItem> items;
  for (const StackBuffer& b : stack) items.push_back({b.size, b.alignment, 0, 0});
  EXPECT_EQ(ExactStackTop(stack, {}), memplan::testing::BruteForcePacking(items, 1).Optimum());
  std::vector<Bytes> scratch;
  EXPECT_LE(MinStackTop(0, stack, scratch), ExactStackTop(stack, {}));
}

}  // namespace
}  // namespace memplan::exact
