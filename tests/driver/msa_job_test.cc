#include "driver/msa_job.h"

#include <string>
#include <vector>

#include "driver/input.h"
#include "driver/plan_job.h"
#include "driver/pools.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/test_data.h"
#include "verify/verifier.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;

Buffer MakeBuffer(std::string name, Bytes size, TimeStep start, TimeStep end,
                  std::vector<TimeStep> uses, Lifetime lifetime = Lifetime::kTransient) {
  Buffer b;
  b.name = std::move(name);
  b.size = size;
  b.start = start;
  b.end = end;
  b.mutable_use_times() = std::move(uses);
  b.lifetime = lifetime;
  return b;
}

// x(64) an input prefetched (1,3) into alternate [1,4]@0; t(32) produced in
// alternate [1,2]@64 and evicted (1,2); u(16) only in alternate [2,3]@96;
// v(16) only in default; p(8) pinned to alternate [0,4]@120.
struct Case {
  BufferSet set;
  MsaResult msa;
};

Case MakeCase() {
  Case c;
  c.set.time_steps = 5;
  c.set.buffers = {MakeBuffer("x", 64, 0, 4, {3}, Lifetime::kExternal),
                   MakeBuffer("t", 32, 1, 3, {2, 3}), MakeBuffer("u", 16, 2, 3, {3}),
                   MakeBuffer("v", 16, 0, 2, {2}), MakeBuffer("p", 8, 0, 4, {4})};
  c.set.buffers[4].space = kAlternateSpace;
  c.msa.alternate = {{Allocation{kAlternateSpace, 0, 1, 4}},
                     {Allocation{kAlternateSpace, 64, 1, 2}},
                     {Allocation{kAlternateSpace, 96, 2, 3}},
                     {},
                     {Allocation{kAlternateSpace, 120, 0, 4}}};
  c.msa.needs_default = {true, true, false, true, false};
  c.msa.copies = {AsyncCopy{1, CopyKind::kEviction, kAlternateSpace, kDefaultSpace, 1, 2, 32},
                  AsyncCopy{0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 1, 3, 64}};
  return c;
}

TEST(PlanPoolsWithMsaTest, DefaultChunksOnlyWhereDefaultHoldsTheData) {
  Case c = MakeCase();
  PoolPlanOptions options;
  options.algorithm = PackingAlgorithm::kBestFitSpatial;
  absl::StatusOr<Plan> plan = PlanPoolsWithMsa(c.set, c.msa, 128, 1, options);
  ASSERT_TRUE(plan.ok()) << plan.status();
  // Default transient pool: t [1,3] (from its eviction) and v [0,2]; u has no
  // default chunk. Then the external pool with x.
  ASSERT_EQ(plan->pools.size(), 3u);
  EXPECT_EQ(plan->pools[0].name, "transient");
  EXPECT_EQ(plan->pools[0].size, 48);
  EXPECT_EQ(plan->pools[0].lower_bound, 48);
  EXPECT_EQ(plan->pools[0].buffers, 3);
  EXPECT_EQ(plan->pools[0].total_bytes, 64);
  EXPECT_EQ(plan->pools[1].name, "external");
  EXPECT_EQ(plan->pools[1].offset, 48);
  EXPECT_EQ(plan->pools[2].name, "alternate");
  EXPECT_EQ(plan->pools[2].space, kAlternateSpace);
  EXPECT_EQ(plan->pools[2].size, 128);
  EXPECT_EQ(plan->placements[0].allocations,
            (std::vector<Allocation>{{kDefaultSpace, 48, 0, 4}, {kAlternateSpace, 0, 1, 4}}));
  EXPECT_EQ(plan->placements[1].allocations,
            (std::vector<Allocation>{{kDefaultSpace, 0, 1, 3}, {kAlternateSpace, 64, 1, 2}}));
  EXPECT_EQ(plan->placements[2].allocations,
            (std::vector<Allocation>{{kAlternateSpace, 96, 2, 3}}));
  EXPECT_EQ(plan->placements[3].allocations,
            (std::vector<Allocation>{{kDefaultSpace, 32, 0, 2}}));
  ASSERT_EQ(plan->spaces.size(), 2u);
  EXPECT_EQ(plan->spaces[0].peak, 112);
  EXPECT_EQ(plan->spaces[1].capacity, 128);
  EXPECT_EQ(plan->spaces[1].peak, 128);
  // Copies sorted by (start, done, buffer).
  ASSERT_EQ(plan->copies.size(), 2u);
  EXPECT_EQ(plan->copies[0].kind, CopyKind::kEviction);
  EXPECT_EQ(plan->copies[1].kind, CopyKind::kPrefetch);
  plan->msa = MsaStats{};
  plan->msa->prefetches = 1;
  plan->msa->evictions = 1;
  plan->msa->prefetch_bytes = 64;
  plan->msa->eviction_bytes = 32;
  EXPECT_TRUE(VerifyAgainst(c.set, *plan, 1, 1).ok()) << VerifyAgainst(c.set, *plan, 1, 1);
}

