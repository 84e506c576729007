// Liveness under control flow (analysis/analyze.h, "Control flow"): the
// dead gaps of conditional results, results live across later and nested
// conditionals, unused values inside branches and loop bodies, loop-carried
// buffers and outer values read inside a loop. Times are in the comments.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "analysis/live_profile.h"
#include "tests/analysis/test_program.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::Analyze;
using testing::Parse;

std::vector<std::string> DescribeWithoutUses(const Program& program, const BufferSet& set) {
  return testing::DescribeBuffers(program, set, /*with_uses=*/false);
}

// Branch @a needs 4096 + 1024 bytes, branch @b 3072 + 3072 (then 3072 +
// 1024). The result {y, ay, by} holds nothing in @b before %by: steps 2-3.
constexpr const char* kTwoBranches = R"(
  entry func @main(%flag: pred[], %x: 1024) {
    %y = conditional(%flag, %x) : 1024 {branches = [@a, @b]}   # t5
    %z = mul(%y, %x) : 1024                                    # t6
    return %z
  }
  func @a(%ax: 1024) {
    %a1 = exp(%ax) : 4096       # t0
    %ay = negate(%a1) : 1024    # t1
    return %ay
  }
  func @b(%bx: 1024) {
    %b1 = exp(%bx) : 3072       # t2
    %b2 = negate(%b1) : 3072    # t3
    %by = add(%b2) : 1024       # t4
    return %by
  })";

TEST(ControlFlowLivenessTest, ConditionalResultHasADeadGapInTheLaterBranch) {
  const Program p = Parse(kTwoBranches);
  ASSERT_NE(p.entry, kNoId);
  const ProgramAnalysis a = Analyze(p);
  EXPECT_EQ(a.buffers.time_steps, 7);
  EXPECT_THAT(DescribeWithoutUses(p, a.buffers),
              ElementsAre("flag 1 [0,5] external values{flag}",
                          "x 1024 [0,6] external values{x,ax,bx}",
                          "y 1024 [1,6] transient values{y,ay,by} gap[2,3]",
                          "z 1024 [6,6] external values{z}",
                          "a1 4096 [0,1] transient values{a1}",
                          "b1 3072 [2,3] transient values{b1}",
                          "b2 3072 [3,4] transient values{b2}"));
}

// The profile counts the result only where it holds data: the bound is the
// larger branch (6144 at t3), not 7168 (the result over all of @b as well).
TEST(ControlFlowLivenessTest, LiveProfileSkipsDeadGaps) {
  const Program p = Parse(kTwoBranches);
  ASSERT_NE(p.entry, kNoId);
  const ProgramAnalysis a = Analyze(p);
  const LiveProfile transient = ComputeLiveProfile(
      a.buffers, [](const Buffer& b) { return b.lifetime == Lifetime::kTransient; });
  EXPECT_THAT(transient.changes, ElementsAre(LiveChange{0, 4096}, LiveChange{1, 5120},
                                             LiveChange{2, 3072}, LiveChange{3, 6144},
                                             LiveChange{4, 4096}, LiveChange{5, 1024}));
  EXPECT_EQ(transient.peak, 6144);
  EXPECT_EQ(transient.peak_time, 3);
}

// r1 escapes to the outer scope and stays live across the next conditional
// (t7-t10) until %out reads it; inside it, it is dead at t1 (@q before its
// nested conditional) and t3 (@v before %v2). r2 is dead at t8 (@t before %t2).
TEST(ControlFlowLivenessTest, NestedConditionalResultsLiveAcrossTheNextConditional) {
  const Program p = Parse(R"(
    entry func @main(%flag: pred[], %x: 64) {
      %r1 = conditional(%flag, %x) : 64 {branches = [@p, @q]}   # t6
      %r2 = conditional(%flag, %x) : 64 {branches = [@s, @t]}   # t10
      %out = add(%r1, %r2) : 64                                 # t11
      return %out
    }
    func @p(%px: 64) { %p1 = exp(%px) : 64  return %p1 }        # t0
    func @q(%qx: 64) {
      %qf = compare(%qx) : pred[]                                # t1
      %qr = conditional(%qf, %qx) : 64 {branches = [@u, @v]}    # t5
      return %qr
    }
    func @u(%ux: 64) { %u1 = negate(%ux) : 64  return %u1 }     # t2
    func @v(%vx: 64) {
      %v1 = exp(%vx) : 256                                       # t3
      %v2 = negate(%v1) : 64                                     # t4
      return %v2
    }
    func @s(%sx: 64) { %s1 = exp(%sx) : 64  return %s1 }        # t7
    func @t(%tx: 64) {
      %t1 = exp(%tx) : 512                                       # t8
      %t2 = negate(%t1) : 64                                     # t9
      return %t2
    })");
  ASSERT_NE(p.entry, kNoId);
  const ProgramAnalysis a = Analyze(p);
  EXPECT_EQ(a.buffers.time_steps, 12);
  EXPECT_THAT(DescribeWithoutUses(p, a.buffers),
              ElementsAre("flag 1 [0,10] external values{flag}",
                          "x 64 [0,10] external values{x,px,qx,ux,vx,sx,tx}",
                          "r1 64 [0,11] transient values{r1,p1,qr,u1,v2} gap[1,1] gap[3,3]",
                          "r2 64 [7,11] transient values{r2,s1,t2} gap[8,8]",
                          "out 64 [11,11] external values{out}",
                          "qf 1 [1,5] transient values{qf}",
                          "v1 256 [3,4] transient values{v1}",
                          "t1 512 [8,9] transient values{t1}"));
  const LiveProfile transient = ComputeLiveProfile(
      a.buffers, [](const Buffer& b) { return b.lifetime == Lifetime::kTransient; });
  EXPECT_THAT(transient.changes,
              ElementsAre(LiveChange{0, 64}, LiveChange{1, 1}, LiveChange{2, 65},
                          LiveChange{3, 257}, LiveChange{4, 321}, LiveChange{5, 65},
                          LiveChange{6, 64}, LiveChange{7, 128}, LiveChange{8, 576},
                          LiveChange{9, 640}, LiveChange{10, 128}));
  EXPECT_EQ(transient.peak, 640);
}

