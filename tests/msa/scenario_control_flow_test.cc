// Programs with while / conditional / call: callees are straight-line code,
// loop-carried, passed-in and branch-result buffers use fast memory across
// and inside loops and branches (msa/control_scopes.h), and every result
// checks out.
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/rewrite.h"
#include "tests/msa/allocator_test_util.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Assign;
using testing::CheckResult;
using testing::Copies;
using testing::HarnessOptions;
using testing::Load;
using testing::Segments;

TEST(ControlFlowTest, BundledExamplesPlanAndCheck) {
  for (const char* name : {"basic.mpir", "mlp.mpir", "while_loop.mpir", "rnn_loop.mpir", "conditional.mpir",
                           "call.mpir", "async_copy.mpir", "region.mpir"}) {
    auto f = Load(ReadExample(name), testing::TestTarget());
    ASSERT_NE(f, nullptr) << name;
    for (PickerKind picker : {PickerKind::kInstructionCount, PickerKind::kCostAnalysis}) {
      for (MsaMode mode : {MsaMode::kReference, MsaMode::kDefault}) {
        for (Bytes fast : {Bytes{0}, Bytes{128}, Bytes{4096}, Bytes{1} << 20}) {
          MsaOptions o = HarnessOptions();
          o.picker = picker;
          o.mode = mode;
          o.fast_memory_bytes = fast;
          o.max_outstanding_prefetches = 2;
          o.enforce_prefetch_fifo = true;
          absl::StatusOr<MsaResult> r = AssignMemorySpaces(f->program, f->analysis, *f->cost, o);
          if (std::string(name) == "async_copy.mpir" && fast < 4096) {
            // Its 4 KiB copy destination is pinned to fast memory.
            EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted) << fast;
            continue;
          }
          ASSERT_TRUE(r.ok()) << name << ": " << r.status();
          EXPECT_EQ(CheckResult(*f, o, *r), "") << name << " fast " << fast;
        }
      }
    }
  }
}

TEST(ControlFlowTest, WhileBodyTemporariesUseFastMemory) {
  auto f = Load(R"(
entry func @main(%x: f32[4], %w: f32[4] constant) {
  %h0 = negate(%x) : f32[4]
  %h, %wo = while(%h0, %w) : f32[4], f32[4] {cond = @cond, body = @body, trip_count = 3}
  %y = negate(%h) : f32[4]
  return %y
}
func @cond(%c: f32[4], %cw: f32[4]) {
  %p = compare(%c, %cw) : pred[]
  return %p
}
func @body(%b: f32[4], %bw: f32[4]) {
  %t1 = mul(%b, %bw) : f32[4]
  %t2 = negate(%t1) : f32[4]
  %t3 = add(%t2, %t1) : f32[4]
  return %t3, %bw
}
)");
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  // Steps: h0 0, p 1, t1 2, t2 3, t3 4, while 5, y 6.
  EXPECT_THAT(Segments(r, f->Buffer("t1")), ElementsAre("2-4@0"));
  EXPECT_THAT(Segments(r, f->Buffer("t2")), ElementsAre("3-4@32"));
  // The loop-carried buffer h0 = c = b = t3 = h is produced in fast memory
  // before the loop and keeps one offset before, inside and after it.
  EXPECT_THAT(Segments(r, f->Buffer("h0")), ElementsAre("0-6@16"));
  EXPECT_FALSE(r.needs_default[f->Buffer("h0")]);
  // The weight w = cw = bw = wo is first read at step 1 (the condition):
  // too early for a prefetch before the loop or inside it.
  EXPECT_THAT(Segments(r, f->Buffer("w")), IsEmpty());
  EXPECT_THAT(r.copies, IsEmpty());
}

