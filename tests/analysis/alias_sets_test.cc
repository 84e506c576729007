#include "analysis/alias_sets.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/lifetimes.h"
#include "tests/analysis/test_program.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::TestProgram;

// The example of alias_sets.h: offsets accumulate along a chain of views.
TEST(AliasSetsTest, TiesAndViewChainsShareOneSetWithOffsets) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId a = t.Param(main, "a", 16);
  ValueId x = t.Def(main, "exp", {a}, "x", 16);
  ValueId v = t.Def(main, "view", {x}, "v", 8);
  t.View(v, x, 8);
  ValueId w = t.Def(main, "view", {v}, "w", 4);
  t.View(w, v, 4);
  ValueId y = t.Def(main, "relu", {x}, "y", 16);
  t.Tie(y, x);
  t.Return(main, {y});
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  ASSERT_TRUE(sets.ok()) << sets.status();
  ASSERT_EQ(sets->sets.size(), 2u);
  EXPECT_THAT(sets->set_of_value, ElementsAre(0, 1, 1, 1, 1));
  EXPECT_THAT(sets->offset_of_value, ElementsAre(0, 0, 8, 12, 0));
  EXPECT_THAT(sets->sets[1].members, ElementsAre(x, v, w, y));
  EXPECT_EQ(sets->sets[0].size, 16);
  EXPECT_EQ(sets->sets[1].size, 16);
}

TEST(AliasSetsTest, ViewOfATiedResultAddsToTheTiedOffset) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 32);
  ValueId v = t.Def(main, "view", {x}, "v", 16);
  t.View(v, x, 16);
  ValueId r = t.Def(main, "relu", {v}, "r", 16);
  t.Tie(r, v);
  ValueId s = t.Def(main, "slice", {r}, "s", 4);
  t.View(s, r, 12);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  ASSERT_TRUE(sets.ok()) << sets.status();
  ASSERT_EQ(sets->sets.size(), 1u);
  EXPECT_THAT(sets->offset_of_value, ElementsAre(0, 16, 16, 28));
  EXPECT_EQ(sets->sets[0].size, 32);
}

// A loop body returning a window of a larger body value: that value's storage
// starts 8 bytes before the loop-carried values, so offsets are shifted.
TEST(AliasSetsTest, WhileJoinsLoopCarriedValuesAndNormalisesOffsets) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId cond = t.Func("c");
  ComputationId body = t.Func("b");
  ValueId x = t.Param(main, "x", 8);                      // 0
  ValueId init = t.Def(main, "exp", {x}, "init", 8);      // 1
  ValueId p = t.Param(cond, "p", 8);                      // 2
  ValueId k = t.Def(cond, "compare", {p}, "k", 1);        // 3
  t.Return(cond, {k});
  ValueId q = t.Param(body, "q", 8);                      // 4
  ValueId y = t.Def(body, "exp", {q}, "y", 24);           // 5
  ValueId r = t.Def(body, "view", {y}, "r", 8);           // 6
  t.View(r, y, 8);
  t.Return(body, {r});
  OpId loop = t.Structured(main, "while", {init}, {cond, body}, {{"w", 8}});  // w = 7
  t.Return(main, {t.op(loop).results[0]});
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  ASSERT_TRUE(sets.ok()) << sets.status();
  ASSERT_EQ(sets->sets.size(), 3u);
  EXPECT_THAT(sets->set_of_value, ElementsAre(0, 1, 1, 2, 1, 1, 1, 1));
  EXPECT_THAT(sets->sets[1].members, ElementsAre(init, p, q, y, r, 7));
  EXPECT_THAT(sets->offset_of_value, ElementsAre(0, 8, 8, 0, 8, 0, 8, 8));
  EXPECT_EQ(sets->sets[1].size, 24);
  EXPECT_EQ(sets->sets[2].size, 1);
}

