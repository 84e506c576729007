#include "analysis/schedule.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/analysis/test_program.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::TestProgram;

TEST(FlattenScheduleTest, StraightLineOpsTakeConsecutiveSteps) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  ValueId a = t.Def(main, "exp", {x}, "a", 4);
  ValueId b = t.Def(main, "add", {a, x}, "b", 4);
  t.Return(main, {b});
  FlatSchedule s = FlattenSchedule(t.Build());
  EXPECT_THAT(s.op_time, ElementsAre(0, 1));
  EXPECT_THAT(s.order, ElementsAre(0, 1));
  EXPECT_THAT(s.loop_depth, ElementsAre(0, 0));
  EXPECT_EQ(s.time_steps, 2);
  EXPECT_EQ(s.spans[main].first, 0);
  EXPECT_EQ(s.spans[main].last, 1);
}

// The example of schedule.h: cond then body are nested before the while.
TEST(FlattenScheduleTest, WhileNestsCondThenBodyBeforeTheLoopOp) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId cond = t.Func("c");
  ComputationId body = t.Func("b");
  ValueId x = t.Param(main, "x", 4);
  ValueId a = t.Def(main, "exp", {x}, "a", 4);                              // op 0
  ValueId p = t.Param(cond, "p", 4);
  t.Return(cond, {t.Def(cond, "compare", {p}, "k", 1)});                    // op 1
  ValueId q = t.Param(body, "q", 4);
  t.Return(body, {t.Def(body, "add", {q}, "n", 4)});                        // op 2
  OpId loop = t.Structured(main, "while", {a}, {cond, body}, {{"w", 4}});  // op 3
  t.Def(main, "relu", {t.op(loop).results[0]}, "r", 4);                    // op 4
  FlatSchedule s = FlattenSchedule(t.Build());
  EXPECT_THAT(s.op_time, ElementsAre(0, 1, 2, 3, 4));
  EXPECT_THAT(s.order, ElementsAre(0, 1, 2, 3, 4));
  EXPECT_THAT(s.loop_depth, ElementsAre(0, 1, 1, 0, 0));
  EXPECT_EQ(s.time_steps, 5);
  EXPECT_EQ(s.spans[main].first, 0);
  EXPECT_EQ(s.spans[main].last, 4);
  EXPECT_EQ(s.spans[cond].first, 1);
  EXPECT_EQ(s.spans[cond].last, 1);
  EXPECT_EQ(s.spans[body].first, 2);
  EXPECT_EQ(s.spans[body].last, 2);
}

TEST(FlattenScheduleTest, NestedLoopsDeepenAndCallsDoNot) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId c1 = t.Func("c1");
  ComputationId b1 = t.Func("b1");
  ComputationId c2 = t.Func("c2");
  ComputationId b2 = t.Func("b2");
  ComputationId f = t.Func("f");
  ValueId x = t.Param(main, "x", 4);
  // Ops are created out of schedule order on purpose: ids differ from times.
  ValueId p1 = t.Param(c1, "p1", 4);
  t.Return(c1, {t.Def(c1, "compare", {p1}, "k1", 1)});                  // op 0
  ValueId p2 = t.Param(c2, "p2", 4);
  t.Return(c2, {t.Def(c2, "compare", {p2}, "k2", 1)});                  // op 1
  ValueId fp = t.Param(f, "fp", 4);
  t.Return(f, {t.Def(f, "neg", {fp}, "fr", 4)});                        // op 2
  ValueId q2 = t.Param(b2, "q2", 4);
  OpId call = t.Structured(b2, "call", {q2}, {f}, {{"cr", 4}});         // op 3
  t.Return(b2, {t.op(call).results[0]});
  ValueId q1 = t.Param(b1, "q1", 4);
  OpId inner = t.Structured(b1, "while", {q1}, {c2, b2}, {{"wi", 4}});  // op 4
  t.Return(b1, {t.op(inner).results[0]});
  t.Structured(main, "while", {x}, {c1, b1}, {{"wo", 4}});              // op 5
  // Schedule: k1 0 | k2 1 | fr 2, call 3 | inner while 4 | outer while 5.
  FlatSchedule s = FlattenSchedule(t.Build());
  EXPECT_THAT(s.op_time, ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_THAT(s.loop_depth, ElementsAre(1, 2, 2, 2, 1, 0));
  EXPECT_EQ(s.time_steps, 6);
  EXPECT_EQ(s.spans[b1].first, 1);
  EXPECT_EQ(s.spans[b1].last, 4);
  EXPECT_EQ(s.spans[b2].first, 2);
  EXPECT_EQ(s.spans[b2].last, 3);
  EXPECT_EQ(s.spans[f].first, 2);
  EXPECT_EQ(s.spans[f].last, 2);
}

