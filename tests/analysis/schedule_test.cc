#include "analysis/schedule.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/analysis/test_program.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::Parse;
using testing::TestProgram;

// The flattened order as "op@time", with "/depth" inside while loops.
std::vector<std::string> Timeline(const Program& program, const FlatSchedule& s) {
  std::vector<std::string> out;
  for (OpId op : s.order) {
    std::string entry = program.OpName(op) + "@" + std::to_string(s.op_time[op]);
    if (s.loop_depth[op] > 0) entry += "/" + std::to_string(s.loop_depth[op]);
    out.push_back(entry);
  }
  return out;
}

std::string Span(const Program& program, const FlatSchedule& s, std::string_view computation) {
  const ComputationSpan& span = s.spans[program.FindComputation(computation)];
  return "[" + std::to_string(span.first) + "," + std::to_string(span.last) + "]";
}

TEST(FlattenScheduleTest, StraightLineOpsTakeConsecutiveSteps) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %a = exp(%x) : 4
      %b = add(%a, %x) : 4
      return %b
    })");
  ASSERT_NE(p.entry, kNoId);
  FlatSchedule s = FlattenSchedule(p);
  EXPECT_THAT(Timeline(p, s), ElementsAre("a@0", "b@1"));
  EXPECT_THAT(s.op_time, ElementsAre(0, 1));
  EXPECT_THAT(s.loop_depth, ElementsAre(0, 0));
  EXPECT_EQ(s.time_steps, 2);
  EXPECT_EQ(Span(p, s, "main"), "[0,1]");
}

// The example of schedule.h: cond then body are nested before the while.
TEST(FlattenScheduleTest, WhileNestsCondThenBodyBeforeTheLoopOp) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %a = exp(%x) : 4
      %w = while(%a) : 4 {cond = @c, body = @b}
      %r = relu(%w) : 4
      return %r
    }
    func @c(%p: 4) {
      %k = compare(%p) : 1
      return %k
    }
    func @b(%q: 4) {
      %n = add(%q) : 4
      return %n
    })");
  ASSERT_NE(p.entry, kNoId);
  FlatSchedule s = FlattenSchedule(p);
  EXPECT_THAT(Timeline(p, s), ElementsAre("a@0", "k@1/1", "n@2/1", "w@3", "r@4"));
  // Indexed by op id (parse order a, w, r, k, n).
  EXPECT_THAT(s.op_time, ElementsAre(0, 3, 4, 1, 2));
  EXPECT_THAT(s.loop_depth, ElementsAre(0, 0, 0, 1, 1));
  EXPECT_EQ(s.time_steps, 5);
  EXPECT_EQ(Span(p, s, "main"), "[0,4]");
  EXPECT_EQ(Span(p, s, "c"), "[1,1]");
  EXPECT_EQ(Span(p, s, "b"), "[2,2]");
}

TEST(FlattenScheduleTest, NestedLoopsDeepenAndCallsDoNot) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %wo = while(%x) : 4 {cond = @c1, body = @b1}
      return %wo
    }
    func @c1(%p1: 4) {
      %k1 = compare(%p1) : 1
      return %k1
    }
    func @b1(%q1: 4) {
      %wi = while(%q1) : 4 {cond = @c2, body = @b2}
      return %wi
    }
    func @c2(%p2: 4) {
      %k2 = compare(%p2) : 1
      return %k2
    }
    func @b2(%q2: 4) {
      %cr = call(%q2) : 4 {callee = @f}
      return %cr
    }
    func @f(%fp: 4) {
      %fr = negate(%fp) : 4
      return %fr
    })");
  ASSERT_NE(p.entry, kNoId);
  FlatSchedule s = FlattenSchedule(p);
  EXPECT_THAT(Timeline(p, s), ElementsAre("k1@0/1", "k2@1/2", "fr@2/2", "cr@3/2", "wi@4/1", "wo@5"));
  EXPECT_EQ(s.time_steps, 6);
  EXPECT_EQ(Span(p, s, "b1"), "[1,4]");
  EXPECT_EQ(Span(p, s, "b2"), "[2,3]");
  EXPECT_EQ(Span(p, s, "f"), "[2,2]");
}

