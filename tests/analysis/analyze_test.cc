#include "analysis/analyze.h"

#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/analysis/test_program.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::OpNamed;
using testing::Analyze;
using testing::Parse;
using testing::TestProgram;

std::vector<std::string> DescribeWithUses(const Program& program, const BufferSet& set) {
  return testing::DescribeBuffers(program, set, /*with_uses=*/true);
}

// The example of analyze.h.
TEST(AnalyzeProgramTest, TiedEntryResultAndScratch) {
  const Program p = Parse(R"(
    entry func @main(%x: f32[4]) {
      %y = exp(%x) : f32[4]
      %z = relu(%y) : f32[4] tied(%y) {scratch = 64}
      return %z
    })");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_EQ(a.buffers.input, "test.ir");
  EXPECT_EQ(a.buffers.time_steps, 2);
  EXPECT_THAT(DescribeWithUses(p, a.buffers),
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

TEST(AnalyzeProgramTest, WhileLoopLiveRanges) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %a = exp(%x) : 4              # t0
      %u = negate(%x) : 8           # t1
      %w = while(%a) : 4 {cond = @c, body = @b}   # t5
      %r = add(%w, %u) : 4          # t6
      return %r
    }
    func @c(%p: 4) {
      %k = compare(%p) : 1          # t2
      return %k
    }
    func @b(%q: 4) {
      %n1 = add(%q) : 4             # t3
      %n2 = mul(%n1) : 4            # t4
      return %n2
    })");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_EQ(a.buffers.time_steps, 7);
  EXPECT_EQ(a.schedule.spans[p.FindComputation("b")].first, 3);
  EXPECT_EQ(a.schedule.spans[p.FindComputation("b")].last, 4);
  // u crosses the loop, so it is live over the loop's whole span [2,4]. The
  // loop-carried buffer runs from a's definition to the use of w; body-local
  // n1 stays inside the body span.
  EXPECT_THAT(DescribeWithUses(p, a.buffers),
              ElementsAre("x 4 [0,1] external uses{0,1} values{x}",
                          "a 4 [0,6] transient uses{2,3,5,6} values{a,w,p,q,n2}",
                          "u 8 [1,6] transient uses{6} values{u}",
                          "r 4 [6,6] external uses{} values{r}",
                          "k 1 [2,2] transient uses{} values{k}",
                          "n1 4 [3,4] transient uses{4} values{n1}"));
  const auto range = [&](std::string_view name) {
    const LiveRange& r = a.value_ranges[p.FindValue(name)];
    return std::to_string(r.start) + "," + std::to_string(r.end);
  };
  EXPECT_EQ(range("a"), "0,5");
  EXPECT_EQ(range("p"), "2,2");
  EXPECT_EQ(range("q"), "3,3");
  EXPECT_EQ(range("n2"), "4,4");
  EXPECT_EQ(range("w"), "5,6");
}

// Branches are flattened one after another; each defines its result at its
// first step, so the result buffer is live without a gap from the first
// branch's result to its last use (control_flow_liveness_test.cc has gaps).
TEST(AnalyzeProgramTest, ConditionalAliasingAndRanges) {
  const Program p = Parse(R"(
    entry func @main(%pred: 1, %x: 4) {
      %c = conditional(%pred, %x) : 4 {branches = [@yes, @no]}   # t2
      %out = relu(%c) : 4                                        # t3
      return %out
    }
    func @yes(%p1: 4) {
      %r1 = exp(%p1) : 4      # t0
      return %r1
    }
    func @no(%p2: 4) {
      %r2 = negate(%p2) : 4   # t1
      return %r2
    })");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_EQ(a.buffers.time_steps, 4);
  EXPECT_THAT(DescribeWithUses(p, a.buffers),
              ElementsAre("pred 1 [0,2] external uses{2} values{pred}",
                          "x 4 [0,2] external uses{0,1,2} values{x,p1,p2}",
                          "c 4 [0,3] transient uses{3} values{c,r1,r2}",
                          "out 4 [3,3] external uses{} values{out}"));
  EXPECT_EQ(a.value_ranges[p.FindValue("p2")].start, 1);
}

TEST(AnalyzeProgramTest, CallAndExecuteAliasing) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %y = call(%x) : 4 {callee = @f}       # t1
      %e = execute(%y) : 4 {callee = @g}    # t3
      return %e
    }
    func @f(%p: 4) {
      %z = exp(%p) : 4                      # t0
      return %z
    }
    region @g(%q: 4) affinity("gpu") {
      %u = dispatch(%q) : 4                 # t2
      return %u
    })");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_THAT(DescribeWithUses(p, a.buffers),
              ElementsAre("x 4 [0,1] external uses{0,1} values{x,p}",
                          "y 4 [0,3] transient uses{2,3} values{y,z,q}",
                          "e 4 [2,3] external uses{} values{e,u}"));
}