TEST(PlanPoolsWithMsaTest, CrossProgramPrefetchIsListedAsDoneAtStart) {
  Case c = MakeCase();
  // x kept in alternate memory across runs instead of prefetched.
  c.msa.alternate[0] = {Allocation{kAlternateSpace, 0, 0, 4}};
  c.msa.copies.pop_back();
  c.msa.cross_program_prefetch = CrossProgramPrefetch{0, 0, 5, false};
  absl::StatusOr<Plan> plan = PlanPoolsWithMsa(c.set, c.msa, 128, 1, PoolPlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->copies.size(), 2u);
  EXPECT_EQ(plan->copies[0].buffer, 0);
  EXPECT_EQ(plan->copies[0].kind, CopyKind::kPrefetch);
  EXPECT_EQ(plan->copies[0].start, 0);
  EXPECT_EQ(plan->copies[0].done, 0);
  plan->msa = MsaStats{1, 2, 0.5, 1, 1, 64, 32, 2};
  EXPECT_TRUE(VerifyAgainst(c.set, *plan).ok()) << VerifyAgainst(c.set, *plan);
}

TEST(PlanPoolsWithMsaTest, PinnedBufferLeftOutIsAnInternalError) {
  Case c = MakeCase();
  c.msa.alternate[4].clear();
  absl::StatusOr<Plan> plan = PlanPoolsWithMsa(c.set, c.msa, 128, 1, PoolPlanOptions{});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kInternal);
}

TEST(MsaJobTest, CapturedSpeedup) {
  MsaStats s;
  s.time_all_default_s = 10;
  s.time_all_fast_s = 2;
  s.estimated_time_s = 4;
  EXPECT_DOUBLE_EQ(CapturedSpeedup(s), 0.75);
  s.time_all_fast_s = 10;
  EXPECT_EQ(CapturedSpeedup(s), 0);
}

// FormatRewriteSummary's other endings: a plan without the flag that would
// be slower, and one whose time was not computed.
TEST(MsaJobTest, RewriteSummaryEndings) {
  MsaJobResult r;
  r.rewrite_flag = "--emit-hlo";
  r.plan.msa = MsaStats{};
  r.plan.msa->estimated_time_s = 2;
  EXPECT_EQ(FormatRewriteSummary(r), "");
  r.plan.msa->rewrite_skipped = {"sliced_prefetch"};
  r.plan.msa->estimated_time_with_skipped_s = 2.5;
  EXPECT_EQ(FormatRewriteSummary(r),
            "whole-buffer copies only: --emit-hlo writes no sliced prefetches, so default mode tried "
            "none; without --emit-hlo: estimated 2.5 s (25% slower)\n");
  r.plan.msa->estimated_time_with_skipped_s.reset();
  EXPECT_EQ(FormatRewriteSummary(r),
            "whole-buffer copies only: --emit-hlo writes no sliced prefetches, so default mode tried "
            "none; plan without --emit-hlo to see the time they would give\n");
}

TEST(MsaJobTest, PlansTheMlpExampleOnEveryPreset) {
  absl::StatusOr<LoadedInput> input = LoadInput(ExamplePath("mlp.mpir"), LoadOptions{});
  ASSERT_TRUE(input.ok()) << input.status();
  for (const Target& target : BuiltinTargets()) {
    // Hierarchy presets refuse --emit-ir (tests/driver/hierarchy_job_test.cc).
    if (!target.spaces.empty()) continue;
    for (MsaMode mode : {MsaMode::kReference, MsaMode::kDefault}) {
      MsaJobOptions options;
      options.target = target.name;
      options.fast_memory_bytes = 256 * 1024;
      options.msa.mode = mode;
      options.rewrite = true;
      absl::StatusOr<MsaJobResult> r =
          RunMsaJob(*input->program, *input->analysis, options, PoolPlanOptions{});
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_EQ(r->target.fast_memory_bytes, 256 * 1024);
      EXPECT_EQ(r->plan.spaces.back().capacity, 256 * 1024);
      EXPECT_TRUE(VerifyAgainst(input->buffers, r->plan, -1, -1, &*input->program).ok())
          << target.name;
      const MsaStats& s = *r->plan.msa;
      EXPECT_LE(s.time_all_fast_s, s.estimated_time_s) << target.name;
      EXPECT_LE(s.estimated_time_s, s.time_all_default_s) << target.name;
      EXPECT_EQ(s.prefetches + s.evictions, static_cast<std::int64_t>(r->plan.copies.size()));
      // Every offset is a multiple of the target's alignment.
      for (const BufferPlacement& p : r->plan.placements) {
        for (const Allocation& a : p.allocations) {
          if (a.space == kAlternateSpace) {
            EXPECT_EQ(a.offset % target.alignment, 0) << target.name;
          }
        }
      }
      ASSERT_TRUE(r->rewritten.has_value());
    }
  }
}

