// Gathered operands in alias sets and live ranges: the operands join the
// result's buffer at their offsets, which is then live from the first
// producer's write.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/alias_sets.h"
#include "tests/analysis/test_program.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::Analyze;
using testing::DescribeBuffers;
using testing::Parse;

TEST(GatherSetsTest, OperandsJoinTheResultAtTheirOffsets) {
  const Program p = Parse(R"(
    entry func @main(%x: f32[1,4]) {
      %a = exp(%x) : f32[1,4]                                      # 0
      %b = negate(%x) : f32[1,4]                                   # 1
      %v = reshape(%b) : f32[4] view(%b, 0)                        # 2
      %c = concatenate(%a, %v) : f32[1,8] gathers(%a, 0, %v, 16)   # 3
      %y = logistic(%c) : f32[1,8]                                 # 4
      return %y
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  const std::int32_t set = sets->set_of_value[p.FindValue("c")];
  EXPECT_EQ(sets->set_of_value[p.FindValue("a")], set);
  EXPECT_EQ(sets->set_of_value[p.FindValue("b")], set);
  EXPECT_EQ(sets->sets[set].size, 32);
  EXPECT_EQ(sets->offset_of_value[p.FindValue("a")], 0);
  EXPECT_EQ(sets->offset_of_value[p.FindValue("b")], 16);
  EXPECT_EQ(sets->offset_of_value[p.FindValue("v")], 16);
  EXPECT_EQ(sets->offset_of_value[p.FindValue("c")], 0);
  // One 32-byte buffer live from %a's definition to %c's last use.
  EXPECT_THAT(DescribeBuffers(p, Analyze(p).buffers, false),
              ElementsAre("x 16 [0,1] external values{x}", "a 32 [0,4] transient values{a,b,v,c}",
                          "y 32 [4,4] external values{y}"));
}

// A concat of concats: offsets add up.
TEST(GatherSetsTest, NestedGathersAccumulateOffsets) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %a = exp(%x) : 4
      %b = exp(%x) : 4
      %ab = concatenate(%a, %b) : 8 gathers(%a, 0, %b, 4)
      %d = exp(%x) : 8
      %e = concatenate(%d, %ab) : 16 gathers(%d, 0, %ab, 8)
      return %e
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_EQ(sets->offset_of_value[p.FindValue("a")], 8);
  EXPECT_EQ(sets->offset_of_value[p.FindValue("b")], 12);
  EXPECT_EQ(sets->offset_of_value[p.FindValue("d")], 0);
  EXPECT_EQ(sets->sets[sets->set_of_value[p.FindValue("e")]].size, 16);
}

// Gathering an operand and a view of it asks for two places of one value.
TEST(GatherSetsTest, ConflictingJoinIsAnError) {
  const Program p = Parse(R"(
    entry func @main(%x: 8) {
      %a = exp(%x) : 8
      %v = slice(%a) : 4 view(%a, 4)
      %c = concatenate(%a, %v) : 12 gathers(%a, 0, %v, 8)
      return %c
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_FALSE(sets.ok());
  EXPECT_EQ(sets.status().message(),
            "test.ir:4:7: error: conflicting aliasing: %v would sit at two byte offsets 4 bytes "
            "apart in one buffer");
}

}  // namespace
}  // namespace memplan
