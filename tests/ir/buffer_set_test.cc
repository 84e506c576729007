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
  b.mutable_gaps() = {{2, 3}, {6, 6}};
  EXPECT_THAT(LivePieces(b, 0, 9),
              ElementsAre(StepRange{0, 1}, StepRange{4, 5}, StepRange{7, 9}));
  EXPECT_THAT(LivePieces(b, 3, 6), ElementsAre(StepRange{4, 5}));  // clipped to the range
  EXPECT_THAT(LivePieces(b, 2, 3), IsEmpty());                     // all dead
  EXPECT_THAT(LivePieces(b, 5, 4), IsEmpty());                     // empty range
  b.mutable_gaps().clear();
  EXPECT_THAT(LivePieces(b, 1, 8), ElementsAre(StepRange{1, 8}));
}

TEST(HeldPiecesTest, SplitsTheLivePiecesAtTheWindows) {
  // The example of buffer_set.h.
  Buffer b;
  b.size = 16;
  b.start = 0;
  b.end = 9;
  b.mutable_gaps() = {{2, 3}};
  b.mutable_windows() = {OccupancyWindow{{6, 7}, 0, 8}};
  EXPECT_THAT(HeldPieces(b), ElementsAre(HeldPiece{{0, 1}, 0, 16}, HeldPiece{{4, 5}, 0, 16},
                                         HeldPiece{{6, 7}, 0, 8}, HeldPiece{{8, 9}, 0, 16}));
  // Windows at both ends of the range, one right after a gap.
  b.mutable_windows() = {OccupancyWindow{{0, 1}, 4, 12}, OccupancyWindow{{4, 4}, 0, 2},
                         OccupancyWindow{{9, 9}, 8, 16}};
  EXPECT_THAT(HeldPieces(b), ElementsAre(HeldPiece{{0, 1}, 4, 12}, HeldPiece{{4, 4}, 0, 2},
                                         HeldPiece{{5, 8}, 0, 16}, HeldPiece{{9, 9}, 8, 16}));
  b.mutable_gaps().clear();
  b.mutable_windows().clear();
  EXPECT_THAT(HeldPieces(b), ElementsAre(HeldPiece{{0, 9}, 0, 16}));
}

}  // namespace
}  // namespace memplan
