#include "analysis/analyze.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/analysis/test_program.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::TestProgram;

// One line per buffer: `name size [start,end] lifetime uses{...} values{...}`.
std::vector<std::string> Describe(const Program& program, const BufferSet& set) {
  std::vector<std::string> lines;
  for (const Buffer& b : set.buffers) {
    std::string line = b.name + " " + std::to_string(b.size) + " [" + std::to_string(b.start) + "," +
                       std::to_string(b.end) + "] " + std::string(LifetimeName(b.lifetime));
    if (b.space) line += " space" + std::to_string(*b.space);
    line += " uses{";
    for (std::size_t i = 0; i < b.use_times.size(); ++i) {
      line += (i ? "," : "") + std::to_string(b.use_times[i]);
    }
    line += "} values{";
    for (std::size_t i = 0; i < b.values.size(); ++i) {
      line += (i ? "," : "") + program.values[b.values[i]].name;
    }
    lines.push_back(line + "}");
  }
  return lines;
}

ProgramAnalysis Analyze(const Program& program) {
  absl::StatusOr<ProgramAnalysis> a = AnalyzeProgram(program);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? *std::move(a) : ProgramAnalysis{};
}

// The example of analyze.h.
TEST(AnalyzeProgramTest, TiedEntryResultAndScratch) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 16);
  ValueId y = t.Def(main, "exp", {x}, "y", 16);
  ValueId z = t.Def(main, "relu", {y}, "z", 16);
  t.Tie(z, y);
  t.op(t.OpOf(z)).scratch_bytes = 64;
  t.Return(main, {z});
  Program program = t.Build();
  ProgramAnalysis a = Analyze(program);
  EXPECT_EQ(a.buffers.input, "test.ir");
  EXPECT_EQ(a.buffers.time_steps, 2);
  EXPECT_THAT(Describe(program, a.buffers),
              ElementsAre("x 16 [0,0] external uses{0} values{x}",
                          "y 16 [0,1] external uses{1} values{y,z}",
                          "z.scratch 64 [1,1] transient uses{1} values{}"));
  EXPECT_THAT(a.value_buffer, ElementsAre(0, 1, 1));
  EXPECT_THAT(a.value_offset, ElementsAre(0, 0, 0));
  EXPECT_THAT(a.op_buffers[0].operands, ElementsAre(0));
  EXPECT_THAT(a.op_buffers[0].results, ElementsAre(1));
  EXPECT_EQ(a.op_buffers[0].scratch, kNoId);
  EXPECT_THAT(a.op_buffers[1].operands, ElementsAre(1));
  EXPECT_THAT(a.op_buffers[1].results, ElementsAre(1));
  EXPECT_EQ(a.op_buffers[1].scratch, 2);
  for (const Buffer& b : a.buffers.buffers) EXPECT_EQ(b.alignment, 1);
}

//   entry main(x):                               time
//     a = exp(x)                                  0
//     u = neg(x)                                  1
//     cond c(p):  k = compare(p)                  2
//     body b(q):  n1 = add(q); n2 = mul(n1)       3, 4   (returns n2)
//     w = while(a) {c, b}                         5
//     r = add(w, u)                               6      (returned)
TEST(AnalyzeProgramTest, WhileLoopLiveRanges) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId cond = t.Func("c");
  ComputationId body = t.Func("b");
  ValueId x = t.Param(main, "x", 4);
  ValueId a = t.Def(main, "exp", {x}, "a", 4);
  ValueId u = t.Def(main, "neg", {x}, "u", 8);
  ValueId p = t.Param(cond, "p", 4);
  t.Return(cond, {t.Def(cond, "compare", {p}, "k", 1)});
  ValueId q = t.Param(body, "q", 4);
  ValueId n1 = t.Def(body, "add", {q}, "n1", 4);
  ValueId n2 = t.Def(body, "mul", {n1}, "n2", 4);
  t.Return(body, {n2});
  OpId loop = t.Structured(main, "while", {a}, {cond, body}, {{"w", 4}});
  ValueId w = t.op(loop).results[0];
  ValueId r = t.Def(main, "add", {w, u}, "r", 4);
  t.Return(main, {r});
  Program program = t.Build();
  ProgramAnalysis a_ = Analyze(program);
  EXPECT_EQ(a_.buffers.time_steps, 7);
  EXPECT_EQ(a_.schedule.spans[body].first, 3);
  EXPECT_EQ(a_.schedule.spans[body].last, 4);
  // u crosses the loop: live over its whole span [2,4]. The loop-carried
  // buffer runs from a's definition to the use of w; body-local n1 stays in
  // the body span.
  EXPECT_THAT(Describe(program, a_.buffers),
              ElementsAre("x 4 [0,1] external uses{0,1} values{x}",
                          "a 4 [0,6] transient uses{2,3,5,6} values{a,p,q,n2,w}",
                          "u 8 [1,6] transient uses{6} values{u}",
                          "k 1 [2,2] transient uses{} values{k}",
                          "n1 4 [3,4] transient uses{4} values{n1}",
                          "r 4 [6,6] external uses{} values{r}"));
  EXPECT_EQ(a_.value_ranges[q].start, 3);
  EXPECT_EQ(a_.value_ranges[q].end, 3);
  EXPECT_EQ(a_.value_ranges[n2].start, 4);
  EXPECT_EQ(a_.value_ranges[n2].end, 4);
  EXPECT_EQ(a_.value_ranges[a].end, 5);
  EXPECT_EQ(a_.value_ranges[w].start, 5);
  EXPECT_EQ(a_.value_ranges[w].end, 6);
}

