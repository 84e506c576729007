#include "analysis/alias_sets.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/lifetimes.h"
#include "tests/analysis/test_program.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::Parse;
using testing::TestProgram;

// Member names of every set, e.g. {"x", "a,b"}.
std::vector<std::string> SetNames(const Program& program, const AliasSets& sets) {
  std::vector<std::string> out;
  for (const AliasSet& set : sets.sets) {
    std::string names;
    for (ValueId v : set.members) names += (names.empty() ? "" : ",") + program.values[v].name;
    out.push_back(names);
  }
  return out;
}

// The example of alias_sets.h: offsets accumulate along a chain of views.
TEST(AliasSetsTest, TiesAndViewChainsShareOneSetWithOffsets) {
  const Program p = Parse(R"(
    entry func @main(%a: f32[4]) {
      %x = exp(%a) : f32[4]
      %v = view(%x) : f32[2] view(%x, 8)
      %w = view(%v) : f32[1] view(%v, 4)
      %y = relu(%x) : f32[4] tied(%x)
      return %y
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(SetNames(p, *sets), ElementsAre("a", "x,v,w,y"));
  EXPECT_THAT(sets->set_of_value, ElementsAre(0, 1, 1, 1, 1));
  EXPECT_THAT(sets->offset_of_value, ElementsAre(0, 0, 8, 12, 0));
  EXPECT_EQ(sets->sets[0].size, 16);
  EXPECT_EQ(sets->sets[1].size, 16);
}

TEST(AliasSetsTest, ViewOfATiedResultAddsToTheTiedOffset) {
  const Program p = Parse(R"(
    entry func @main(%x: 32) {
      %v = view(%x) : 16 view(%x, 16)
      %r = relu(%v) : 16 tied(%v)
      %s = slice(%r) : 4 view(%r, 12)
      return %s
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(SetNames(p, *sets), ElementsAre("x,v,r,s"));
  EXPECT_THAT(sets->offset_of_value, ElementsAre(0, 16, 16, 28));
  EXPECT_EQ(sets->sets[0].size, 32);
}

// The loop body returns a window of a larger body value %y: %y's storage
// starts 8 bytes before the loop-carried values, so all offsets shift by 8.
TEST(AliasSetsTest, WhileJoinsLoopCarriedValuesAndNormalisesOffsets) {
  const Program p = Parse(R"(
    entry func @main(%x: 8) {
      %init = exp(%x) : 8
      %w = while(%init) : 8 {cond = @c, body = @b}
      return %w
    }
    func @c(%p: 8) {
      %k = compare(%p) : 1
      return %k
    }
    func @b(%q: 8) {
      %y = exp(%q) : 24
      %r = view(%y) : 8 view(%y, 8)
      return %r
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  // Values: x init w p k q y r.
  EXPECT_THAT(SetNames(p, *sets), ElementsAre("x", "init,w,p,q,y,r", "k"));
  EXPECT_THAT(sets->offset_of_value, ElementsAre(0, 8, 8, 8, 0, 8, 0, 8));
  EXPECT_EQ(sets->sets[1].size, 24);
  EXPECT_EQ(sets->sets[2].size, 1);
}

TEST(AliasSetsTest, ConditionalJoinsArgsWithParamsAndBranchResultsWithResults) {
  const Program p = Parse(R"(
    entry func @main(%pred: 1, %x: 4) {
      %c = conditional(%pred, %x) : 4 {branches = [@yes, @no]}
      return %c
    }
    func @yes(%p1: 4) {
      %r1 = exp(%p1) : 4
      return %r1
    }
    func @no(%p2: 4) {
      %r2 = negate(%p2) : 4
      return %r2
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(SetNames(p, *sets), ElementsAre("pred", "x,p1,p2", "c,r1,r2"));
}

TEST(AliasSetsTest, CallAndExecuteJoinArgsParamsAndResults) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %y = call(%x) : 4 {callee = @f}
      %e = execute(%y) : 4 {callee = @g}
      return %e
    }
    func @f(%p: 4) {
      %z = exp(%p) : 4
      return %z
    }
    region @g(%q: 4) affinity("gpu") {
      %u = dispatch(%q) : 4
      return %u
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(SetNames(p, *sets), ElementsAre("x,p", "y,z,q", "e,u"));
}

TEST(AliasSetsTest, AsyncDoneSharesTheStartsResultAndTimepointsHaveNoSet) {
  const Program p = Parse(R"(
    entry func @main(%x: 8) {
      %s = copy-start(%x) : 8
      %tp = barrier() : timepoint
      %d = copy-done(%s) : 8
      return %d
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(SetNames(p, *sets), ElementsAre("x", "s,d"));
  EXPECT_THAT(sets->set_of_value, ElementsAre(0, 1, kNoId, 1));
  EXPECT_THAT(sets->offset_of_value, ElementsAre(0, 0, 0, 0));
}

TEST(AliasSetsTest, LifetimesTakeTheLongestLivedMember) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %c = constant() : 4
      %s = exp(%x) : 4 staging
      %tr = add(%s, %c) : 4
      %vr = exp(%tr) : 4 variable
      %vt = relu(%vr) : 4 tied(%vr)
      %er = exp(%tr) : 4 variable
      %eo = relu(%er) : 4 tied(%er)
      return %eo
    })");
  ASSERT_NE(p.entry, kNoId);
  EXPECT_THAT(ValueLifetimes(p),
              ElementsAre(Lifetime::kExternal, Lifetime::kConstant, Lifetime::kStaging,
                          Lifetime::kTransient, Lifetime::kVariable, Lifetime::kTransient,
                          Lifetime::kVariable, Lifetime::kExternal));
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(SetNames(p, *sets), ElementsAre("x", "c", "s", "tr", "vr,vt", "er,eo"));
  std::vector<Lifetime> by_set;
  for (const AliasSet& set : sets->sets) by_set.push_back(set.lifetime);
  EXPECT_THAT(by_set, ElementsAre(Lifetime::kExternal, Lifetime::kConstant, Lifetime::kStaging,
                                  Lifetime::kTransient, Lifetime::kVariable, Lifetime::kExternal));
}

TEST(AliasSetsTest, ExplicitLifetimeOverridesTheEntryDefault) {
  const Program p = Parse("entry func @main(%x: 4 variable) { return %x }");
  ASSERT_NE(p.entry, kNoId);
  EXPECT_THAT(ValueLifetimes(p), ElementsAre(Lifetime::kVariable));
}

TEST(AliasSetsTest, DominantLifetimeRanksExternalVariableConstantStagingTransient) {
  const std::vector<Lifetime> ranked = {Lifetime::kTransient, Lifetime::kStaging, Lifetime::kConstant,
                                        Lifetime::kVariable, Lifetime::kExternal};
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    for (std::size_t j = 0; j < ranked.size(); ++j) {
      EXPECT_EQ(DominantLifetime(ranked[i], ranked[j]), ranked[std::max(i, j)]) << i << " " << j;
    }
  }
}

TEST(AliasSetsTest, PinPropagatesToTheWholeSet) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %a = exp(%x) : 4
      %b = reshape(%a) : 4 view(%a, 0) space(1)
      return %b
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  ASSERT_EQ(sets->sets.size(), 2u);
  EXPECT_EQ(sets->sets[0].space, std::nullopt);
  EXPECT_EQ(sets->sets[1].space, kAlternateSpace);
}

// %b is the lowest-id member disagreeing with the first pinned member %a.
TEST(AliasSetsTest, ConflictingPinsAreReportedAtTheFirstDisagreeingMember) {
  const Program p = Parse(R"(entry func @main(%x: 4) {
  %a = exp(%x) : 4 space(0)
  %b = relu(%a) : 4 tied(%a) space(1)
  %c = view(%b) : 4 view(%b, 0) space(1)
  return %c
})");
  ASSERT_NE(p.entry, kNoId);
  EXPECT_EQ(ComputeAliasSets(p).status(),
            absl::InvalidArgumentError("test.ir:3:3: error: %b is pinned to memory space 1 but "
                                       "shares storage with %a pinned to memory space 0"));
}

TEST(AliasSetsTest, InPlaceWriteIntoAConstantIsAnError) {
  const Program p = Parse(R"(entry func @main(%x: 4) {
  %c = constant() : 4
  %y = add(%c, %x) : 4 tied(%c)
  return %y
})");
  ASSERT_NE(p.entry, kNoId);
  EXPECT_EQ(ComputeAliasSets(p).status(),
            absl::InvalidArgumentError("test.ir:3:3: error: %y writes in place into constant %c "
                                       "(constants are read-only; storage shared along %c -> %y)"));
}

TEST(AliasSetsTest, InPlaceWriteIntoAnExplicitConstantParamIsAnError) {
  const Program p = Parse(R"(entry func @main(%w: 4 constant) {
  %y = relu(%w) : 4 tied(%w)
  return %y
})");
  ASSERT_NE(p.entry, kNoId);
  EXPECT_EQ(ComputeAliasSets(p).status(),
            absl::InvalidArgumentError("test.ir:2:3: error: %y writes in place into constant %w "
                                       "(constants are read-only; storage shared along %w -> %y)"));
}

// The loop body recomputes the counter, whose initial value is a constant:
// the loop would overwrite the constant's storage.
TEST(AliasSetsTest, LoopRewritingAConstantInitIsAnError) {
  const Program p = Parse(R"(entry func @main(%h0: 4) {
  %zero = constant() : 4
  %h, %i = while(%h0, %zero) : 4, 4 {cond = @c, body = @b}
  return %h
}
func @c(%ch: 4, %ci: 4) {
  %k = compare(%ci) : 1
  return %k
}
func @b(%bh: 4, %bi: 4) {
  %one = constant() : 4
  %next = add(%bi, %one) : 4
  return %bh, %next
})");
  ASSERT_NE(p.entry, kNoId);
  EXPECT_EQ(ComputeAliasSets(p).status(),
            absl::InvalidArgumentError(
                "test.ir:12:3: error: %next is written by add but shares storage with constant "
                "%zero (constants are read-only; storage shared along %zero -> %next); copy the constant first, e.g. %zero_copy = "
                "copy(%zero), and use the copy"));
}

