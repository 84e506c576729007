// Regression: a buffer rewritten in place in fast memory is evicted back into
// the default chunk it already has (a *refresh*). The driver reports one
// default segment per buffer, from the first time default memory holds the
// data (driver/pools.h), so the second and later evictions of a buffer — or
// the first one when it was produced in default memory — open no segment;
// the verifier must accept them as refreshes (verify/verifier.h rule 4).
// Real models hit both shapes: mobilenet_v2's residual adds and
// bert_base_seq128's embedding sum are in-place writes into one alias set.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "driver/plan_job.h"
#include "tests/driver/plan_job_lookup.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;

// Step t runs the op listed for t, else a filler `%f<t> = negate(%big)`
// whose 4 KiB result never fits the fast memory, so only x and y (64 B each)
// compete for it:
//   x is produced at 0 and rewritten in place (tied) at 12, read at 24;
//   y is produced at 1, read at 2, rewritten in place at 14, read at 26.
// Each gap exceeds the instruction-count picker's 10 steps, so the data
// leaves fast memory after every access and comes back before the next.
std::string RefreshProgram() {
  const std::map<int, std::string> ops = {
      {0, "%x = exp(%p) : f32[16]"},
      {1, "%y = exp(%p) : f32[16]"},
      {2, "%u = add(%y, %big) : f32[1024]"},
      {12, "%x2 = relu(%x) : f32[16] tied(%x)"},
      {14, "%y2 = relu(%y) : f32[16] tied(%y)"},
      {24, "%rx = negate(%x2) : f32[16]"},
      {26, "%ry = negate(%y2) : f32[16]"},
  };
  std::string text = "entry func @main(%p: f32[16], %big: f32[1024]) {\n";
  for (int t = 0; t <= 26; ++t) {
    auto it = ops.find(t);
    text += "  " + (it != ops.end() ? it->second
                                    : "%f" + std::to_string(t) + " = negate(%big) : f32[1024]") +
            "\n";
  }
  return text + "  return %rx, %ry\n}\n";
}

absl::StatusOr<PlanJobResult> PlanRefreshProgram(MsaMode mode) {
  const std::string path = TestTempPath("refresh.mpir");
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return absl::InternalError("cannot write " + path);
  std::fputs(RefreshProgram().c_str(), f);
  std::fclose(f);
  PlanJobOptions options;
  options.msa.emplace();
  options.msa->target = "edge-npu";  // alternate offsets aligned to 64
  options.msa->fast_memory_bytes = 256;
  options.msa->msa.mode = mode;
  options.msa->msa.picker = PickerKind::kInstructionCount;  // min 2, max 10 steps
  return RunPlanJob(path, options);
}

// "prefetch start->done" / "eviction start->done" for each copy of buffer
// `id`, after checking its spaces and bytes (64).
std::vector<std::string> CheckedCopiesOf(const PlanJobResult& r, BufferId id) {
  std::vector<std::string> out;
  for (const AsyncCopy& c : r.plan.copies) {
    if (c.buffer != id) continue;
    const bool prefetch = c.kind == CopyKind::kPrefetch;
    EXPECT_EQ(c.from_space, prefetch ? kDefaultSpace : kAlternateSpace);
    EXPECT_EQ(c.to_space, prefetch ? kAlternateSpace : kDefaultSpace);
    EXPECT_EQ(c.bytes, 64);
    out.push_back(std::string(prefetch ? "prefetch " : "eviction ") + std::to_string(c.start) +
                  "->" + std::to_string(c.done));
  }
  return out;
}

TEST(MsaRefreshTest, InPlaceWritesInFastMemoryRefreshTheDefaultChunk) {
  absl::StatusOr<PlanJobResult> r = PlanRefreshProgram(MsaMode::kReference);
  ASSERT_TRUE(r.ok()) << r.status();  // Internal if the plan failed verification
  EXPECT_TRUE(r->plan.verified);
  EXPECT_EQ(r->plan.msa->prefetches, 4);
  EXPECT_EQ(r->plan.msa->evictions, 3);

  // x: produced in default memory (its next access is 12 steps away), so its
  // default chunk spans the whole live range [0, 24]. Prefetched (2,12) for
  // the in-place write at 12 — the first start the picker tries, 12 - 10 —
  // which leaves the default copy stale, so it is evicted (12,14) back into
  // that chunk: a refresh; the eviction is done before the op at 14, so its
  // source is held through 13. Prefetched again (14,24) for the read at 24.
  const BufferId x = Find(*r, "x");
  const Bytes x_default = r->plan.placements[x].allocations[0].offset;
  EXPECT_EQ(r->plan.placements[x].allocations,
            (std::vector<Allocation>{{kDefaultSpace, x_default, 0, 24},
                                     {kAlternateSpace, 64, 2, 13},
                                     {kAlternateSpace, 64, 14, 24}}));
  EXPECT_THAT(CheckedCopiesOf(*r, x), ElementsAre("prefetch 2->12", "eviction 12->14", "prefetch 14->24"));

  // y: produced in fast memory at 1 (placed first: more accesses, so more
  // memory bound; offset 0), evicted (1,3) — which opens its default chunk
  // [1, 26] — prefetched (4,14) for the in-place write at 14, evicted again
  // (14,16) into the same chunk (a refresh), prefetched (16,26). Each
  // eviction's source ends the step before its done.
  const BufferId y = Find(*r, "y");
  const Bytes y_default = r->plan.placements[y].allocations[0].offset;
  EXPECT_EQ(r->plan.placements[y].allocations,
            (std::vector<Allocation>{{kDefaultSpace, y_default, 1, 26},
                                     {kAlternateSpace, 0, 1, 2},
                                     {kAlternateSpace, 0, 4, 15},
                                     {kAlternateSpace, 0, 16, 26}}));
  EXPECT_THAT(CheckedCopiesOf(*r, y), ElementsAre("eviction 1->3", "prefetch 4->14", "eviction 14->16",
                                           "prefetch 16->26"));
}

TEST(MsaRefreshTest, DefaultModePlanVerifies) {
  absl::StatusOr<PlanJobResult> r = PlanRefreshProgram(MsaMode::kDefault);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->plan.verified);
  EXPECT_LE(r->plan.msa->estimated_time_s, r->plan.msa->time_all_default_s);
}

}  // namespace
}  // namespace memplan
