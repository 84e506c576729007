// The memory space assignment scenarios of msa.md §6, re-created as text-IR
// programs under that section's harness (128 B of fast memory, alignment 8,
// instruction-count picker min 2 / max 10, reference mode, entry parameters
// never produced in fast memory). Every op here is memory bound (no flops),
// so buffers are ordered by how many reads and writes they serve; the
// expected offsets follow from best fit in that order (worked out in the
// comments).
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
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
using testing::MaxOutstanding;
using testing::Segments;

// add and sub (24 B each) live in fast memory; params and the root do not.
constexpr char kSimple[] = R"(
entry func @main(%p0: f32[2,3], %p1: f32[2,3]) {
  %add = add(%p0, %p1) : f32[2,3]
  %sub = sub(%p0, %p1) : f32[2,3]
  %mul = mul(%add, %sub) : f32[2,3]
  return %mul
}
)";

TEST(ScenarioTest, Simple) {
  auto f = Load(kSimple);
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  // Equal benefit: add (lower id) first at 0, sub above it.
  EXPECT_THAT(Segments(r, f->Buffer("add")), ElementsAre("0-2@0"));
  EXPECT_THAT(Segments(r, f->Buffer("sub")), ElementsAre("1-2@24"));
  EXPECT_FALSE(r.needs_default[f->Buffer("add")]);
  EXPECT_FALSE(r.needs_default[f->Buffer("sub")]);
  for (const char* v : {"p0", "p1", "mul"}) {
    EXPECT_THAT(Segments(r, f->Buffer(v)), IsEmpty()) << v;
    EXPECT_TRUE(r.needs_default[f->Buffer(v)]) << v;
  }
  EXPECT_THAT(r.copies, IsEmpty());
  EXPECT_EQ(r.alternate_peak, 48);
  EXPECT_EQ(r.mode, "reference");
}

// tanh is read early (by %a) and again by the last op; fifteen binary ops
// in between fill the fast memory.
constexpr char kEvictAndPrefetch[] = R"(
entry func @main(%p0: f32[2,3], %p1: f32[2,3]) {
  %tanh = tanh(%p0) : f32[2,3]
  %a = add(%p0, %tanh) : f32[2,3]
  %b = sub(%p0, %p1) : f32[2,3]
  %c = mul(%p0, %p1) : f32[2,3]
  %d = sub(%p0, %p1) : f32[2,3]
  %e = mul(%a, %b) : f32[2,3]
  %f = mul(%a, %c) : f32[2,3]
  %g = mul(%a, %d) : f32[2,3]
  %h = mul(%b, %c) : f32[2,3]
  %i = mul(%b, %d) : f32[2,3]
  %j = mul(%c, %d) : f32[2,3]
  %k = add(%e, %f) : f32[2,3]
  %l = add(%g, %h) : f32[2,3]
  %m = add(%i, %j) : f32[2,3]
  %n = add(%k, %l) : f32[2,3]
  %o = add(%n, %m) : f32[2,3]
  %r = add(%o, %tanh) : f32[2,3]
  return %r
}
)";

TEST(ScenarioTest, EvictAndPrefetch) {
  auto f = Load(kEvictAndPrefetch);
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  // Order: a, b, c, d (four accesses each) take [def, last read] at 0, 24,
  // 48, 72. tanh (three) is produced at 24 for [0, 1] (a holds 0 at step 1);
  // it cannot stay until step 16 (15 steps > 10), so it is evicted over
  // (0, 2) — done before b's op at 2 takes 24, so the chunk is held through
  // step 1 only — and prefetched back for the root: the first start in
  // 6..13 with a free chunk for [start, 16] is 6, at 96. p1, an entry
  // parameter, is prefetched before the first op (start -1) for its reads
  // at 2..4, into 96 (free until tanh returns at 6).
  EXPECT_THAT(Segments(r, f->Buffer("tanh")), ElementsAre("0-1@24", "6-16@96"));
  EXPECT_THAT(Copies(r, f->Buffer("tanh")), ElementsAre("eviction 0->2", "prefetch 6->16"));
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("1-7@0"));
  EXPECT_THAT(Segments(r, f->Buffer("b")), ElementsAre("2-9@24"));
  EXPECT_THAT(Segments(r, f->Buffer("c")), ElementsAre("3-10@48"));
  EXPECT_THAT(Segments(r, f->Buffer("d")), ElementsAre("4-10@72"));
  // e is written in default memory (no room at step 5) and prefetched for
  // its read at 11 once a is gone (start 8, offset 0); i likewise at 10.
  EXPECT_THAT(Copies(r, f->Buffer("e")), ElementsAre("prefetch 8->11"));
  EXPECT_THAT(Segments(r, f->Buffer("e")), ElementsAre("8-11@0"));
  EXPECT_THAT(Segments(r, f->Buffer("i")), ElementsAre("10-13@24"));
  for (const char* v : {"f", "g", "h", "j"}) EXPECT_THAT(Segments(r, f->Buffer(v)), IsEmpty()) << v;
  // The tail reuses the exact-fit holes.
  EXPECT_THAT(Segments(r, f->Buffer("k")), ElementsAre("11-14@48"));
  EXPECT_THAT(Segments(r, f->Buffer("l")), ElementsAre("12-14@0"));
  EXPECT_THAT(Segments(r, f->Buffer("m")), ElementsAre("13-15@72"));
  EXPECT_THAT(Segments(r, f->Buffer("n")), ElementsAre("14-15@24"));
  EXPECT_THAT(Segments(r, f->Buffer("o")), ElementsAre("15-16@0"));
  EXPECT_THAT(Copies(r, f->Buffer("p1")), ElementsAre("prefetch -1->2"));
  EXPECT_THAT(Segments(r, f->Buffer("p1")), ElementsAre("0-4@96"));
  EXPECT_EQ(r.copies.size(), 5u);
}