TEST(AnalyzeProgramTest, AsyncStartOperandStaysLiveUntilDone) {
  const Program p = Parse(R"(
    entry func @main(%p: 8) {
      %x = exp(%p) : 8            # t0
      %s = copy-start(%x) : 8     # t1
      %o = negate(%p) : 8         # t2
      %d = copy-done(%s) : 8      # t3
      %z = relu(%d) : 8           # t4
      return %z
    })");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_THAT(DescribeWithUses(p, a.buffers),
              ElementsAre("p 8 [0,2] external uses{0,2} values{p}",
                          "x 8 [0,3] transient uses{1} values{x}",
                          "s 8 [1,4] transient uses{3,4} values{s,d}",
                          "o 8 [2,2] transient uses{} values{o}",
                          "z 8 [4,4] external uses{} values{z}"));
}

TEST(AnalyzeProgramTest, WavesShareATimeStep) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %s = execute(%x) : 4 {callee = @r}   # t2
      return %s
    }
    region @r(%in: 4) affinity("gpu") {
      %f0 = fill(%in) : 4 {wave = 0}       # t0
      %f1 = fill(%in) : 4 {wave = 0}       # t0
      %s2 = add(%f0, %f1) : 4 {wave = 1}   # t1
      return %s2
    })");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_EQ(a.buffers.time_steps, 3);
  EXPECT_THAT(DescribeWithUses(p, a.buffers),
              ElementsAre("x 4 [0,2] external uses{0,2} values{x,in}",
                          "s 4 [1,2] external uses{} values{s,s2}",
                          "f0 4 [0,1] transient uses{1} values{f0}",
                          "f1 4 [0,1] transient uses{1} values{f1}"));
}

TEST(AnalyzeProgramTest, EntryParamsStartAtZeroAndResultsEndAtTheLastStep) {
  const Program p = Parse(R"(
    entry func @main(%x: 4, %y: 4, %unused: 4) {
      %a = exp(%x) : 4          # t0, returned early
      %dead = negate(%a) : 4    # t1, never read
      %c = add(%a, %y) : 4      # t2
      return %a, %c
    })");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_THAT(DescribeWithUses(p, a.buffers),
              ElementsAre("x 4 [0,0] external uses{0} values{x}",
                          "y 4 [0,2] external uses{2} values{y}",
                          "unused 4 [0,0] external uses{} values{unused}",
                          "a 4 [0,2] external uses{1,2} values{a}",
                          "dead 4 [1,1] transient uses{} values{dead}",
                          "c 4 [2,2] external uses{} values{c}"));
}

TEST(AnalyzeProgramTest, ProgramWithoutOpsHasOneTimeStep) {
  const Program p = Parse("entry func @main(%x: 4) { return %x }");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_EQ(a.schedule.time_steps, 0);
  EXPECT_EQ(a.buffers.time_steps, 1);
  EXPECT_THAT(DescribeWithUses(p, a.buffers), ElementsAre("x 4 [0,0] external uses{} values{x}"));
}

// Scratch buffers come after the regular ones, by op id (not by time).
TEST(AnalyzeProgramTest, ScratchBuffersFollowRegularOnesInOpOrder) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %y = call(%x) : 4 {callee = @f}   # op 0, t1
      barrier(%y) {scratch = 8}         # op 1, t2
      %zero = fill() : 0                # op 2, t3: zero-size, kept
      return %zero
    }
    func @f(%p: 4) {
      %inner = exp(%p) : 4 {scratch = 32}   # op 3, t0
      return %inner
    })");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_THAT(DescribeWithUses(p, a.buffers),
              ElementsAre("x 4 [0,1] external uses{0,1} values{x,p}",
                          "y 4 [0,2] transient uses{2} values{y,inner}",
                          "zero 0 [3,3] external uses{} values{zero}",
                          "barrier#1.scratch 8 [2,2] transient uses{2} values{}",
                          "inner.scratch 32 [0,0] transient uses{0} values{}"));
  EXPECT_EQ(a.op_buffers[1].scratch, 3);
  EXPECT_EQ(a.op_buffers[3].scratch, 4);
  EXPECT_THAT(a.op_buffers[1].results, IsEmpty());
}