// Values nobody reads, in a branch (%dead) and in a loop body (%unused), are
// buffers live at their own step. A branch returning its parameter makes the
// result share the argument's buffer (live throughout: no gap), and the
// while makes it one loop-carried buffer with cond/body parameters and the
// body result.
TEST(ControlFlowLivenessTest, UnusedValuesInBranchesAndBodiesGetStorage) {
  const Program p = Parse(R"(
    entry func @main(%flag: pred[], %x: 16) {
      %x1 = exp(%x) : 16                                         # t0
      %c = conditional(%flag, %x1) : 16 {branches = [@a, @b]}   # t3
      %w = while(%c) : 16 {cond = @wc, body = @wb}               # t7
      %r = negate(%w) : 16                                       # t8
      return %r
    }
    func @a(%ax: 16) {
      %dead = exp(%ax) : 32                                      # t1
      %ar = negate(%ax) : 16                                     # t2
      return %ar
    }
    func @b(%bx: 16) { return %bx }                              # (empty)
    func @wc(%cp: 16) { %k = compare(%cp) : pred[]  return %k }  # t4
    func @wb(%bp: 16) {
      %unused = exp(%bp) : 8                                     # t5
      %n = negate(%bp) : 16                                      # t6
      return %n
    })");
  ASSERT_NE(p.entry, kNoId);
  const ProgramAnalysis a = Analyze(p);
  EXPECT_EQ(a.buffers.time_steps, 9);
  EXPECT_THAT(DescribeWithoutUses(p, a.buffers),
              ElementsAre("flag 1 [0,3] external values{flag}",
                          "x 16 [0,0] external values{x}",
                          "x1 16 [0,8] transient values{x1,c,w,ax,ar,bx,cp,bp,n}",
                          "r 16 [8,8] external values{r}",
                          "dead 32 [1,1] transient values{dead}",
                          "k 1 [4,4] transient values{k}",
                          "unused 8 [5,5] transient values{unused}"));
}

// The loop-carried values are one buffer without gaps, and %k, which the
// body reads (passed in as a loop-carried value it returns unchanged), stays
// live across the whole loop, cond included.
TEST(ControlFlowLivenessTest, LoopCarriedBufferAndOuterValueLiveAcrossTheLoop) {
  const Program p = Parse(R"(
    entry func @main(%x: 4) {
      %i0 = exp(%x) : 4                                          # t0
      %k = negate(%x) : 8                                        # t1
      %i, %kk = while(%i0, %k) : 4, 8 {cond = @c, body = @b}     # t5
      %r = add(%i) : 4                                           # t6
      return %r
    }
    func @c(%ci: 4, %ck: 8) { %p = compare(%ci) : pred[]  return %p }   # t2
    func @b(%bi: 4, %bk: 8) {
      %m = mul(%bi, %bk) : 4                                     # t3
      %n = add(%m) : 4 tied(%m)                                  # t4
      return %n, %bk
    })");
  ASSERT_NE(p.entry, kNoId);
  const ProgramAnalysis a = Analyze(p);
  EXPECT_THAT(DescribeWithoutUses(p, a.buffers),
              ElementsAre("x 4 [0,1] external values{x}",
                          "i0 4 [0,6] transient values{i0,i,ci,bi,m,n}",
                          "k 8 [1,5] transient values{k,kk,ck,bk}",
                          "r 4 [6,6] external values{r}",
                          "p 1 [2,2] transient values{p}"));
}

}  // namespace
}  // namespace memplan
