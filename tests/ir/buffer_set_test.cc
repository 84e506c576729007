#include "ir/buffer_set.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(LivePiecesTest, CutsTheDeadGapsOutOfARange) {
  Buffer b;
  b.start = 0;
  b.end = 9;
  b.gaps = {{2, 3}, {6, 6}};
  EXPECT_THAT(LivePieces(b, 0, 9),
              ElementsAre(StepRange{0, 1}, StepRange{4, 5}, StepRange{7, 9}));
  EXPECT_THAT(LivePieces(b, 3, 6), ElementsAre(StepRange{4, 5}));  // clipped to the range
  EXPECT_THAT(LivePieces(b, 2, 3), IsEmpty());                     // all dead
  EXPECT_THAT(LivePieces(b, 5, 4), IsEmpty());                     // empty range
  b.gaps.clear();
  EXPECT_THAT(LivePieces(b, 1, 8), ElementsAre(StepRange{1, 8}));
}

}  // namespace
}  // namespace memplan
