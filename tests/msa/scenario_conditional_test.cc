// Memory space assignment through `conditional` (msa/control_scopes.h):
// uses inside a branch keep their own steps, an operand in fast memory
// before a conditional stays there through it, a branch prefetches for its
// own uses, and a result is produced in fast memory at one offset by every
// branch. Each result also passes the harness checker and rewrites.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/rewrite.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Assign;
using testing::CheckResult;
using testing::Copies;
using testing::HarnessOptions;
using testing::Load;
using testing::MsaFixture;
using testing::Segments;

// Plans `f` with the harness options and checks the result and its rewrite.
MsaResult PlanAndCheck(const MsaFixture& f) {
  const MsaResult r = Assign(f, HarnessOptions());
  EXPECT_EQ(CheckResult(f, HarnessOptions(), r), "");
  absl::StatusOr<Program> out = RewriteSchedule(f.program, f.analysis, r);
  EXPECT_TRUE(out.ok()) << out.status();
  return r;
}

// %a is produced in fast memory before the conditional, read in both
// branches and after it: one chunk throughout (the reference would give up
// its fast-memory copy at the conditional).
TEST(ConditionalTest, OperandInFastMemoryStaysThroughTheConditional) {
  auto f = Load(R"(
entry func @main(%flag: pred[], %x: f32[4]) {
  %a = exp(%x) : f32[4]
  %y = conditional(%flag, %a) : f32[4] {branches = [@t, @f]}
  %z = mul(%y, %a) : f32[4]
  return %z
}
func @t(%ta: f32[4]) {
  %t1 = negate(%ta) : f32[4]
  return %t1
}
func @f(%fa: f32[4]) {
  %f1 = exp(%fa) : f32[4]
  %f2 = add(%f1, %fa) : f32[4]
  return %f2
}
)");
  const MsaResult r = PlanAndCheck(*f);
  // Steps: a 0, t1 1, f1 2, f2 3, conditional 4, z 5.
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-5@0"));
  EXPECT_FALSE(r.needs_default[f->Buffer("a")]);
  // The result y = t1 = f2 is produced in fast memory by each branch.
  EXPECT_THAT(Segments(r, f->Buffer("y")), ElementsAre("1-5@16"));
  EXPECT_EQ(f->Buffer("y"), f->Buffer("f2"));
  EXPECT_THAT(Segments(r, f->Buffer("f1")), ElementsAre("2-3@32"));
  EXPECT_THAT(r.copies, IsEmpty());
}

// A weight passed into a conditional that starts the program, read only by
// branch @f: the branch prefetches it for its own use (start and done
// inside @f).
TEST(ConditionalTest, BranchPrefetchesAnOuterWeight) {
  auto f = Load(R"(
entry func @main(%flag: pred[], %x: f32[4], %w: f32[4]) {
  %y = conditional(%flag, %x, %w) : f32[4] {branches = [@t, @f]}
  %z = negate(%y) : f32[4]
  return %z
}
func @t(%tx: f32[4], %tw: f32[4]) {
  %t1 = negate(%tx) : f32[4]
  return %t1
}
func @f(%fx: f32[4], %fw: f32[4]) {
  %f1 = exp(%fx) : f32[4]
  %f2 = negate(%f1) : f32[4]
  %f3 = negate(%f2) : f32[4]
  %f4 = negate(%f3) : f32[4]
  %f5 = mul(%f4, %fw) : f32[4]
  return %f5
}
)");
  const MsaResult r = PlanAndCheck(*f);
  // Steps: t1 0, f1..f5 1-5, conditional 6, z 7. The prefetch starts after
  // f1 and is done before f5, both in @f [1, 5]; its chunk ends with @f.
  EXPECT_THAT(Segments(r, f->Buffer("w")), ElementsAre("1-5@48"));
  EXPECT_THAT(Copies(r, f->Buffer("w")), ElementsAre("prefetch 1->5"));
  EXPECT_TRUE(r.needs_default[f->Buffer("w")]);
  // y = t1 = f5 holds nothing in @f before f5 (a dead gap), but keeps its
  // one chunk from t1 through z.
  EXPECT_THAT(Segments(r, f->Buffer("y")), ElementsAre("0-7@0"));
  EXPECT_EQ(r.copies.size(), 1u);
}