TEST(AliasSetsTest, ConditionalJoinsArgsWithParamsAndBranchResultsWithResults) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId yes = t.Func("yes");
  ComputationId no = t.Func("no");
  ValueId pred = t.Param(main, "pred", 1);             // 0
  ValueId x = t.Param(main, "x", 4);                   // 1
  ValueId p1 = t.Param(yes, "p1", 4);                  // 2
  t.Return(yes, {t.Def(yes, "exp", {p1}, "r1", 4)});   // 3
  ValueId p2 = t.Param(no, "p2", 4);                   // 4
  t.Return(no, {t.Def(no, "neg", {p2}, "r2", 4)});     // 5
  t.Structured(main, "conditional", {pred, x}, {yes, no}, {{"c", 4}});  // 6
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(sets->set_of_value, ElementsAre(0, 1, 1, 2, 1, 2, 2));
  EXPECT_THAT(sets->sets[1].members, ElementsAre(x, p1, p2));
}

TEST(AliasSetsTest, CallAndExecuteJoinArgsParamsAndResults) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId f = t.Func("f");
  ComputationId g = t.Func("g");
  ValueId x = t.Param(main, "x", 4);                          // 0
  ValueId p = t.Param(f, "p", 4);                             // 1
  t.Return(f, {t.Def(f, "exp", {p}, "z", 4)});                // 2
  OpId call = t.Structured(main, "call", {x}, {f}, {{"y", 4}});  // 3
  ValueId q = t.Param(g, "q", 4);                             // 4
  t.Return(g, {t.Def(g, "dispatch", {q}, "u", 4)});           // 5
  t.Structured(main, "execute", {t.op(call).results[0]}, {g}, {{"e", 4}});  // 6
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(sets->set_of_value, ElementsAre(0, 0, 1, 1, 1, 2, 2));
}

TEST(AliasSetsTest, AsyncDoneSharesTheStartsResultAndTimepointsHaveNoSet) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 8);                        // 0
  ValueId s = t.Def(main, "copy-start", {x}, "s", 8);       // 1
  ValueId tp = t.Def(main, "barrier", {}, "tp", 0);         // 2
  t.value(tp).is_timepoint = true;
  ValueId d = t.Def(main, "copy-done", {s, tp}, "d", 8);    // 3
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  ASSERT_TRUE(sets.ok()) << sets.status();
  EXPECT_THAT(sets->set_of_value, ElementsAre(0, 1, kNoId, 1));
  ASSERT_EQ(sets->sets.size(), 2u);
  EXPECT_THAT(sets->sets[1].members, ElementsAre(s, d));
}

TEST(AliasSetsTest, LifetimesTakeTheLongestLivedMember) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);                  // external (entry param)
  ValueId c = t.Def(main, "constant", {}, "c", 4);    // constant
  ValueId s = t.Def(main, "exp", {x}, "s", 4);        // explicit staging
  t.value(s).lifetime = Lifetime::kStaging;
  ValueId tr = t.Def(main, "add", {s, c}, "tr", 4);   // transient
  ValueId vr = t.Def(main, "exp", {tr}, "vr", 4);     // explicit variable ...
  t.value(vr).lifetime = Lifetime::kVariable;
  ValueId vt = t.Def(main, "relu", {vr}, "vt", 4);    // ... tied transient: variable set
  t.Tie(vt, vr);
  ValueId er = t.Def(main, "exp", {tr}, "er", 4);     // explicit variable ...
  t.value(er).lifetime = Lifetime::kVariable;
  ValueId eo = t.Def(main, "relu", {er}, "eo", 4);    // ... tied entry result: external set
  t.Tie(eo, er);
  t.Return(main, {eo});
  Program program = t.Build();
  EXPECT_THAT(ValueLifetimes(program),
              ElementsAre(Lifetime::kExternal, Lifetime::kConstant, Lifetime::kStaging,
                          Lifetime::kTransient, Lifetime::kVariable, Lifetime::kTransient,
                          Lifetime::kVariable, Lifetime::kExternal));
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(program);
  ASSERT_TRUE(sets.ok()) << sets.status();
  std::vector<Lifetime> by_set;
  for (const AliasSet& set : sets->sets) by_set.push_back(set.lifetime);
  EXPECT_THAT(by_set, ElementsAre(Lifetime::kExternal, Lifetime::kConstant, Lifetime::kStaging,
                                  Lifetime::kTransient, Lifetime::kVariable, Lifetime::kExternal));
  EXPECT_EQ(sets->set_of_value[vt], sets->set_of_value[vr]);
}