// Branches are flattened one after another and not treated as exclusive:
// the result buffer is live from the first branch's result to its last use.
TEST(AnalyzeProgramTest, ConditionalAliasingAndRanges) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId yes = t.Func("yes");
  ComputationId no = t.Func("no");
  ValueId pred = t.Param(main, "pred", 1);
  ValueId x = t.Param(main, "x", 4);
  ValueId p1 = t.Param(yes, "p1", 4);
  t.Return(yes, {t.Def(yes, "exp", {p1}, "r1", 4)});
  ValueId p2 = t.Param(no, "p2", 4);
  t.Return(no, {t.Def(no, "neg", {p2}, "r2", 4)});
  OpId cond = t.Structured(main, "conditional", {pred, x}, {yes, no}, {{"c", 4}});
  ValueId out = t.Def(main, "relu", {t.op(cond).results[0]}, "out", 4);
  t.Return(main, {out});
  Program program = t.Build();
  ProgramAnalysis a = Analyze(program);
  EXPECT_EQ(a.buffers.time_steps, 4);
  EXPECT_THAT(Describe(program, a.buffers),
              ElementsAre("pred 1 [0,2] external uses{2} values{pred}",
                          "x 4 [0,2] external uses{0,1,2} values{x,p1,p2}",
                          "r1 4 [0,3] transient uses{3} values{r1,r2,c}",
                          "out 4 [3,3] external uses{} values{out}"));
  EXPECT_EQ(a.value_ranges[p2].start, 1);
}

TEST(AnalyzeProgramTest, CallAliasing) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId f = t.Func("f");
  ValueId x = t.Param(main, "x", 4);
  ValueId p = t.Param(f, "p", 4);
  t.Return(f, {t.Def(f, "exp", {p}, "z", 4)});
  OpId call = t.Structured(main, "call", {x}, {f}, {{"y", 4}});
  t.Return(main, {t.op(call).results[0]});
  Program program = t.Build();
  ProgramAnalysis a = Analyze(program);
  EXPECT_THAT(Describe(program, a.buffers),
              ElementsAre("x 4 [0,1] external uses{0,1} values{x,p}",
                          "z 4 [0,1] external uses{} values{z,y}"));
}

TEST(AnalyzeProgramTest, AsyncStartOperandStaysLiveUntilDone) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId p = t.Param(main, "p", 8);
  ValueId x = t.Def(main, "exp", {p}, "x", 8);            // t0
  ValueId s = t.Def(main, "copy-start", {x}, "s", 8);     // t1
  t.Def(main, "neg", {p}, "o", 8);                        // t2
  ValueId d = t.Def(main, "copy-done", {s}, "d", 8);      // t3
  ValueId z = t.Def(main, "relu", {d}, "z", 8);           // t4
  t.Return(main, {z});
  Program program = t.Build();
  ProgramAnalysis a = Analyze(program);
  EXPECT_THAT(Describe(program, a.buffers),
              ElementsAre("p 8 [0,2] external uses{0,2} values{p}",
                          "x 8 [0,3] transient uses{1} values{x}",
                          "s 8 [1,4] transient uses{3,4} values{s,d}",
                          "o 8 [2,2] transient uses{} values{o}",
                          "z 8 [4,4] external uses{} values{z}"));
}

TEST(AnalyzeProgramTest, WavesShareATimeStep) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  ValueId f0 = t.Def(main, "fill", {x}, "f0", 4);
  ValueId f1 = t.Def(main, "fill", {x}, "f1", 4);
  ValueId s = t.Def(main, "add", {f0, f1}, "s", 4);
  t.op(t.OpOf(f0)).wave = 0;
  t.op(t.OpOf(f1)).wave = 0;
  t.op(t.OpOf(s)).wave = 1;
  t.Return(main, {s});
  Program program = t.Build();
  ProgramAnalysis a = Analyze(program);
  EXPECT_EQ(a.buffers.time_steps, 2);
  EXPECT_THAT(Describe(program, a.buffers),
              ElementsAre("x 4 [0,0] external uses{0} values{x}",
                          "f0 4 [0,1] transient uses{1} values{f0}",
                          "f1 4 [0,1] transient uses{1} values{f1}",
                          "s 4 [1,1] external uses{} values{s}"));
}