TEST(ScenarioTest, EvictAndPrefetchWithoutCopies) {
  auto f = Load(kEvictAndPrefetch);
  MsaOptions o = HarnessOptions();
  o.max_outstanding_prefetches = 0;
  o.max_outstanding_evictions = 0;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_THAT(r.copies, IsEmpty());
  // tanh cannot be evicted, so it never enters fast memory.
  EXPECT_THAT(Segments(r, f->Buffer("tanh")), IsEmpty());
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("1-7@0"));
}

TEST(ScenarioTest, EvictAndPrefetchOneOutstandingCopy) {
  auto f = Load(kEvictAndPrefetch);
  MsaOptions o = HarnessOptions();
  o.max_outstanding_prefetches = 1;
  o.max_outstanding_evictions = 1;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_THAT(Copies(r, f->Buffer("tanh")), ElementsAre("eviction 0->2", "prefetch 6->16"));
  // e's and i's prefetches would overlap tanh's (6, 16); p1's (-1, 2) is
  // done before it starts.
  EXPECT_THAT(Copies(r, f->Buffer("p1")), ElementsAre("prefetch -1->2"));
  EXPECT_EQ(r.copies.size(), 3u);
  EXPECT_LE(MaxOutstanding(r, CopyKind::kPrefetch), 1);
  EXPECT_LE(MaxOutstanding(r, CopyKind::kEviction), 1);
}

TEST(ScenarioTest, EvictAndPrefetchTwoOutstandingCopies) {
  auto f = Load(kEvictAndPrefetch);
  MsaOptions o = HarnessOptions();
  o.max_outstanding_prefetches = 2;
  o.max_outstanding_evictions = 2;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_THAT(Copies(r, f->Buffer("tanh")), ElementsAre("eviction 0->2", "prefetch 6->16"));
  EXPECT_THAT(Copies(r, f->Buffer("e")), ElementsAre("prefetch 8->11"));
  // i's (10, 13) would be the third prefetch overlapping.
  EXPECT_THAT(Copies(r, f->Buffer("i")), IsEmpty());
  EXPECT_EQ(MaxOutstanding(r, CopyKind::kPrefetch), 2);
  EXPECT_LE(MaxOutstanding(r, CopyKind::kEviction), 2);
}

TEST(ScenarioTest, EvictAndPrefetchFifoOrdering) {
  auto f = Load(kEvictAndPrefetch);
  MsaOptions o = HarnessOptions();
  o.enforce_prefetch_fifo = true;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  // tanh's prefetch (6, 16) comes first; e's candidates (7..8, 11) and i's
  // (10, 13) would complete inside it, and e's (6, 11) runs out of memory.
  // p1's (-1, 2) nests with none of them.
  EXPECT_THAT(Copies(r, f->Buffer("tanh")), ElementsAre("eviction 0->2", "prefetch 6->16"));
  EXPECT_THAT(Copies(r, f->Buffer("p1")), ElementsAre("prefetch -1->2"));
  EXPECT_EQ(r.copies.size(), 3u);
  for (const AsyncCopy& x : r.copies) {
    for (const AsyncCopy& y : r.copies) {
      if (x.kind == CopyKind::kPrefetch && y.kind == CopyKind::kPrefetch) {
        EXPECT_FALSE(x.start < y.start && y.done < x.done);
      }
    }
  }
}