// One branch returns the constant it is passed, so the conditional's result
// shares the constant's storage; the other branch computes that result. The
// error names the computing value and how its storage reaches the constant.
TEST(AliasSetsTest, BranchWritingWhereAnotherReturnsAConstantNamesThePath) {
  const Program p = Parse(R"(entry func @main(%flag: pred[], %x: f32[16]) {
  %k = constant() : f32[16]
  %y = conditional(%flag, %k, %x) : f32[16] {branches = [@a, @b]}
  return %y
}
func @a(%ak: f32[16], %ax: f32[16]) {
  %ay = exp(%ax) : f32[16]
  return %ay
}
func @b(%bk: f32[16], %bx: f32[16]) {
  return %bk
})");
  ASSERT_NE(p.entry, kNoId);
  EXPECT_EQ(ComputeAliasSets(p).status(),
            absl::InvalidArgumentError(
                "test.ir:7:3: error: %ay is written by exp but shares storage with constant %k "
                "(constants are read-only; storage shared along %k -> %bk -> %y -> %ay); copy "
                "the constant first, e.g. %k_copy = copy(%k), and use the copy"));
}

// The fix: copy the constant and carry the copy; a constant carried through
// unchanged (the body returns its parameter) stays allowed.
TEST(AliasSetsTest, LoopCarryingACopyOrAnUnchangedConstantIsAllowed) {
  const Program p = Parse(R"(entry func @main(%h0: 4, %w: 4 constant) {
  %zero = constant() : 4
  %i0 = copy(%zero) : 4
  %h, %i, %w_out = while(%h0, %i0, %w) : 4, 4, 4 {cond = @c, body = @b}
  return %h
}
func @c(%ch: 4, %ci: 4, %cw: 4) {
  %k = compare(%ci) : 1
  return %k
}
func @b(%bh: 4, %bi: 4, %bw: 4) {
  %m = mul(%bh, %bw) : 4
  %one = constant() : 4
  %next = add(%bi, %one) : 4
  return %m, %next, %bw
})");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(SetNames(p, *sets),
              ElementsAre("h0,h,ch,bh,m", "w,w_out,cw,bw", "zero", "i0,i,ci,bi,next", "k", "one"));
}