TEST(AnalyzeProgramTest, EntryParamsStartAtZeroAndResultsEndAtTheLastStep) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  ValueId y = t.Param(main, "y", 4);
  t.Param(main, "unused", 4);
  ValueId a = t.Def(main, "exp", {x}, "a", 4);   // t0, returned early
  t.Def(main, "neg", {a}, "dead", 4);            // t1, never read
  ValueId c = t.Def(main, "add", {a, y}, "c", 4);  // t2
  t.Return(main, {a, c});
  Program program = t.Build();
  ProgramAnalysis a_ = Analyze(program);
  EXPECT_THAT(Describe(program, a_.buffers),
              ElementsAre("x 4 [0,0] external uses{0} values{x}",
                          "y 4 [0,2] external uses{2} values{y}",
                          "unused 4 [0,0] external uses{} values{unused}",
                          "a 4 [0,2] external uses{1,2} values{a}",
                          "dead 4 [1,1] transient uses{} values{dead}",
                          "c 4 [2,2] external uses{} values{c}"));
}

TEST(AnalyzeProgramTest, ProgramWithoutOpsHasOneTimeStep) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  t.Return(main, {x});
  Program program = t.Build();
  ProgramAnalysis a = Analyze(program);
  EXPECT_EQ(a.schedule.time_steps, 0);
  EXPECT_EQ(a.buffers.time_steps, 1);
  EXPECT_THAT(Describe(program, a.buffers), ElementsAre("x 4 [0,0] external uses{} values{x}"));
}

TEST(AnalyzeProgramTest, ScratchBuffersFollowRegularOnesInOpOrder) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId f = t.Func("f");
  ValueId x = t.Param(main, "x", 4);
  ValueId p = t.Param(f, "p", 4);
  ValueId inner = t.Def(f, "exp", {p}, "inner", 4);           // op 0, t0
  t.op(t.OpOf(inner)).scratch_bytes = 32;
  t.Return(f, {inner});
  OpId call = t.Structured(main, "call", {x}, {f}, {{"y", 4}});  // op 1, t1
  OpId barrier = t.Effect(main, "barrier", {t.op(call).results[0]});  // op 2, t2
  t.op(barrier).scratch_bytes = 8;
  ValueId zero = t.Def(main, "fill", {}, "zero", 0);          // op 3, t3: kept
  t.Return(main, {zero});
  Program program = t.Build();
  ProgramAnalysis a = Analyze(program);
  EXPECT_THAT(Describe(program, a.buffers),
              ElementsAre("x 4 [0,1] external uses{0,1} values{x,p}",
                          "inner 4 [0,2] transient uses{2} values{inner,y}",
                          "zero 0 [3,3] external uses{} values{zero}",
                          "inner.scratch 32 [0,0] transient uses{0} values{}",
                          "barrier#2.scratch 8 [2,2] transient uses{2} values{}"));
  EXPECT_EQ(a.op_buffers[0].scratch, 3);
  EXPECT_EQ(a.op_buffers[2].scratch, 4);
  EXPECT_THAT(a.op_buffers[2].results, IsEmpty());
}

TEST(AnalyzeProgramTest, LifetimesPinsOffsetsAndTimepoints) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 32);
  ValueId c = t.Def(main, "constant", {}, "c", 16);
  ValueId v = t.Def(main, "slice", {c}, "v", 8);
  t.View(v, c, 8);
  ValueId tp = t.Def(main, "barrier", {}, "tp", 0);
  t.value(tp).is_timepoint = true;
  ValueId h = t.Def(main, "add", {x, v, tp}, "h", 32);
  t.value(h).space = kAlternateSpace;
  t.value(h).lifetime = Lifetime::kStaging;
  ValueId o = t.Def(main, "exp", {h}, "o", 32);
  t.Return(main, {o});
  Program program = t.Build();
  ProgramAnalysis a = Analyze(program);
  EXPECT_THAT(Describe(program, a.buffers),
              ElementsAre("x 32 [0,3] external uses{3} values{x}",
                          "c 16 [0,3] constant uses{1,3} values{c,v}",
                          "h 32 [3,4] staging space1 uses{4} values{h}",
                          "o 32 [4,4] external uses{} values{o}"));
  EXPECT_THAT(a.value_buffer, ElementsAre(0, 1, 1, kNoId, 2, 3));
  EXPECT_THAT(a.value_offset, ElementsAre(0, 0, 8, 0, 0, 0));
  EXPECT_EQ(a.value_ranges[tp].start, kNoId);
  EXPECT_THAT(a.op_buffers[t.OpOf(h)].operands, ElementsAre(0, 1, kNoId));
  EXPECT_THAT(a.op_buffers[t.OpOf(tp)].results, ElementsAre(kNoId));
}

