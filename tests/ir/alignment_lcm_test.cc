#include "gtest/gtest.h"
#include "ir/units.h"

namespace memplan {
namespace {

TEST(AlignmentLcm, LeastCommonMultipleWithinTheLimit) {
  EXPECT_EQ(AlignmentLcm(64, 3), 192);
  EXPECT_EQ(AlignmentLcm(64, 16), 64);
  EXPECT_EQ(AlignmentLcm(0, 8), 8);  // alignments below 1 count as 1
  EXPECT_EQ(AlignmentLcm(kMaxAlignment, 2), kMaxAlignment);
  EXPECT_EQ(AlignmentLcm(kMaxAlignment, 3), std::nullopt);  // 3 * 2^32 is over the limit
  EXPECT_EQ(AlignmentLcm(kMaxAlignment - 1, kMaxAlignment), std::nullopt);
}

}  // namespace
}  // namespace memplan
