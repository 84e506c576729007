// Loop detection (msa/loop_detect.h) on key sequences with exact outcomes,
// and the fingerprints of a program's steps.
#include <optional>
#include <vector>

#include "gtest/gtest.h"
#include "msa/loop_detect.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

std::optional<DetectedLoop> Find(const std::vector<std::int64_t>& keys, std::int64_t min = 3) {
  return FindRepeatingRun(keys, min);
}

TEST(LoopDetectTest, NoLoop) {
  EXPECT_EQ(Find({}), std::nullopt);
  EXPECT_EQ(Find({0, 1, 2, 3, 4, 5}), std::nullopt);
  // Two iterations are too few for the default minimum of 3.
  EXPECT_EQ(Find({0, 1, 2, 0, 1, 2}), std::nullopt);
  EXPECT_EQ(Find({0, 1, 2, 0, 1, 2}, 2), (DetectedLoop{0, 3, 2}));
}

TEST(LoopDetectTest, HeaderLoopFooter) {
  // A, then (B C) three times, then D: the example of the header comment.
  EXPECT_EQ(Find({0, 1, 2, 1, 2, 1, 2, 3}), (DetectedLoop{1, 2, 3}));
  EXPECT_EQ(Find({0, 1, 2, 1, 2, 1, 2, 3}).value().end(), 7);
}

TEST(LoopDetectTest, PeriodOne) {
  // Five equal steps: period 1, five iterations (not period 2: fewer steps).
  EXPECT_EQ(Find({7, 3, 3, 3, 3, 3, 8}), (DetectedLoop{1, 1, 5}));
}

TEST(LoopDetectTest, NestedRepeatsPickTheOuterLoop) {
  // Each iteration is X Y Y Z: the Y Y run (period 1) has only two
  // iterations; the whole pattern repeats four times with period 4.
  const std::vector<std::int64_t> keys = {9, 1, 2, 2, 3, 1, 2, 2, 3, 1, 2, 2, 3, 1, 2, 2, 3, 8};
  EXPECT_EQ(Find(keys), (DetectedLoop{1, 4, 4}));
  // With period-1 runs of three, the outer loop still covers more steps.
  const std::vector<std::int64_t> triple = {1, 2, 2, 2, 1, 2, 2, 2, 1, 2, 2, 2};
  EXPECT_EQ(Find(triple), (DetectedLoop{0, 4, 3}));
}

TEST(LoopDetectTest, BreakInThePattern) {
  // Iteration 3 differs in its second op: the loop is the first three.
  const std::vector<std::int64_t> keys = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 5, 3, 1, 2, 3};
  EXPECT_EQ(Find(keys), (DetectedLoop{0, 3, 3}));
  // A step that takes no part (-1) never matches, even itself.
  EXPECT_EQ(Find({1, -1, 1, -1, 1, -1, 1, -1}), std::nullopt);
}

TEST(LoopDetectTest, ProgramFingerprintsIgnoreWhichBuffers) {
  // Same ops on different values match; a different size does not.
  auto f = testing::Load(R"(
entry func @main(%x: f32[4], %w0: f32[4], %w1: f32[4], %w2: f32[8]) {
  %a = add(%x, %w0) : f32[4]
  %b = negate(%a) : f32[4]
  %c = add(%b, %w1) : f32[4]
  %d = negate(%c) : f32[4]
  %e = add(%d, %w2) : f32[8]
  %g = negate(%e) : f32[8]
  return %g
}
)");
  const std::vector<std::int64_t> keys = StepFingerprints(f->program, f->analysis);
  ASSERT_EQ(keys.size(), 6u);
  EXPECT_EQ(keys[0], keys[2]);
  EXPECT_EQ(keys[1], keys[3]);
  EXPECT_NE(keys[0], keys[1]);
  EXPECT_NE(keys[2], keys[4]);
  EXPECT_NE(keys[3], keys[5]);
  EXPECT_EQ(DetectLoop(f->program, f->analysis, 3), std::nullopt);
  EXPECT_EQ(DetectLoop(f->program, f->analysis, 2), (DetectedLoop{0, 2, 2}));
}

}  // namespace
}  // namespace memplan