TEST(FlattenScheduleTest, ConditionalBranchesAreFlattenedInOrder) {
  const Program p = Parse(R"(
    entry func @main(%pred: 1, %x: 4) {
      %c = conditional(%pred, %x) : 4 {branches = [@yes, @no]}
      return %c
    }
    func @no(%p2: 4) {
      %r2 = negate(%p2) : 4
      return %r2
    }
    func @yes(%p1: 4) {
      %r1 = exp(%p1) : 4
      return %r1
    })");
  ASSERT_NE(p.entry, kNoId);
  FlatSchedule s = FlattenSchedule(p);
  EXPECT_THAT(Timeline(p, s), ElementsAre("r1@0", "r2@1", "c@2"));
  EXPECT_EQ(Span(p, s, "yes"), "[0,0]");
  EXPECT_EQ(Span(p, s, "no"), "[1,1]");
}

TEST(FlattenScheduleTest, EmptyCalleeHasEmptySpanAtItsCallersStep) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %a = exp(%x) : 4
      %y = call(%a) : 4 {callee = @f}
      return %y
    }
    func @f(%p: 4) {
      return %p
    })");
  ASSERT_NE(p.entry, kNoId);
  FlatSchedule s = FlattenSchedule(p);
  EXPECT_THAT(Timeline(p, s), ElementsAre("a@0", "y@1"));
  EXPECT_EQ(Span(p, s, "f"), "[1,0]");
  EXPECT_EQ(s.time_steps, 2);
}

// Built in code: the text format requires waves to increase along a region.
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
  t.Return(f, {t.Def(f, "negate", {p}, "n", 4)});  // op 1
  OpId call = t.Structured(main, "call", {a}, {f}, {{"y", 4}});  // op 2
  t.op(call).wave = 7;
  ValueId z = t.Def(main, "fill", {x}, "z", 4);  // op 3: same wave as the call
  t.op(t.OpOf(z)).wave = 7;
  FlatSchedule s = FlattenSchedule(t.Build());
  EXPECT_THAT(s.op_time, ElementsAre(0, 1, 2, 2));
  EXPECT_EQ(s.time_steps, 3);
}

// Built in code from here on: the text format rejects these programs.
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

// Initializers are roots flattened in declaration order before the entry,
// wherever the entry is declared.
TEST(FlattenScheduleTest, InitializersComeFirstInDeclarationOrder) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %a = exp(%x) : 4
      return %a
    }
    initializer func @first() {
      %t = constant() : 8
      return %t
    }
    initializer func @second() {
      %u = constant() : 8
      %c = call(%u) : 8 {callee = @f}
      return %c
    }
    func @f(%p: 8) {
      %q = negate(%p) : 8
      return %q
    })");
  ASSERT_NE(p.entry, kNoId);
  FlatSchedule s = FlattenSchedule(p);
  EXPECT_THAT(Timeline(p, s), ElementsAre("t@0", "u@1", "q@2", "c@3", "a@4"));
  EXPECT_EQ(s.time_steps, 5);
  EXPECT_EQ(Span(p, s, "first"), "[0,0]");
  EXPECT_EQ(Span(p, s, "second"), "[1,3]");
  EXPECT_EQ(Span(p, s, "f"), "[2,2]");
  EXPECT_EQ(Span(p, s, "main"), "[4,4]");
}

TEST(FlattenScheduleTest, InitializerCalledOrCallingTheEntryIsPlacedOnce) {
  // Malformed: validation rejects both, flattening must still terminate.
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId init = t.Func("init");
  t.computation(init).initializer = true;
  t.Structured(init, "call", {}, {main}, {});   // op 0: the initializer calls the entry
  t.Structured(main, "call", {}, {init}, {});   // op 1: the entry calls the initializer
  FlatSchedule s = FlattenSchedule(t.Build());
  EXPECT_THAT(s.op_time, ElementsAre(1, 0));
  EXPECT_EQ(s.time_steps, 2);
}

}  // namespace
}  // namespace memplan