TEST(AnalyzeProgramTest, AliasErrorsPropagate) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ValueId x = t.Param(main, "x", 4);
  t.value(x).space = kAlternateSpace;
  t.At(x, 1, 12);
  ValueId y = t.Def(main, "relu", {x}, "y", 4);
  t.Tie(y, x);
  t.value(y).space = kDefaultSpace;
  t.At(y, 2, 3);
  EXPECT_EQ(AnalyzeProgram(t.Build()).status(),
            absl::InvalidArgumentError("test.ir:2:3: error: %y is pinned to memory space 0 but "
                                       "shares storage with %x pinned to memory space 1"));
}

TEST(AnalyzeProgramTest, CallGraphErrors) {
  {
    TestProgram t;
    t.Func("main");
    EXPECT_EQ(AnalyzeProgram(t.Build()).status(),
              absl::InvalidArgumentError("test.ir: error: program has no entry computation"));
  }
  {
    TestProgram t;
    ComputationId main = t.Func("main", true);
    ComputationId f = t.Func("f");
    ValueId x = t.Param(main, "x", 4);
    t.Param(f, "p", 4);
    t.Structured(main, "call", {x}, {f}, {});
    OpId again = t.Structured(main, "call", {x}, {f}, {});
    t.op(again).loc = SourceLocation{5, 3};
    EXPECT_EQ(AnalyzeProgram(t.Build()).status(),
              absl::InvalidArgumentError("test.ir:5:3: error: computation @f is called more than once"));
  }
  {
    TestProgram t;
    ComputationId main = t.Func("main", true);
    ComputationId f = t.Func("f");
    ValueId p = t.Param(f, "p", 4);
    OpId back = t.Structured(f, "call", {p}, {main}, {});
    t.op(back).loc = SourceLocation{9, 5};
    (void)main;
    EXPECT_EQ(AnalyzeProgram(t.Build()).status(),
              absl::InvalidArgumentError("test.ir:9:5: error: entry computation @main must not be called"));
  }
  {
    TestProgram t;
    t.Func("main", true);
    ComputationId dead = t.Func("dead");
    t.computation(dead).loc = SourceLocation{12, 1};
    EXPECT_EQ(AnalyzeProgram(t.Build()).status(),
              absl::InvalidArgumentError(
                  "test.ir:12:1: error: computation @dead is not reachable from the entry computation @main"));
  }
}

TEST(AnalyzeProgramTest, SameProgramTwiceGivesIdenticalBuffers) {
  const auto build = [] {
    TestProgram t;
    ComputationId main = t.Func("main", true);
    ComputationId cond = t.Func("c");
    ComputationId body = t.Func("b");
    ValueId x = t.Param(main, "x", 12);
    ValueId p = t.Param(cond, "p", 12);
    t.Return(cond, {t.Def(cond, "compare", {p}, "k", 1)});
    ValueId q = t.Param(body, "q", 12);
    ValueId n = t.Def(body, "add", {q}, "n", 12);
    t.op(t.OpOf(n)).scratch_bytes = 5;
    t.Return(body, {n});
    OpId loop = t.Structured(main, "while", {x}, {cond, body}, {{"w", 12}});
    ValueId v = t.Def(main, "slice", {t.op(loop).results[0]}, "v", 4);
    t.View(v, t.op(loop).results[0], 8);
    t.Return(main, {v});
    return t.Build();
  };
  const Program first = build();
  const Program second = build();
  ProgramAnalysis a = Analyze(first);
  ProgramAnalysis b = Analyze(second);
  EXPECT_EQ(Describe(first, a.buffers), Describe(second, b.buffers));
  ASSERT_EQ(a.buffers.buffers.size(), b.buffers.buffers.size());
  for (std::size_t i = 0; i < a.buffers.buffers.size(); ++i) {
    EXPECT_EQ(a.buffers.buffers[i].values, b.buffers.buffers[i].values);
  }
  EXPECT_EQ(a.value_offset, b.value_offset);
  EXPECT_THAT(Describe(first, a.buffers),
              ElementsAre("x 12 [0,3] external uses{0,1,2,3} values{x,p,q,n,w,v}",
                          "k 1 [0,0] transient uses{} values{k}",
                          "n.scratch 5 [1,1] transient uses{1} values{}"));
}

}  // namespace
}  // namespace memplan