// Loops, calls and conditionals: every plan passes the verifier, including
// its control-flow rule, and rewrites to valid IR.
TEST(MsaJobTest, PlansTheControlFlowExamplesOnEveryPreset) {
  for (const char* name : {"while_loop.mpir", "rnn_loop.mpir", "call.mpir", "conditional.mpir"}) {
    absl::StatusOr<LoadedInput> input = LoadInput(ExamplePath(name), LoadOptions{});
    ASSERT_TRUE(input.ok()) << input.status();
    ASSERT_EQ(input->buffers.control_regions.empty(), std::string(name) == "call.mpir") << name;
    for (const Target& target : BuiltinTargets()) {
      // Hierarchy presets refuse --emit-ir (tests/driver/hierarchy_job_test.cc).
      if (!target.spaces.empty()) continue;
      for (MsaMode mode : {MsaMode::kReference, MsaMode::kDefault}) {
        for (Bytes fast : {Bytes{16} << 10, Bytes{64} << 10, Bytes{1} << 20}) {
          MsaJobOptions options;
          options.target = target.name;
          options.fast_memory_bytes = fast;
          options.msa.mode = mode;
          options.rewrite = true;
          absl::StatusOr<MsaJobResult> r =
              RunMsaJob(*input->program, *input->analysis, options, PoolPlanOptions{});
          ASSERT_TRUE(r.ok()) << name << " " << target.name << ": " << r.status();
          const absl::Status verified =
              VerifyAgainst(input->buffers, r->plan, -1, -1, &*input->program);
          EXPECT_TRUE(verified.ok()) << name << " " << target.name << " " << fast << ": " << verified;
          ASSERT_TRUE(r->rewritten.has_value());
        }
      }
    }
  }
}

// The recurrent cell of examples/rnn_loop.mpir on the edge NPU with 64 KiB:
// the loop-carried state and both weights are in fast memory through the
// whole loop (docs/msa.md "Control flow" reports the speed-up).
TEST(MsaJobTest, RnnLoopKeepsStateAndWeightsInFastMemory) {
  absl::StatusOr<LoadedInput> input = LoadInput(ExamplePath("rnn_loop.mpir"), LoadOptions{});
  ASSERT_TRUE(input.ok()) << input.status();
  MsaJobOptions options;
  options.target = "edge-npu";
  options.fast_memory_bytes = 64 * 1024;
  options.msa.mode = MsaMode::kReference;
  absl::StatusOr<MsaJobResult> r =
      RunMsaJob(*input->program, *input->analysis, options, PoolPlanOptions{});
  ASSERT_TRUE(r.ok()) << r.status();
  auto alternate_span = [&](const std::string& name) {
    for (std::size_t b = 0; b < input->buffers.buffers.size(); ++b) {
      if (input->buffers.buffers[b].name != name) continue;
      for (const Allocation& a : r->plan.placements[b].allocations) {
        if (a.space == kAlternateSpace) return std::to_string(a.start) + "-" + std::to_string(a.end);
      }
    }
    return std::string("none");
  };
  // Steps: xp 0, xa 1, h0 2, more 3, a 4, b 5, c 6, n 7, while 8, y 9.
  EXPECT_EQ(alternate_span("h0"), "2-9");
  // wi is the cross-program prefetch; wx and wh are prefetched (-1, 2) —
  // issued before the first op, as entry parameters — before the loop and
  // stay until the loop ends.
  EXPECT_EQ(alternate_span("wx"), "0-8");
  EXPECT_EQ(alternate_span("wh"), "0-8");
  // Five prefetches: wi's cross-program prefetch, x (-1, 0) for the first
  // dot, wx, wh, and wi's end-of-program refill 8->9 (freed after the loop,
  // refilled for the next run).
  EXPECT_EQ(alternate_span("x"), "0-1");
  EXPECT_EQ(r->plan.msa->prefetches, 5);
  EXPECT_EQ(r->plan.msa->evictions, 0);
}