TEST(ControlFlowTest, ConditionalBranchTemporariesUseFastMemory) {
  auto f = Load(R"(
entry func @main(%flag: pred[], %x: f32[4]) {
  %y = conditional(%flag, %x) : f32[4] {branches = [@smooth, @clip]}
  %z = mul(%y, %x) : f32[4]
  return %z
}
func @smooth(%sx: f32[4]) {
  %se = exp(%sx) : f32[4]
  %st = negate(%se) : f32[4]
  %sy = add(%st, %se) : f32[4]
  return %sy
}
func @clip(%cx: f32[4]) {
  %cy = clamp(%cx) : f32[4]
  return %cy
}
)");
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  // Steps: se 0, st 1, sy 2, cy 3, conditional 4, z 5.
  EXPECT_THAT(Segments(r, f->Buffer("se")), ElementsAre("0-2@0"));
  EXPECT_THAT(Segments(r, f->Buffer("st")), ElementsAre("1-2@32"));
  // The result y = sy = cy is produced in fast memory by both branches,
  // at one offset, and read there after the conditional.
  EXPECT_THAT(Segments(r, f->Buffer("y")), ElementsAre("2-5@16"));
  EXPECT_FALSE(r.needs_default[f->Buffer("y")]);
  // x is first read at step 0: no room for a prefetch before the
  // conditional or inside a branch.
  for (const char* v : {"x", "flag"}) EXPECT_THAT(Segments(r, f->Buffer(v)), IsEmpty()) << v;
  EXPECT_THAT(r.copies, IsEmpty());
  EXPECT_TRUE(RewriteSchedule(f->program, f->analysis, r).ok());
}

TEST(ControlFlowTest, CalleeScratchGoesToFastMemory) {
  auto f = Load(ReadExample("call.mpir"));
  MsaOptions o = HarnessOptions();
  o.fast_memory_bytes = 4096;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  BufferId scratch = kNoId;
  for (BufferId b = 0; b < static_cast<BufferId>(f->analysis.buffers.buffers.size()); ++b) {
    if (f->analysis.buffers.buffers[b].name == "out.scratch") scratch = b;
  }
  ASSERT_NE(scratch, kNoId);
  EXPECT_THAT(Segments(r, scratch), ElementsAre("0-0@0"));  // layernorm runs first
  EXPECT_FALSE(r.needs_default[scratch]);
  for (const char* v : {"x", "y", "n"}) EXPECT_THAT(Segments(r, f->Buffer(v)), IsEmpty()) << v;
}


// A callee runs once, in place: the caller's %a is read inside @f and again
// after the call, and stays in fast memory throughout.
TEST(ControlFlowTest, CallIsStraightLineCode) {
  auto f = Load(R"(
entry func @main(%x: f32[4]) {
  %a = exp(%x) : f32[4]
  %y = call(%a) : f32[4] {callee = @f}
  %z = add(%y, %a) : f32[4]
  return %z
}
func @f(%fa: f32[4]) {
  %m = mul(%fa, %fa) : f32[4]
  %n = negate(%m) : f32[4]
  return %n
}
)");
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  // Steps: a 0, m 1, n 2, call 3, z 4. a = fa and n = y cross the call.
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-4@0"));
  EXPECT_THAT(Segments(r, f->Buffer("n")), ElementsAre("2-4@16"));
  EXPECT_THAT(Segments(r, f->Buffer("m")), ElementsAre("1-2@32"));
  EXPECT_TRUE(RewriteSchedule(f->program, f->analysis, r).ok());
  EXPECT_FALSE(r.needs_default[f->Buffer("a")]);
  EXPECT_THAT(r.copies, IsEmpty());
}

// A weight passed into a loop and read by every iteration: prefetched once
// before the loop, its chunk stays for the whole loop.
TEST(ControlFlowTest, PassedInWeightIsPrefetchedBeforeTheLoop) {
  auto f = Load(R"(
entry func @main(%x: f32[4], %w: f32[4]) {
  %a = negate(%x) : f32[4]
  %b = negate(%a) : f32[4]
  %c = negate(%b) : f32[4]
  %d = negate(%c) : f32[4]
  %h, %wo = while(%d, %w) : f32[4], f32[4] {cond = @cond, body = @body, trip_count = 4}
  %y = add(%h, %wo) : f32[4]
  return %y
}
func @cond(%ch: f32[4], %cw: f32[4]) {
  %p = compare(%ch, %cw) : pred[]
  return %p
}
func @body(%bh: f32[4], %bw: f32[4]) {
  %t = mul(%bh, %bw) : f32[4]
  %u = add(%t, %bw) : f32[4]
  return %u, %bw
}
)");
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  // Steps: a..d 0-3, p 4, t 5, u 6, while 7, y 8. w = cw = bw = wo, an
  // entry parameter, is prefetched before the first op, done before d (the last step before the loop), and
  // its chunk stays through the loop to y.
  EXPECT_THAT(Segments(r, f->Buffer("w")), ElementsAre("0-8@0"));
  EXPECT_THAT(Copies(r, f->Buffer("w")), ElementsAre("prefetch -1->3"));
  // The carried state d = ch = bh = u = h is produced in fast memory and
  // keeps one offset through the loop.
  EXPECT_THAT(Segments(r, f->Buffer("d")), ElementsAre("3-8@16"));
  EXPECT_THAT(Copies(r, f->Buffer("d")), IsEmpty());
  // The rewrite passes the prefetched weight into the loop.
  absl::StatusOr<Program> out = RewriteSchedule(f->program, f->analysis, r);
  ASSERT_TRUE(out.ok()) << out.status();
  for (const Op& op : out->ops) {
    if (op.kind == OpKind::kWhile) {
      EXPECT_EQ(out->values[op.operands[1]].name, "w.prefetched");
    }
  }
}

