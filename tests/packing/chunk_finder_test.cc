#include "packing/chunk_finder.h"

#include <gtest/gtest.h>

#include <optional>

namespace memplan {
namespace {

// The committed chunks of the header example: c [2,7] @50 (40 B), b [1,6]
// @120 (20 B).
IntervalTree HeaderTree() {
  IntervalTree tree;
  tree.Insert({2, 7, 50, 40});
  tree.Insert({1, 6, 120, 20});
  return tree;
}

TEST(ChunkFinderTest, WorkedExampleFromHeader) {
  const IntervalTree tree = HeaderTree();
  ChunkFinder finder;
  EXPECT_EQ(finder.FindBestFit(tree, 0, 3, 10, 1), 90);   // tighter of two holes
  EXPECT_EQ(finder.FindBestFit(tree, 0, 3, 60, 1), 140);  // no hole fits: on top of b
  EXPECT_EQ(finder.FindBestFit(tree, 8, 9, 10, 1), 0);    // nothing live then
}

TEST(ChunkFinderTest, ExactFitAndTieGoesToLowerOffset) {
  IntervalTree tree;
  tree.Insert({0, 9, 10, 10});  // holes [0,10) and [20,30) below/between
  tree.Insert({0, 9, 30, 10});
  ChunkFinder finder;
  EXPECT_EQ(finder.FindBestFit(tree, 0, 9, 10, 1), 0);  // two exact fits: lower wins
  EXPECT_EQ(finder.FindBestFit(tree, 0, 9, 11, 1), 40);
}

TEST(ChunkFinderTest, AlignmentRoundsTheHoleStart) {
  const IntervalTree tree = HeaderTree();
  ChunkFinder finder;
  // Hole [90,120) starts at 96 when aligned to 16 or 32 (room 24): still fits.
  EXPECT_EQ(finder.FindBestFit(tree, 0, 3, 10, 16), 96);
  EXPECT_EQ(finder.FindBestFit(tree, 0, 3, 10, 32), 96);
  // Aligned to 64 it starts at 128, past the hole: the lower hole wins.
  EXPECT_EQ(finder.FindBestFit(tree, 0, 3, 10, 64), 0);
  // On top: 140 rounded up to 64.
  EXPECT_EQ(finder.FindBestFit(tree, 0, 3, 60, 64), 192);
}

TEST(ChunkFinderTest, CapacityLimitsTheChoice) {
  const IntervalTree tree = HeaderTree();
  ChunkFinder finder;
  // The best hole (90) would end at 100 > 95: take the other hole.
  EXPECT_EQ(finder.FindBestFit(tree, 0, 3, 10, 1, 95), std::optional<Bytes>(0));
  EXPECT_EQ(finder.FindBestFit(tree, 0, 3, 60, 1, 200), std::optional<Bytes>(140));
  EXPECT_EQ(finder.FindBestFit(tree, 0, 3, 60, 1, 199), std::nullopt);
  EXPECT_EQ(finder.FindBestFit(tree, 0, 3, 10, 1, 9), std::nullopt);
}

TEST(ChunkFinderTest, OverlappingChunksMergeIntoOneUsedSpan) {
  IntervalTree tree;
  tree.Insert({0, 5, 0, 50});
  tree.Insert({3, 8, 20, 10});  // inside [0,50): no hole at 30
  tree.Insert({0, 5, 60, 10});
  ChunkFinder finder;
  EXPECT_EQ(finder.FindBestFit(tree, 0, 9, 10, 1), 50);
  EXPECT_EQ(finder.FindBestFit(tree, 0, 9, 11, 1), 70);
}

}  // namespace
}  // namespace memplan
