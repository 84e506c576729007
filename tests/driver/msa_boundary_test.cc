// The program boundary in memory space assignment, end to end (plan, verify,
// rewrite): an entry parameter's prefetch issued before the first op (start
// -1), and a parameter that is also an output, updated in place in fast
// memory and evicted back before the program ends. Each plan is then broken
// by hand to show that the verifier, which knows the program, rejects it.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "driver/plan_job.h"
#include "tests/driver/plan_job_lookup.h"
#include "tests/test_data.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Plans `text` like the MSA harness (msa.md §6): reference mode,
// instruction-count picker (min 2, max 10 steps), 128 B of fast memory (by
// default) at alignment 8; also writes the rewritten program.
absl::StatusOr<PlanJobResult> PlanText(const std::string& name, const std::string& text,
                                       Bytes fast_memory = 128) {
  const std::string path = TestTempPath(name + ".mpir");
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return absl::InternalError("cannot write " + path);
  std::fputs(text.c_str(), f);
  std::fclose(f);
  PlanJobOptions options;
  options.msa.emplace();
  options.msa->fast_memory_bytes = fast_memory;
  options.msa->fast_memory_alignment = 8;
  options.msa->msa.mode = MsaMode::kReference;
  options.msa->msa.picker = PickerKind::kInstructionCount;
  options.emit_ir_path = TestTempPath(name + ".out.mpir");
  return RunPlanJob(path, options);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> CopiesOf(const PlanJobResult& r, BufferId id) {
  std::vector<std::string> out;
  for (const AsyncCopy& c : r.plan.copies) {
    if (c.buffer != id) continue;
    out.push_back(std::string(c.kind == CopyKind::kPrefetch ? "prefetch " : "eviction ") +
                  std::to_string(c.start) + "->" + std::to_string(c.done));
  }
  return out;
}

// The verifier's message for `plan`, with the program (or without it), or "OK".
std::string Verify(const PlanJobResult& r, const Plan& plan, bool with_program = true) {
  const absl::Status s = VerifyAgainst(r.input.buffers, plan, -1, -1,
                                       with_program ? &*r.input.program : nullptr);
  return s.ok() ? "OK" : std::string(s.message());
}

// The reference's negate chain: p1's copy-start comes right after the
// parameters, before the first op, and its copy-done just before the add.
TEST(MsaBoundaryTest, NegateChainPrefetchIsIssuedBeforeTheFirstOp) {
  absl::StatusOr<PlanJobResult> r =
      PlanText("negate_chain", ReadTestData("mpir/negate_chain.mpir"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->plan.verified);
  const BufferId p1 = Find(*r, "p1");
  EXPECT_THAT(CopiesOf(*r, p1), ElementsAre("prefetch -1->7"));
  // The chunk is reserved from step 0: nothing runs before it.
  const AllocationList& segs = r->plan.placements[p1].allocations;
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(segs[1].space, kAlternateSpace);
  EXPECT_EQ(segs[1].start, 0);
  EXPECT_EQ(segs[1].end, 7);
  const std::string ir = ReadFile(TestTempPath("negate_chain.out.mpir"));
  EXPECT_THAT(ir, HasSubstr("(%p0: f32[2,3], %p1: f32[2,3]) {\n"
                            "  %p1.prefetch = copy-start(%p1) : f32[2,3] space(1)\n"
                            "  %n0 = negate(%p0)"));
  EXPECT_THAT(ir, HasSubstr("  %p1.prefetched = copy-done(%p1.prefetch) : f32[2,3] space(1)\n"
                            "  %add = add(%n6, %p1.prefetched)"));
  // Without the program the verifier cannot tell that p1's data exists
  // before the run.
  EXPECT_THAT(Verify(*r, r->plan, false), HasSubstr("is issued before the first op (start -1)"));
  // Nor may a buffer defined by an op be copied before the first op.
  Plan broken = r->plan;
  const BufferId n0 = Find(*r, "n0");
  broken.placements[n0].allocations = {Allocation{kDefaultSpace, 1 << 20, 0, 1},
                                       Allocation{kAlternateSpace, 96, 0, 1}};
  broken.copies.push_back(
      AsyncCopy{n0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, -1, 1, 24});
  EXPECT_THAT(Verify(*r, broken), HasSubstr("holds no entry parameter"));
}

// p0 is also the output o2: the add and the relu write it in place (tied).
constexpr char kInPlaceParameterOutput[] = R"(entry func @main(%p0: f32[2,3], %p1: f32[2,3]) {
  %n0 = negate(%p0) : f32[2,3]
  %n1 = negate(%n0) : f32[2,3]
  %n2 = negate(%n1) : f32[2,3]
  %n3 = negate(%n2) : f32[2,3]
  %n4 = negate(%n3) : f32[2,3]
  %o = add(%p0, %n4) : f32[2,3] tied(%p0)
  %o2 = relu(%o) : f32[2,3] tied(%o)
  %o1 = negate(%p1) : f32[2,3] tied(%p1)
  return %o2, %o1
}
)";

