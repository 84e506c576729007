#include "packing/exact/descent_ladder.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace memplan::exact {
namespace {

using Probes = std::vector<std::pair<Bytes, std::int64_t>>;

// Cuts `count` decisions in a row and returns the probes made.
Probes CutAll(DescentLadder& ladder, int count) {
  Probes probes;
  for (int k = 0; k < count; ++k) {
    const std::optional<DescentLadder::Probe> probe = ladder.Next();
    if (!probe) break;
    probes.emplace_back(probe->capacity, probe->nodes);
    ladder.Cut();
  }
  return probes;
}

TEST(DescentLadderTest, LubyTermsAreTheUniversalRestartSequence) {
  std::vector<std::int64_t> terms;
  for (std::int64_t i = 1; i <= 15; ++i) terms.push_back(LubyTerm(i));
  EXPECT_EQ(terms, (std::vector<std::int64_t>{1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8}));
  EXPECT_EQ(LubyTerm(31), 16);
  EXPECT_EQ(LubyTerm(0), 1);
}

// The header's worked example: a climb from the midpoint to one byte below
// the best; the next climbs, with the offsets 1/2 and 1/4, go between the
// capacities tried, skip the ones cut at their limit already, and take
// Luby's limits (L, L, 2L).
TEST(DescentLadderTest, ClimbsFromTheMidpointThenBetweenTheCapacitiesTried) {
  DescentLadder ladder(100, 164, 1, 10);
  EXPECT_EQ(CutAll(ladder, 14),
            (Probes{{132, 10}, {148, 10}, {156, 10}, {160, 10}, {162, 10}, {163, 10},
                    {140, 10}, {152, 10}, {158, 10}, {161, 10},
                    {136, 20}, {150, 20}, {157, 20}, {160, 20}}));
}

TEST(DescentLadderTest, AFoundPackingStartsANewClimbFromItsMidpoint) {
  DescentLadder ladder(100, 164, 1, 10);
  CutAll(ladder, 7);  // the first climb and 140 of the second (offset 1/2)
  ladder.Found(140);
  EXPECT_EQ(ladder.best(), 140);
  // The third climb: offset 0 again, Luby's third limit.
  EXPECT_EQ(CutAll(ladder, 2), (Probes{{120, 20}, {130, 20}}));
  // A peak no lower than the best changes nothing.
  ladder.Found(150);
  EXPECT_EQ(CutAll(ladder, 1), (Probes{{135, 20}}));
}

TEST(DescentLadderTest, AProofRaisesTheBoundToTheNextGranule) {
  DescentLadder ladder(1000, 2024, 64, 5);
  // Capacities are rounded down to multiples of 64: 1512 -> 1472.
  EXPECT_EQ(ladder.Next()->capacity, 1472);
  ladder.Proven(1472);
  EXPECT_EQ(ladder.bound(), 1536);
  EXPECT_EQ(ladder.Next()->capacity, 1728);  // 2024 - 244 = 1780 -> 1728
  ladder.RaiseBound(1900);
  EXPECT_EQ(ladder.Next()->capacity, 1920);  // 2024 - 62 = 1962 -> 1920
  ladder.Proven(1920);
  // The bound meets the best peak's granule: the best is optimal.
  EXPECT_EQ(ladder.bound(), 1984);
  EXPECT_EQ(CutAll(ladder, 3), (Probes{{1984, 5}, {1984, 10}, {1984, 20}}));
  ladder.Found(1984);
  EXPECT_FALSE(ladder.Next().has_value());
}

TEST(DescentLadderTest, NothingToDoWhenTheBestIsAtTheBound) {
  DescentLadder ladder(64, 64, 1, 5);
  EXPECT_FALSE(ladder.Next().has_value());
}

}  // namespace
}  // namespace memplan::exact