TEST(FlattenScheduleTest, ConditionalBranchesAreFlattenedInOrder) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId yes = t.Func("yes");
  ComputationId no = t.Func("no");
  ValueId pred = t.Param(main, "pred", 1);
  ValueId x = t.Param(main, "x", 4);
  ValueId p2 = t.Param(no, "p2", 4);
  t.Return(no, {t.Def(no, "neg", {p2}, "r2", 4)});   // op 0, second branch
  ValueId p1 = t.Param(yes, "p1", 4);
  t.Return(yes, {t.Def(yes, "exp", {p1}, "r1", 4)});  // op 1, first branch
  t.Structured(main, "conditional", {pred, x}, {yes, no}, {{"c", 4}});  // op 2
  FlatSchedule s = FlattenSchedule(t.Build());
  EXPECT_THAT(s.op_time, ElementsAre(1, 0, 2));
  EXPECT_THAT(s.order, ElementsAre(1, 0, 2));
  EXPECT_THAT(s.loop_depth, ElementsAre(0, 0, 0));
  EXPECT_EQ(s.spans[yes].first, 0);
  EXPECT_EQ(s.spans[yes].last, 0);
  EXPECT_EQ(s.spans[no].first, 1);
  EXPECT_EQ(s.spans[no].last, 1);
}

TEST(FlattenScheduleTest, EmptyCalleeHasEmptySpanAtItsCallersStep) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId f = t.Func("f");
  ValueId x = t.Param(main, "x", 4);
  ValueId a = t.Def(main, "exp", {x}, "a", 4);  // op 0, t0
  ValueId p = t.Param(f, "p", 4);
  t.Return(f, {p});
  t.Structured(main, "call", {a}, {f}, {{"y", 4}});  // op 1, t1
  FlatSchedule s = FlattenSchedule(t.Build());
  EXPECT_THAT(s.op_time, ElementsAre(0, 1));
  EXPECT_EQ(s.spans[f].first, 1);
  EXPECT_EQ(s.spans[f].last, 0);
  EXPECT_EQ(s.time_steps, 2);
}

TEST(FlattenScheduleTest, ConsecutiveEqualWavesShareAStep) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  const std::vector<std::optional<std::int64_t>> waves = {0, 0, 1, 0, std::nullopt, std::nullopt, 2, 2};
  for (std::size_t i = 0; i < waves.size(); ++i) {
    ValueId v = t.Def(main, "fill", {x}, "f" + std::to_string(i), 4);
    t.op(t.OpOf(v)).wave = waves[i];
  }
  FlatSchedule s = FlattenSchedule(t.Build());
  // Wave 0 again after wave 1 is a new step; ops without a wave never share.
  EXPECT_THAT(s.op_time, ElementsAre(0, 0, 1, 2, 3, 4, 5, 5));
  EXPECT_EQ(s.time_steps, 6);
  EXPECT_EQ(s.spans[main].last, 5);
}

TEST(FlattenScheduleTest, OpWithCalleesNeverSharesItsPredecessorsWave) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId f = t.Func("f");
  ValueId x = t.Param(main, "x", 4);
  ValueId a = t.Def(main, "fill", {x}, "a", 4);  // op 0
  t.op(t.OpOf(a)).wave = 7;
  ValueId p = t.Param(f, "p", 4);
  t.Return(f, {t.Def(f, "neg", {p}, "n", 4)});  // op 1
  OpId call = t.Structured(main, "call", {a}, {f}, {{"y", 4}});  // op 2
  t.op(call).wave = 7;
  ValueId z = t.Def(main, "fill", {x}, "z", 4);  // op 3: same wave as the call
  t.op(t.OpOf(z)).wave = 7;
  FlatSchedule s = FlattenSchedule(t.Build());
  EXPECT_THAT(s.op_time, ElementsAre(0, 1, 2, 2));
  EXPECT_EQ(s.time_steps, 3);
}

TEST(FlattenScheduleTest, UnreachableComputationsAndProgramsWithoutEntry) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId dead = t.Func("dead");
  ValueId x = t.Param(main, "x", 4);
  t.Def(main, "exp", {x}, "a", 4);
  ValueId p = t.Param(dead, "p", 4);
  t.Def(dead, "exp", {p}, "b", 4);
  Program program = t.Build();
  FlatSchedule s = FlattenSchedule(program);
  EXPECT_THAT(s.op_time, ElementsAre(0, kNoId));
  EXPECT_THAT(s.order, ElementsAre(0));
  EXPECT_EQ(s.spans[dead].first, kNoId);
  EXPECT_EQ(s.spans[dead].last, kNoId);

  program.entry = kNoId;
  FlatSchedule none = FlattenSchedule(program);
  EXPECT_THAT(none.op_time, ElementsAre(kNoId, kNoId));
  EXPECT_TRUE(none.order.empty());
  EXPECT_EQ(none.time_steps, 0);
}

TEST(FlattenScheduleTest, RecursiveCallIsFlattenedOnce) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId f = t.Func("f");
  ValueId x = t.Param(main, "x", 4);
  ValueId p = t.Param(f, "p", 4);
  t.Structured(f, "call", {p}, {f}, {{"again", 4}});   // op 0: f calls itself
  t.Structured(main, "call", {x}, {f}, {{"y", 4}});    // op 1
  FlatSchedule s = FlattenSchedule(t.Build());
  EXPECT_THAT(s.op_time, ElementsAre(0, 1));
  EXPECT_EQ(s.time_steps, 2);
}

}  // namespace
}  // namespace memplan