std::string Serialize(const MsaResult& r) {
  std::string s = r.mode + "/" + r.variant + "/" + std::to_string(r.alternate_peak) + "\n";
  for (std::size_t b = 0; b < r.alternate.size(); ++b) {
    s += std::to_string(b) + (r.needs_default[b] ? "D" : "-");
    for (const Allocation& a : r.alternate[b]) {
      s += " " + std::to_string(a.start) + "-" + std::to_string(a.end) + "@" + std::to_string(a.offset);
    }
    s += "\n";
  }
  for (const AsyncCopy& c : r.copies) {
    s += std::to_string(c.buffer) + ":" + std::to_string(static_cast<int>(c.kind)) + ":" +
         std::to_string(c.start) + "->" + std::to_string(c.done) + "\n";
  }
  return s;
}

TEST(ScenarioTest, DeterminismOverTenRuns) {
  for (MsaMode mode : {MsaMode::kReference, MsaMode::kDefault}) {
    MsaOptions o = HarnessOptions();
    o.mode = mode;
    auto first = Load(kEvictAndPrefetch);
    const std::string expected = Serialize(Assign(*first, o));
    for (int run = 0; run < 10; ++run) {
      auto f = Load(kEvictAndPrefetch);  // fresh program, analysis and cost model
      EXPECT_EQ(Serialize(Assign(*f, o)), expected) << "run " << run;
    }
  }
}

// add1 is read by sub1 right away and again by mul2 four steps later; the
// larger mul1/add2 pair (strongly memory bound through bytes_accessed) is
// placed first and holds offsets 0..63 during steps 2..4.
constexpr char kLastUseOpt[] = R"(
entry func @main(%p0: f32[2,2]) {
  %add1 = add(%p0, %p0) : f32[2,2]
  %sub1 = sub(%p0, %add1) : f32[2,2]
  %mul1 = mul(%sub1, %sub1) : f32[2,4] {bytes_accessed = 6400}
  %add2 = add(%mul1, %mul1) : f32[2,4] {bytes_accessed = 9600}
  %neg = negate(%add2) : f32[2,4] {bytes_accessed = 6400}
  %mul2 = mul(%add1, %p0) : f32[2,2]
  return %mul2, %neg
}
)";

TEST(ScenarioTest, LastUseOptimization) {
  auto f = Load(kLastUseOpt);
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  // Order: mul1, add2, sub1, p0, add1.
  EXPECT_THAT(Segments(r, f->Buffer("mul1")), ElementsAre("2-3@0"));
  EXPECT_THAT(Segments(r, f->Buffer("add2")), ElementsAre("3-4@32"));
  EXPECT_THAT(Segments(r, f->Buffer("sub1")), ElementsAre("1-2@32"));
  // p0 is prefetched for its read at step 5 (start 2 is the only candidate).
  EXPECT_THAT(Copies(r, f->Buffer("p0")), ElementsAre("prefetch 2->5"));
  EXPECT_THAT(Segments(r, f->Buffer("p0")), ElementsAre("2-5@64"));
  // Best fit for add1's first segment [0, 1] alone would be offset 0, which
  // mul1 needs at step 2; the look-ahead asks for [0, 5] and gets 80, so add1
  // stays in fast memory for its whole life with no copy.
  EXPECT_THAT(Segments(r, f->Buffer("add1")), ElementsAre("0-5@80"));
  EXPECT_THAT(Copies(r, f->Buffer("add1")), IsEmpty());
  EXPECT_FALSE(r.needs_default[f->Buffer("add1")]);
  EXPECT_EQ(r.copies.size(), 1u);
}

// The reference's CrossProgramPrefetch: dot(lhs 256 B, rhs 64 B).
TEST(ScenarioTest, CrossProgramPrefetch) {
  auto f = Load(R"(
entry func @main(%lhs: f32[8,8], %rhs: f32[8,2]) {
  %dot = dot(%lhs, %rhs) : f32[8,2]
  return %dot
}
)");
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  ASSERT_TRUE(r.cross_program_prefetch.has_value());
  EXPECT_EQ(r.cross_program_prefetch->buffer, f->Buffer("rhs"));
  EXPECT_EQ(r.cross_program_prefetch->offset, 0);
  EXPECT_EQ(r.cross_program_prefetch->reserved_from, 1);  // past the last step: nothing reserved
  EXPECT_FALSE(r.cross_program_prefetch->freed);
  EXPECT_THAT(Segments(r, f->Buffer("rhs")), ElementsAre("0-0@0"));
  EXPECT_THAT(Segments(r, f->Buffer("lhs")), IsEmpty());
  EXPECT_THAT(r.copies, IsEmpty());  // the data arrives before the run

  MsaOptions off = HarnessOptions();
  off.cross_program_prefetch = false;
  EXPECT_FALSE(Assign(*f, off).cross_program_prefetch.has_value());
}