TEST(AliasSetsTest, ViewOfAConstantIsAllowed) {
  const Program p = Parse(R"(
    entry func @main() {
      %c = constant() : 8
      %v = slice(%c) : 4 view(%c, 4)
      %y = exp(%v) : 4
      return %y
    })");
  ASSERT_NE(p.entry, kNoId);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(p);
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(SetNames(p, *sets), ElementsAre("c,v", "y"));
  EXPECT_EQ(sets->sets[0].lifetime, Lifetime::kConstant);
  EXPECT_THAT(sets->offset_of_value, ElementsAre(0, 4, 0));
}

// %b is a view of %a at offset 0, but the loop returns a window of its first
// carried value at offset 4 in the slot of %b: %s would sit at offsets 4 and 0.
TEST(AliasSetsTest, JoinsPlacingAValueAtTwoOffsetsConflict) {
  const Program p = Parse(R"(entry func @main(%a: 8) {
  %b = slice(%a) : 4 view(%a, 0)
  %w0, %w1 = while(%a, %b) : 8, 4 {cond = @c, body = @body}
  return %w0
}
func @c(%c0: 8, %c1: 4) {
  %k = compare(%c0) : 1
  return %k
}
func @body(%q0: 8, %q1: 4) {
  %s = slice(%q0) : 4 view(%q0, 4)
  return %q0, %s
})");
  ASSERT_NE(p.entry, kNoId);
  EXPECT_EQ(ComputeAliasSets(p).status(),
            absl::InvalidArgumentError("test.ir:11:3: error: conflicting aliasing: %s would sit at "
                                       "two byte offsets 4 bytes apart in one buffer"));
}

// Built in code: the text format has no way to name an out-of-range callee.
TEST(AliasSetsTest, MissingCalleesAreSkipped) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  t.Structured(main, "call", {x}, {kNoId}, {{"y", 4}});
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(sets->set_of_value, ElementsAre(0, 1));
}

}  // namespace
}  // namespace memplan