TEST(AnalyzeProgramTest, LifetimesPinsOffsetsAndTimepoints) {
  const Program p = Parse(R"(
    entry func @main(%x: 32) {
      %c = constant() : 16
      %v = slice(%c) : 8 view(%c, 8)
      %tp = barrier() : timepoint
      %h = add(%x, %v, %tp) : 32 space(1) staging
      %o = exp(%h) : 32
      return %o
    })");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_THAT(DescribeWithUses(p, a.buffers),
              ElementsAre("x 32 [0,3] external uses{3} values{x}",
                          "c 16 [0,3] constant uses{1,3} values{c,v}",
                          "h 32 [3,4] staging space1 uses{4} values{h}",
                          "o 32 [4,4] external uses{} values{o}"));
  EXPECT_THAT(a.value_buffer, ElementsAre(0, 1, 1, kNoId, 2, 3));
  EXPECT_THAT(a.value_offset, ElementsAre(0, 0, 8, 0, 0, 0));
  EXPECT_EQ(a.value_ranges[p.FindValue("tp")].start, kNoId);
  EXPECT_THAT(a.op_buffers[OpNamed(p, "h")].operands, ElementsAre(0, 1, kNoId));
  EXPECT_THAT(a.op_buffers[OpNamed(p, "tp")].results, ElementsAre(kNoId));
}

TEST(AnalyzeProgramTest, AliasErrorsPropagate) {
  const Program p = Parse(R"(entry func @main(%x: 4 space(1)) {
  %y = relu(%x) : 4 tied(%x) space(0)
  return %y
})");
  ASSERT_NE(p.entry, kNoId);
  EXPECT_EQ(AnalyzeProgram(p).status(),
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
                  "test.ir:12:1: error: computation @dead is not reachable from the entry computation @main or "
                  "an initializer"));
  }
}

TEST(AnalyzeProgramTest, SameProgramTwiceGivesIdenticalBuffers) {
  constexpr std::string_view kText = R"(
    entry func @main(%x: 12) {
      %w = while(%x) : 12 {cond = @c, body = @b}
      %v = slice(%w) : 4 view(%w, 8)
      return %v
    }
    func @c(%p: 12) {
      %k = compare(%p) : 1
      return %k
    }
    func @b(%q: 12) {
      %n = add(%q) : 12 {scratch = 5}
      return %n
    })";
  const Program first = Parse(kText);
  const Program second = Parse(kText);
  ASSERT_NE(first.entry, kNoId);
  ProgramAnalysis a = Analyze(first);
  ProgramAnalysis b = Analyze(second);
  EXPECT_EQ(DescribeWithUses(first, a.buffers), DescribeWithUses(second, b.buffers));
  ASSERT_EQ(a.buffers.buffers.size(), b.buffers.buffers.size());
  for (std::size_t i = 0; i < a.buffers.buffers.size(); ++i) {
    EXPECT_EQ(a.buffers.buffers[i].values, b.buffers.buffers[i].values);
  }
  EXPECT_EQ(a.value_offset, b.value_offset);
  EXPECT_THAT(DescribeWithUses(first, a.buffers),
              ElementsAre("x 12 [0,3] external uses{0,1,2,3} values{x,w,v,p,q,n}",
                          "k 1 [0,0] transient uses{} values{k}",
                          "n.scratch 5 [1,1] transient uses{1} values{}"));
  EXPECT_THAT(a.value_offset, ElementsAre(0, 0, 8, 0, 0, 0, 0));
}

// Initializer results persist to the end of the run and default to variable.
TEST(AnalyzeProgramTest, InitializerResultsPersistAsVariables) {
  const Program p = Parse(R"(
    initializer func @init() {
      %table = splat() : 64
      %tmp = fill() : 16
      %kept = constant() : 8 transient
      return %table, %kept
    }
    entry func @main(%x: 4) {
      %a = exp(%x) : 4
      %b = relu(%a) : 4
      return %b
    })");
  ASSERT_NE(p.entry, kNoId);
  ProgramAnalysis a = Analyze(p);
  EXPECT_EQ(a.buffers.time_steps, 5);
  EXPECT_THAT(DescribeWithUses(p, a.buffers),
              ElementsAre("table 64 [0,4] variable uses{} values{table}",
                          "tmp 16 [1,1] transient uses{} values{tmp}",
                          "kept 8 [2,4] transient uses{} values{kept}",  // explicit lifetime wins
                          "x 4 [0,3] external uses{3} values{x}",
                          "a 4 [3,4] transient uses{4} values{a}",
                          "b 4 [4,4] external uses{} values{b}"));
}

TEST(AnalyzeProgramTest, CalledInitializerIsAnError) {
  TestProgram t;
  ComputationId main = t.Func("main", true);
  ComputationId init = t.Func("init");
  t.computation(init).initializer = true;
  OpId call = t.Structured(main, "call", {}, {init}, {});
  t.op(call).loc = SourceLocation{4, 3};
  EXPECT_EQ(AnalyzeProgram(t.Build()).status(),
            absl::InvalidArgumentError("test.ir:4:3: error: initializer @init must not be called"));
}

}  // namespace
}  // namespace memplan