// A 64 B weight read once at step 0 of a 20-step chain of 64 B transients:
// memory pressure exceeds 128 B, so the weight is freed after its read and
// refilled by an end-of-program prefetch after step max(1, 20 - 10) = 10.
std::string FreedWeightProgram() { return ReadTestData("mpir/freed_weight.mpir"); }

TEST(ScenarioTest, CrossProgramPrefetchFreedAndRefilled) {
  auto f = Load(FreedWeightProgram());
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  ASSERT_TRUE(r.cross_program_prefetch.has_value());
  EXPECT_EQ(r.cross_program_prefetch->buffer, f->Buffer("w"));  // x is a matmul's first operand
  EXPECT_EQ(r.cross_program_prefetch->offset, 0);
  EXPECT_EQ(r.cross_program_prefetch->reserved_from, 10);
  EXPECT_TRUE(r.cross_program_prefetch->freed);
  // The end-of-program prefetch is a real copy opening a segment through the
  // last step (after w's live range [0, 0]).
  EXPECT_THAT(Segments(r, f->Buffer("w")), ElementsAre("0-0@0", "10-19@0"));
  EXPECT_THAT(Copies(r, f->Buffer("w")), ElementsAre("prefetch 10->19"));
  EXPECT_EQ(testing::MaxOutstanding(r, CopyKind::kPrefetch), 1);
  // Each h_i lives [i, i+1] and takes best fit in order: h0 at 64 (w holds
  // 0 at step 0), then 0 and 64 alternate. Offset 0 is reserved again from
  // step 10, so h9 [9, 10] finds h8 at 64 and the reservation at 0 and stays
  // in default memory; from h10 on every other h_i fits at 64.
  EXPECT_THAT(Segments(r, f->Buffer("h0")), ElementsAre("0-1@64"));
  EXPECT_THAT(Segments(r, f->Buffer("h1")), ElementsAre("1-2@0"));
  EXPECT_THAT(Segments(r, f->Buffer("h8")), ElementsAre("8-9@64"));
  EXPECT_THAT(Segments(r, f->Buffer("h9")), IsEmpty());
  EXPECT_THAT(Segments(r, f->Buffer("h10")), ElementsAre("10-11@64"));
  EXPECT_THAT(Segments(r, f->Buffer("h11")), IsEmpty());

  MsaOptions keep = HarnessOptions();
  keep.cross_program_prefetch_freeing = false;
  const MsaResult kept = Assign(*f, keep);
  EXPECT_EQ(CheckResult(*f, keep, kept), "");
  ASSERT_TRUE(kept.cross_program_prefetch.has_value());
  EXPECT_EQ(kept.cross_program_prefetch->reserved_from, 1);
  EXPECT_FALSE(kept.cross_program_prefetch->freed);
  EXPECT_THAT(Copies(kept, f->Buffer("w")), IsEmpty());

  // The refill counts against the outstanding-prefetch limit; with a limit
  // of 1 it still fits (the cross-program prefetch is counted at [0, 0]).
  MsaOptions one = HarnessOptions();
  one.max_outstanding_prefetches = 1;
  const MsaResult limited = Assign(*f, one);
  EXPECT_EQ(CheckResult(*f, one, limited), "");
  ASSERT_TRUE(limited.cross_program_prefetch.has_value());
  EXPECT_TRUE(limited.cross_program_prefetch->freed);
  EXPECT_THAT(Copies(limited, f->Buffer("w")), ElementsAre("prefetch 10->19"));
}

// Op c reserves 100 B of scratch: only 28 B of the 128 B stay free at its
// step, and b is live across it.
TEST(ScenarioTest, ReservedScopedMemory) {
  auto f = Load(R"(
entry func @main(%p0: f32[2,4]) {
  %a = negate(%p0) : f32[2,4]
  %b = negate(%a) : f32[2,4]
  %c = negate(%b) : f32[2,4] {scratch = 100}
  %d = negate(%c) : f32[2,4]
  %e = negate(%d) : f32[2,4]
  %r = add(%e, %b) : f32[2,4]
  return %r
}
)");
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  BufferId scratch = kNoId;
  for (BufferId b = 0; b < static_cast<BufferId>(f->analysis.buffers.buffers.size()); ++b) {
    if (f->analysis.buffers.buffers[b].name == "c.scratch") scratch = b;
  }
  ASSERT_NE(scratch, kNoId);
  EXPECT_THAT(Segments(r, scratch), ElementsAre("2-2@0"));
  EXPECT_FALSE(r.needs_default[scratch]);
  EXPECT_THAT(Segments(r, f->Buffer("a")), ElementsAre("0-1@0"));
  EXPECT_THAT(Segments(r, f->Buffer("d")), ElementsAre("3-4@0"));
  EXPECT_THAT(Segments(r, f->Buffer("e")), ElementsAre("4-5@32"));
  EXPECT_THAT(Segments(r, f->Buffer("b")), IsEmpty());
  EXPECT_THAT(Segments(r, f->Buffer("c")), IsEmpty());
  EXPECT_THAT(r.copies, IsEmpty());
}