TEST(MsaJobTest, TargetErrors) {
  absl::StatusOr<LoadedInput> input = LoadInput(ExamplePath("mlp.mpir"), LoadOptions{});
  ASSERT_TRUE(input.ok()) << input.status();
  MsaJobOptions options;
  options.target = "nope";
  absl::StatusOr<MsaJobResult> r =
      RunMsaJob(*input->program, *input->analysis, options, PoolPlanOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("unknown target 'nope'"));
}

TEST(MsaJobTest, ZeroFastMemoryKeepsEverythingInDefault) {
  absl::StatusOr<LoadedInput> input = LoadInput(ExamplePath("mlp.mpir"), LoadOptions{});
  ASSERT_TRUE(input.ok()) << input.status();
  MsaJobOptions options;
  options.fast_memory_bytes = 0;
  absl::StatusOr<MsaJobResult> r =
      RunMsaJob(*input->program, *input->analysis, options, PoolPlanOptions{});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->target.name, kDefaultTarget);
  EXPECT_TRUE(r->plan.copies.empty());
  EXPECT_EQ(r->plan.msa->estimated_time_s, r->plan.msa->time_all_default_s);
  EXPECT_TRUE(VerifyAgainst(input->buffers, r->plan, -1, -1, &*input->program).ok());
}

// Writes `text` to a temporary .mpir file and plans it with fast memory.
absl::StatusOr<PlanJobResult> PlanTextWithIrOut(const std::string& name, const std::string& text,
                                       Bytes fast_memory) {
  const std::string path = TestTempPath(name + ".mpir");
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return absl::InternalError("cannot write " + path);
  std::fputs(text.c_str(), f);
  std::fclose(f);
  PlanJobOptions options;
  options.msa.emplace();
  options.msa->fast_memory_bytes = fast_memory;
  options.emit_ir_path = TestTempPath(name + ".out.mpir");
  return RunPlanJob(path, options);
}

TEST(PlanJobTest, ProgramWithoutComputeHasNothingToGain) {
  absl::StatusOr<PlanJobResult> r = PlanTextWithIrOut("nocompute", R"(
entry func @main(%x: f32[4]) {
  return %x
}
)", 1024);
  ASSERT_TRUE(r.ok()) << r.status();
  const MsaStats& s = *r->plan.msa;
  EXPECT_EQ(s.estimated_time_s, 0);
  EXPECT_EQ(s.time_all_default_s, 0);
  EXPECT_EQ(s.time_all_fast_s, 0);
  EXPECT_EQ(CapturedSpeedup(s), 0);
  EXPECT_THAT(r->summary, HasSubstr("captured speed-up 0.0%"));
}

TEST(PlanJobTest, TinyFastMemoryAndZeroSizeBuffers) {
  const std::string text = R"(
entry func @main(%x: f32[256]) {
  %e = negate(%x) : f32[0]
  %a = exp(%x) : f32[256] {transcendentals = 256}
  %b = add(%a, %x) : f32[256] {flops = 256}
  return %b, %e
}
)";
  for (Bytes fast : {Bytes{0}, Bytes{1}, Bytes{1023}, Bytes{1 << 20}}) {
    absl::StatusOr<PlanJobResult> r = PlanTextWithIrOut("tiny", text, fast);
    ASSERT_TRUE(r.ok()) << fast << ": " << r.status();
    EXPECT_TRUE(r->plan.verified);
    const MsaStats& s = *r->plan.msa;
    EXPECT_LE(s.time_all_fast_s, s.estimated_time_s) << fast;
    EXPECT_LE(s.estimated_time_s, s.time_all_default_s) << fast;
    if (fast < 1024) {
      // Nothing but the empty buffer fits: the plan is the all-default one.
      EXPECT_TRUE(r->plan.copies.empty()) << fast;
      EXPECT_EQ(s.estimated_time_s, s.time_all_default_s) << fast;
    }
  }
}

TEST(PlanJobTest, FastMemoryNeedsAProgram) {
  const std::string csv = TestTempPath("lifetimes.csv");
  FILE* f = std::fopen(csv.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("id,lower,upper,size\nb0,0,2,8\n", f);
  std::fclose(f);
  PlanJobOptions options;
  options.msa.emplace();
  absl::StatusOr<PlanJobResult> r = RunPlanJob(csv, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("fast memory needs a program"));
  options.msa.reset();
  options.emit_ir_path = TestTempPath("out.mpir");
  r = RunPlanJob(ExamplePath("mlp.mpir"), options);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("--emit-ir"));
}

}  // namespace
}  // namespace memplan
