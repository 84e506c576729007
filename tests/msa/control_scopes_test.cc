// ControlScopes (msa/control_scopes.h) on the worked example of its header:
// entry steps 0, 3, 4 around a conditional with branches [1,1] and [2,2]
// (the conditional's own step is 3), then the same steps around a while.
#include "gtest/gtest.h"
#include "msa/control_scopes.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using testing::Load;

constexpr char kConditional[] = R"(
entry func @main(%p: pred[], %x: f32[4]) {
  %a = exp(%x) : f32[4]
  %y = conditional(%p, %a) : f32[4] {branches = [@t, @f]}
  %z = add(%y, %a) : f32[4]
  return %z
}
func @t(%ta: f32[4]) {
  %t1 = negate(%ta) : f32[4]
  return %t1
}
func @f(%fa: f32[4]) {
  %f1 = exp(%fa) : f32[4]
  return %f1
}
)";

TEST(ControlScopesTest, BranchesAreParts) {
  auto f = Load(kConditional);
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->Time("t1"), 1);
  ASSERT_EQ(f->Time("f1"), 2);
  ASSERT_EQ(f->Time("z"), 4);
  const ControlScopes scopes(f->program, f->analysis.schedule);
  // Entering a branch from before the conditional covers it to its end.
  EXPECT_EQ(scopes.SegmentEnd(0, 1), 2);
  EXPECT_EQ(scopes.SegmentEnd(0, 2), 2);
  EXPECT_EQ(scopes.SegmentEnd(0, 4), 4);
  EXPECT_EQ(scopes.SegmentEnd(-1, 1), 2);
  // A segment opened inside a branch stays there.
  EXPECT_EQ(scopes.SegmentEnd(1, 1), 1);
  EXPECT_EQ(scopes.SegmentEnd(1, 2), std::nullopt);
  EXPECT_EQ(scopes.SegmentEnd(2, 4), std::nullopt);
  EXPECT_TRUE(scopes.SameScope(0, 3));
  EXPECT_TRUE(scopes.SameScope(0, 4));
  EXPECT_FALSE(scopes.SameScope(0, 1));
  EXPECT_FALSE(scopes.SameScope(1, 2));
  // The result written first at step 1 and read at 4 leaves the conditional.
  EXPECT_EQ(scopes.BranchesLeft(1, 4), 2);
  EXPECT_EQ(scopes.BranchesLeft(2, 4), 2);
  EXPECT_EQ(scopes.BranchesLeft(1, 1), std::nullopt);
  EXPECT_EQ(scopes.BranchesLeft(0, 4), std::nullopt);
  const std::optional<ControlScopes::Region> entered = scopes.OutermostEntered(0, 2);
  ASSERT_TRUE(entered.has_value());
  EXPECT_FALSE(entered->loop);
  EXPECT_EQ(entered->first, 1);
  EXPECT_EQ(entered->last, 2);
  EXPECT_EQ(scopes.OutermostEntered(1, 2), std::nullopt);
  // Conditionals have no exit segments.
  EXPECT_EQ(scopes.LastLoopBefore(4), std::nullopt);
}

TEST(ControlScopesTest, ALoopIsNoBranch) {
  auto f = Load(R"(
entry func @main(%x: f32[4]) {
  %a = exp(%x) : f32[4]
  %h = while(%a) : f32[4] {cond = @c, body = @b}
  %z = add(%h, %a) : f32[4]
  return %z
}
func @c(%ca: f32[4]) {
  %k = compare(%ca, %ca) : pred[]
  return %k
}
func @b(%ba: f32[4]) {
  %b1 = negate(%ba) : f32[4]
  return %b1
}
)");
  ASSERT_NE(f, nullptr);
  const ControlScopes scopes(f->program, f->analysis.schedule);
  EXPECT_EQ(scopes.SegmentEnd(0, 1), 2);
  EXPECT_EQ(scopes.SegmentEnd(2, 4), std::nullopt);
  // A value born in the body cannot leave it as a branch result can.
  EXPECT_EQ(scopes.BranchesLeft(2, 4), std::nullopt);
  const std::optional<ControlScopes::Region> left = scopes.LastLoopBefore(4);
  ASSERT_TRUE(left.has_value());
  EXPECT_TRUE(left->loop);
  EXPECT_EQ(left->body_first, 2);
  EXPECT_TRUE(scopes.DirectlyInBody(*left, 2));
  EXPECT_FALSE(scopes.DirectlyInBody(*left, 1));
}

}  // namespace
}  // namespace memplan