TEST(MsaBoundaryTest, ParameterOutputWrittenInPlaceInFastMemoryIsEvicted) {
  absl::StatusOr<PlanJobResult> r = PlanText("in_place_output", kInPlaceParameterOutput);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->plan.verified);
  const BufferId p0 = Find(*r, "p0");
  // Read by n0 at 0 in default memory, prefetched (1,5) for the add — the
  // first start after that read —, written there and by the relu at 6 in
  // fast memory, evicted back (6,7) into its default chunk before the
  // program ends. p1 is written by the last op: no eviction could follow.
  EXPECT_THAT(CopiesOf(*r, p0), ElementsAre("prefetch 1->5", "eviction 6->7"));
  EXPECT_THAT(CopiesOf(*r, Find(*r, "p1")), ElementsAre());
  // The rewrite returns the evicted copy: the output leaves in default
  // memory (as a new value: the IR cannot say that a copy-done writes into
  // the parameter's storage).
  const std::string ir = ReadFile(TestTempPath("in_place_output.out.mpir"));
  EXPECT_THAT(ir, HasSubstr("  %p0.prefetched = copy-done(%p0.prefetch) : f32[2,3] space(1)\n"
                            "  %o = add(%p0.prefetched, %n4) : f32[2,3] tied(%p0.prefetched)\n"
                            "  %o2 = relu(%o) : f32[2,3] tied(%o)\n"
                            "  %o2.evict = copy-start(%o2) : f32[2,3] space(0)\n"
                            "  %o2.evicted = copy-done(%o2.evict) : f32[2,3] space(0)\n"
                            "  %o1 = negate(%p1) : f32[2,3] tied(%p1)\n"
                            "  return %o2.evicted, %o1\n"));

  std::size_t eviction = r->plan.copies.size();
  for (std::size_t i = 0; i < r->plan.copies.size(); ++i) {
    if (r->plan.copies[i].kind == CopyKind::kEviction) eviction = i;
  }
  ASSERT_LT(eviction, r->plan.copies.size());
  // Never evicted: the output would end in fast memory.
  Plan broken = r->plan;
  broken.copies.erase(broken.copies.begin() + static_cast<std::ptrdiff_t>(eviction));
  broken.msa->evictions = 0;
  broken.msa->eviction_bytes = 0;
  EXPECT_EQ(Verify(*r, broken),
            "buffer 'p0' (id 0) is written at time 6 in buffer 'p0' (id 0) allocation 1 (space 1, "
            "bytes [0, 24), time [1, 6]) but no eviction from it starts at or after that write, "
            "although it holds an entry parameter or result, whose data must end in the default "
            "space");
  // Evicted after the add but before the relu's write: the default copy
  // would miss the relu.
  broken = r->plan;
  broken.copies[eviction].start = 5;
  EXPECT_EQ(Verify(*r, broken),
            "buffer 'p0' (id 0) is written at time 6 in buffer 'p0' (id 0) allocation 1 (space 1, "
            "bytes [0, 24), time [1, 6]) but no eviction from it starts at or after that write, "
            "although it holds an entry parameter or result, whose data must end in the default "
            "space");
  // Without the program the verifier knows no write times: both pass rule 10
  // (the plan format has none).
  EXPECT_EQ(Verify(*r, broken, false), "OK");
}

// Fast memory for one f32[2,3] (24 B; the f32[4,4] chain never fits): x is
// evicted (0,2) and p2's prefetch starts at 2, when that eviction is done.

TEST(MsaBoundaryTest, EvictionDoneAndPrefetchStartShareOneChunk) {
  absl::StatusOr<PlanJobResult> r = PlanText("evict_then_prefetch", ReadTestData("mpir/evict_then_prefetch.mpir"), 24);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->plan.verified);
  const BufferId x = Find(*r, "x");
  const BufferId p2 = Find(*r, "p2");
  EXPECT_THAT(CopiesOf(*r, x), ElementsAre("eviction 0->2", "prefetch 6->16"));
  EXPECT_THAT(CopiesOf(*r, p2), ElementsAre("prefetch 2->5"));
  // The prefetch issued one step earlier would write into bytes the
  // eviction still reads.
  Plan broken = r->plan;
  for (AsyncCopy& c : broken.copies) {
    if (c.buffer == p2) c.start = 1;
  }
  for (Allocation& a : broken.placements[p2].allocations) {
    if (a.space == kAlternateSpace) a.start = 1;
  }
  EXPECT_THAT(Verify(*r, broken), HasSubstr("overlaps buffer 'x'"));
}

}  // namespace
}  // namespace memplan