// A weight read in both branches and after the conditional, with room
// before it: prefetched once before the conditional, its chunk covers the
// whole conditional.
TEST(ConditionalTest, WeightPrefetchedBeforeTheConditionalCoversIt) {
  auto f = Load(R"(
entry func @main(%flag: pred[], %x: f32[4], %w: f32[4]) {
  %a = negate(%x) : f32[4]
  %b = negate(%a) : f32[4]
  %c = negate(%b) : f32[4]
  %d = negate(%c) : f32[4]
  %y = conditional(%flag, %d, %w) : f32[4] {branches = [@t, @f]}
  %z = mul(%y, %w) : f32[4]
  return %z
}
func @t(%td: f32[4], %tw: f32[4]) {
  %t1 = mul(%td, %tw) : f32[4]
  return %t1
}
func @f(%fd: f32[4], %fw: f32[4]) {
  %f1 = add(%fd, %fw) : f32[4]
  return %f1
}
)");
  const MsaResult r = PlanAndCheck(*f);
  // Steps: a..d 0-3, t1 4, f1 5, conditional 6, z 7. w, an entry
  // parameter, is prefetched before the first op, done before d, and stays
  // through both branches to z.
  EXPECT_THAT(Segments(r, f->Buffer("w")), ElementsAre("0-7@0"));
  EXPECT_THAT(Copies(r, f->Buffer("w")), ElementsAre("prefetch -1->3"));
  // d, produced before the conditional and read by both branches, stays
  // until the conditional's own step.
  EXPECT_THAT(Segments(r, f->Buffer("d")), ElementsAre("3-6@16"));
  EXPECT_THAT(Segments(r, f->Buffer("y")), ElementsAre("4-7@32"));
  EXPECT_EQ(r.copies.size(), 1u);
}

// Nested conditionals: the inner conditional's result is the outer branch's
// result, produced in fast memory by all three leaf branches at one offset.
TEST(ConditionalTest, NestedConditionalsShareOneResultChunk) {
  auto f = Load(R"(
entry func @main(%p: pred[], %q: pred[], %x: f32[4]) {
  %a = exp(%x) : f32[4]
  %y = conditional(%p, %q, %a) : f32[4] {branches = [@outer_t, @outer_f]}
  %z = add(%y, %a) : f32[4]
  return %z
}
func @outer_t(%oq: pred[], %oa: f32[4]) {
  %o1 = negate(%oa) : f32[4]
  %iy = conditional(%oq, %o1) : f32[4] {branches = [@inner_t, @inner_f]}
  return %iy
}
func @outer_f(%fq: pred[], %fa: f32[4]) {
  %f1 = tanh(%fa) : f32[4]
  return %f1
}
func @inner_t(%ia: f32[4]) {
  %i1 = negate(%ia) : f32[4]
  return %i1
}
func @inner_f(%ja: f32[4]) {
  %j1 = exp(%ja) : f32[4]
  %j2 = negate(%j1) : f32[4]
  return %j2
}
)");
  const MsaResult r = PlanAndCheck(*f);
  // Steps: a 0, o1 1, i1 2, j1 3, j2 4, inner conditional 5, f1 6, outer
  // conditional 7, z 8. y = iy = i1 = j2 = f1 is one chunk from i1 (inside
  // both conditionals) through z.
  EXPECT_EQ(f->Buffer("y"), f->Buffer("j2"));
  EXPECT_THAT(Segments(r, f->Buffer("y")), ElementsAre("2-8@32"));
  EXPECT_FALSE(r.needs_default[f->Buffer("y")]);
  // o1, passed into the inner conditional, stays inside @outer_t.
  EXPECT_THAT(Segments(r, f->Buffer("o1")), ElementsAre("1-5@16"));
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-8@0"));
  EXPECT_THAT(Segments(r, f->Buffer("j1")), ElementsAre("3-4@48"));
  EXPECT_THAT(r.copies, IsEmpty());
}

// A conditional inside a while body: the loop-carried state goes through the
// branches in fast memory, at one offset for the whole loop.
TEST(ConditionalTest, ConditionalInsideAWhileBody) {
  auto f = Load(R"(
entry func @main(%p: pred[], %x: f32[4]) {
  %h0 = negate(%x) : f32[4]
  %h, %po = while(%h0, %p) : f32[4], pred[] {cond = @cond, body = @body, trip_count = 3}
  %y = negate(%h) : f32[4]
  return %y
}
func @cond(%c: f32[4], %cp: pred[]) {
  return %cp
}
func @body(%b: f32[4], %bp: pred[]) {
  %b1 = exp(%b) : f32[4]
  %r = conditional(%bp, %b1) : f32[4] {branches = [@t, @f]}
  %b2 = add(%r, %b1) : f32[4]
  return %b2, %bp
}
func @t(%ta: f32[4]) {
  %t1 = negate(%ta) : f32[4]
  return %t1
}
func @f(%fa: f32[4]) {
  %f1 = tanh(%fa) : f32[4]
  return %f1
}
)");
  const MsaResult r = PlanAndCheck(*f);
  // Steps: h0 0, body b1 1, t1 2, f1 3, conditional 4, b2 5, while 6, y 7
  // (the condition has no ops). The carried state keeps one offset.
  EXPECT_THAT(Segments(r, f->Buffer("h0")), ElementsAre("0-7@32"));
  // b1 is read in both branches and by b2; r = t1 = f1 is produced in fast
  // memory by both branches inside the body.
  EXPECT_THAT(Segments(r, f->Buffer("b1")), ElementsAre("1-5@0"));
  EXPECT_THAT(Segments(r, f->Buffer("r")), ElementsAre("2-5@16"));
  EXPECT_FALSE(r.needs_default[f->Buffer("r")]);
  EXPECT_THAT(r.copies, IsEmpty());
}

}  // namespace
}  // namespace memplan