// Outputs written in place into the parameters: the parameters' buffers are
// the outputs', so only the program boundary needs them in default memory.
// p0 is read there by n0 at 0, prefetched (1, 6) — the first start for the
// read at 6 after that read — for the add that writes o0 into it in fast
// memory, and evicted (6, 7) so that the output is back in default memory
// before the program ends. p1's in-place write is the last op: no eviction
// could follow it, so p1 stays in default memory.
// (msa.md §6 scenario 13 expects both parameters in default memory, as the
// older reference did; memplan follows the later behaviour issue 9 asks
// for: only the program boundary requires default memory.)
TEST(ScenarioTest, InputOutputAlias) {
  auto f = Load(R"(
entry func @main(%p0: f32[2,3], %p1: f32[2,3]) {
  %n0 = negate(%p0) : f32[2,3]
  %n1 = negate(%n0) : f32[2,3]
  %n2 = negate(%n1) : f32[2,3]
  %n3 = negate(%n2) : f32[2,3]
  %n4 = negate(%n3) : f32[2,3]
  %n5 = negate(%n4) : f32[2,3]
  %o0 = add(%p0, %n5) : f32[2,3] tied(%p0)
  %o1 = negate(%p1) : f32[2,3] tied(%p1)
  return %o0, %o1
}
)");
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  EXPECT_EQ(f->Buffer("p0"), f->Buffer("o0"));
  EXPECT_EQ(f->Buffer("p1"), f->Buffer("o1"));
  EXPECT_THAT(Segments(r, f->Buffer("p0")), ElementsAre("1-6@0"));
  EXPECT_THAT(Copies(r, f->Buffer("p0")), ElementsAre("prefetch 1->6", "eviction 6->7"));
  EXPECT_THAT(Segments(r, f->Buffer("p1")), IsEmpty());
  EXPECT_THAT(Copies(r, f->Buffer("p1")), IsEmpty());
  EXPECT_TRUE(r.needs_default[f->Buffer("p0")]);
  EXPECT_TRUE(r.needs_default[f->Buffer("p1")]);
  // The chain alternates between 24 and 48 (p0 holds 0 from step 1).
  EXPECT_THAT(Segments(r, f->Buffer("n0")), ElementsAre("0-1@24"));
  EXPECT_THAT(Segments(r, f->Buffer("n2")), ElementsAre("2-3@24"));
  EXPECT_THAT(Segments(r, f->Buffer("n5")), ElementsAre("5-6@48"));
  EXPECT_EQ(r.copies.size(), 2u);
}

// The reference's negate chain: entry parameters take schedule positions
// there, so p1's copy-start comes right after them, before the first op
// (start -1), and its copy-done just before the add that reads it (done 7):
// the instruction-count picker tries [max(-1, 7 - 10), 7 - 2 - 1] = [-1, 4]
// in order and the first start has room.
TEST(ScenarioTest, NegateChainPrefetchesBeforeTheFirstOp) {
  auto f = Load(ReadTestData("mpir/negate_chain.mpir"));
  const MsaResult r = Assign(*f, HarnessOptions());
  EXPECT_EQ(CheckResult(*f, HarnessOptions(), r), "");
  EXPECT_THAT(Copies(r, f->Buffer("p1")), ElementsAre("prefetch -1->7"));
  // The chunk is reserved from step 0 (nothing runs before it); the chain,
  // allocated first (more accesses), alternates between 0 and 24.
  EXPECT_THAT(Segments(r, f->Buffer("p1")), ElementsAre("0-7@48"));
  // p0 is read by the first op: no copy can finish before it.
  EXPECT_THAT(Segments(r, f->Buffer("p0")), IsEmpty());
  EXPECT_THAT(Segments(r, f->Buffer("n0")), ElementsAre("0-1@0"));
  EXPECT_THAT(Segments(r, f->Buffer("n1")), ElementsAre("1-2@24"));
  EXPECT_EQ(r.copies.size(), 1u);
}

}  // namespace
}  // namespace memplan