TEST(AliasSetsTest, ExplicitLifetimeOverridesTheEntryDefault) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  t.value(x).lifetime = Lifetime::kVariable;
  EXPECT_THAT(ValueLifetimes(t.Build()), ElementsAre(Lifetime::kVariable));
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
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  ValueId a = t.Def(main, "exp", {x}, "a", 4);
  ValueId b = t.Def(main, "reshape", {a}, "b", 4);
  t.View(b, a, 0);
  t.value(b).space = kAlternateSpace;
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  ASSERT_TRUE(sets.ok()) << sets.status();
  ASSERT_EQ(sets->sets.size(), 2u);
  EXPECT_EQ(sets->sets[0].space, std::nullopt);
  EXPECT_EQ(sets->sets[1].space, kAlternateSpace);
}

TEST(AliasSetsTest, ConflictingPinsAreReportedAtTheFirstDisagreeingMember) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  ValueId a = t.Def(main, "exp", {x}, "a", 4);
  t.value(a).space = kDefaultSpace;
  t.At(a, 2, 3);
  ValueId b = t.Def(main, "relu", {a}, "b", 4);
  t.Tie(b, a);
  t.value(b).space = kAlternateSpace;
  t.At(b, 3, 5);
  ValueId c = t.Def(main, "view", {a}, "c", 4);
  t.View(c, a, 0);
  t.value(c).space = kAlternateSpace;
  t.At(c, 4, 5);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  EXPECT_EQ(sets.status(),
            absl::InvalidArgumentError("test.ir:3:5: error: %b is pinned to memory space 1 but "
                                       "shares storage with %a pinned to memory space 0"));
}

TEST(AliasSetsTest, InPlaceWriteIntoAConstantIsAnError) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  ValueId c = t.Def(main, "constant", {}, "c", 4);
  t.At(c, 2, 3);
  ValueId y = t.Def(main, "add", {c, x}, "y", 4);
  t.Tie(y, c);
  t.At(y, 3, 3);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  EXPECT_EQ(sets.status(), absl::InvalidArgumentError(
                               "test.ir:3:3: error: %y writes in place into constant %c "
                               "(constants are read-only)"));
}

TEST(AliasSetsTest, ViewOfAConstantIsAllowed) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId c = t.Def(main, "constant", {}, "c", 8);
  ValueId v = t.Def(main, "slice", {c}, "v", 4);
  t.View(v, c, 4);
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  ASSERT_TRUE(sets.ok()) << sets.status();
  ASSERT_EQ(sets->sets.size(), 1u);
  EXPECT_EQ(sets->sets[0].lifetime, Lifetime::kConstant);
}

TEST(AliasSetsTest, LoopBodyReturningAnOffsetViewOfItsParamConflicts) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId cond = t.Func("c");
  ComputationId body = t.Func("b");
  ValueId x = t.Param(main, "x", 8);
  ValueId p = t.Param(cond, "p", 8);
  t.Return(cond, {t.Def(cond, "compare", {p}, "k", 1)});
  ValueId q = t.Param(body, "q", 8);
  ValueId r = t.Def(body, "slice", {q}, "r", 4);
  t.View(r, q, 4);
  t.At(r, 7, 3);
  t.Return(body, {r});
  t.Structured(main, "while", {x}, {cond, body}, {{"w", 8}});
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(t.Build());
  EXPECT_EQ(sets.status(), absl::InvalidArgumentError(
                               "test.ir:7:3: error: conflicting aliasing: %r would sit at two "
                               "byte offsets 4 bytes apart in one buffer"));
}

}  // namespace
}  // namespace memplan