// msa.md §6 scenario 7, AvoidRedundantEvictionInWhile: (copy of p0, p0,
// pred) go into a loop whose body reads element 1 early (tanh) and passes it
// through unchanged, while element 0 runs through 15 negates.
constexpr char kAvoidRedundantEvictionInWhile[] = R"(
entry func @main(%p0: f32[3], %p1: pred[]) {
  %c = copy(%p0) : f32[3]
  %w0, %w1, %w2 = while(%c, %p0, %p1) : f32[3], f32[3], pred[] {cond = @cond, body = @body}
  %r = negate(%w1) : f32[3]
  return %r
}
func @cond(%c0: f32[3], %c1: f32[3], %c2: pred[]) {
  return %c2
}
func @body(%b0: f32[3], %b1: f32[3], %b2: pred[]) {
  %t = tanh(%b1) : f32[3]
  %n0 = negate(%b0) : f32[3]
  %n1 = negate(%n0) : f32[3]
  %n2 = negate(%n1) : f32[3]
  %n3 = negate(%n2) : f32[3]
  %n4 = negate(%n3) : f32[3]
  %n5 = negate(%n4) : f32[3]
  %n6 = negate(%n5) : f32[3]
  %n7 = negate(%n6) : f32[3]
  %n8 = negate(%n7) : f32[3]
  %n9 = negate(%n8) : f32[3]
  %n10 = negate(%n9) : f32[3]
  %n11 = negate(%n10) : f32[3]
  %n12 = negate(%n11) : f32[3]
  %n13 = negate(%n12) : f32[3]
  %n14 = negate(%n13) : f32[3]
  %a = add(%n14, %t) : f32[3]
  return %a, %b1, %b2
}
)";

TEST(ControlFlowTest, AvoidRedundantEvictionInWhile) {
  auto f = Load(kAvoidRedundantEvictionInWhile);
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  // Steps: c 0, body t 1, n0..n14 2-16, a 17, while 18, r 19.
  const BufferId p0 = f->Buffer("p0");  // = b1 = c1 = w1
  EXPECT_EQ(p0, f->Buffer("w1"));
  // The while output {1} is in fast memory: a prefetch at the end of the
  // body (every iteration) fills the chunk that the read after the loop uses.
  // The copy starts at the earliest start the picker allows (17 - 10) and is
  // done before the body's last op; the chunk is held until r reads it.
  EXPECT_THAT(Segments(r, p0), ElementsAre("7-19@48"));
  EXPECT_THAT(Copies(r, p0), ElementsAre("prefetch 7->17"));
  EXPECT_TRUE(r.needs_default[p0]);
  // No eviction anywhere: the default copy of p0 is never stale, so nothing
  // is written back at the end of the body.
  // (t, read 16 steps after tanh writes it, is prefetched for the add.)
  EXPECT_THAT(Copies(r, f->Buffer("t")), ElementsAre("prefetch 7->17"));
  EXPECT_EQ(r.copies.size(), 2u);
  for (const AsyncCopy& c : r.copies) EXPECT_EQ(c.kind, CopyKind::kPrefetch);
  // Element 0 (c = c0 = b0 = a = w0) is in fast memory at one offset before,
  // inside and after the loop (aliased offsets).
  EXPECT_THAT(Segments(r, f->Buffer("c")), ElementsAre("0-18@64"));
  EXPECT_FALSE(r.needs_default[f->Buffer("c")]);
  // In the rewritten body, the root's element 1 is the prefetch of the body
  // parameter element.
  absl::StatusOr<Program> out = RewriteSchedule(f->program, f->analysis, r);
  ASSERT_TRUE(out.ok()) << out.status();
  for (const Computation& c : out->computations) {
    if (c.name == "body") {
      EXPECT_EQ(out->values[c.results[1]].name, "b1.prefetched");
    }
  }
}

}  // namespace
}  // namespace memplan
