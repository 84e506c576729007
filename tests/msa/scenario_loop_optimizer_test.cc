// The memory-bound loop optimizer (msa/loop_optimizer.h) on
// tests/data/mpir/unrolled_loop.mpir with exact outcomes: a loop of period
// 3 unrolled four times (steps 1..12), a 256-byte weight per iteration
// (w0..w3), a 64-byte scale s read by every iteration, on a target with
// 1 KiB of fast memory and copies at 1e11 B/s
// (tests/data/msa/unrolled_loop_target.json).
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/loop_detect.h"
#include "msa/loop_optimizer.h"
#include "msa/problem.h"
#include "msa/simulator.h"
#include "msa/target.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing::Assign;
using testing::CheckResult;
using testing::Copies;
using testing::Load;
using testing::MsaFixture;
using testing::Segments;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::unique_ptr<MsaFixture> LoadScenario() {
  absl::StatusOr<Target> target =
      ResolveTarget(MEMPLAN_SOURCE_DIR "/tests/data/msa/unrolled_loop_target.json");
  EXPECT_TRUE(target.ok()) << target.status();
  return Load(Slurp(MEMPLAN_SOURCE_DIR "/tests/data/mpir/unrolled_loop.mpir"), *target);
}

// Reference mode with the target's cost-analysis picker and fast memory.
MsaOptions Options(bool loop_optimizer) {
  MsaOptions o;
  o.fast_memory_bytes = 1024;
  o.alignment = 8;
  o.mode = MsaMode::kReference;
  o.loop_optimizer = loop_optimizer;
  return o;
}

TEST(LoopOptimizerScenarioTest, DetectsTheUnrolledLoop) {
  auto f = LoadScenario();
  EXPECT_EQ(DetectLoop(f->program, f->analysis, 3), (DetectedLoop{1, 3, 4}));
  // Four iterations are all there is.
  EXPECT_EQ(DetectLoop(f->program, f->analysis, 5), std::nullopt);
}

TEST(LoopOptimizerScenarioTest, ClassesAndPreferences) {
  auto f = LoadScenario();
  const MsaProblem problem = BuildMsaProblem(f->program, f->analysis, *f->cost, 1024);
  const LoopPlan plan = PlanMemoryBoundLoop(problem, f->analysis, *f->cost, DetectedLoop{1, 3, 4}, 1024);
  auto cls = [&](const char* name) { return plan.classes[static_cast<std::size_t>(f->Buffer(name))]; };
  EXPECT_EQ(cls("w0"), LoopValueClass::kPrefetch);
  EXPECT_EQ(cls("w2"), LoopValueClass::kPrefetch);
  EXPECT_EQ(cls("s"), LoopValueClass::kPinned);
  EXPECT_EQ(cls("a1"), LoopValueClass::kTemporary);
  EXPECT_EQ(cls("b3"), LoopValueClass::kTemporary);
  EXPECT_EQ(cls("c1"), LoopValueClass::kLoopCarried);  // read by the next iteration
  EXPECT_EQ(cls("c3"), LoopValueClass::kLoopCarried);  // read after the loop
  EXPECT_EQ(cls("h"), LoopValueClass::kPrefetch);      // made in the header, read in iteration 0
  EXPECT_EQ(cls("x"), std::nullopt);
  EXPECT_EQ(cls("y"), std::nullopt);
  // w0..w3 and h; a0..a3 and b0..b3; c0..c3; s.
  EXPECT_THAT(plan.counts, ElementsAre(8, 4, 1, 5, 0));
  // Each weight's copy (2.56 ns) is issued after the matmul of the
  // iteration before: the all-fast iteration is 7.04 ns, the matmul ends at
  // 3.84 ns, the copy must start by 7.04 - 2.56 = 4.48 ns. w0's would be
  // step -2: before the first op.
  auto start = [&](const char* name) {
    return plan.preferred_start[static_cast<std::size_t>(f->Buffer(name))];
  };
  EXPECT_EQ(start("w0"), -1);
  EXPECT_EQ(start("w1"), 1);
  EXPECT_EQ(start("w2"), 4);
  EXPECT_EQ(start("w3"), 7);
  EXPECT_EQ(start("s"), kNoId);
  // The allocator's order: s and the weights of iterations 1..3 (w0 is read
  // in iteration 0, whose pattern is iteration 1's too); no temporary.
  const BufferId s = f->Buffer("s"), w0 = f->Buffer("w0"), w1 = f->Buffer("w1"),
                 w2 = f->Buffer("w2"), w3 = f->Buffer("w3");
  EXPECT_THAT(plan.order, ::testing::UnorderedElementsAre(s, w0, w1, w2, w3));
  // The most bytes are held at position 0: two weights (the one read there
  // and the next one, whose copy is issued after that read: double
  // buffering), the scale and the temporary a: 512 + 64 + 64 bytes.
  EXPECT_EQ(plan.steady_state_bytes, 640);
}

TEST(LoopOptimizerScenarioTest, PlanFollowsThePreferences) {
  auto f = LoadScenario();
  const MsaOptions o = Options(true);
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_THAT(Copies(r, f->Buffer("w1")), ElementsAre("prefetch 1->4"));
  EXPECT_THAT(Copies(r, f->Buffer("w2")), ElementsAre("prefetch 4->7"));
  EXPECT_THAT(Copies(r, f->Buffer("w3")), ElementsAre("prefetch 7->10"));
  ASSERT_TRUE(r.loop.has_value());
  EXPECT_EQ(r.loop->loop, (DetectedLoop{1, 3, 4}));
  EXPECT_TRUE(r.loop->chosen);
  // Steady state: every op of the iteration in fast memory, 7.04 ns (the
  // reference without the optimizer issues each weight's copy right before
  // its matmul and waits for it: 9.6 ns).
  EXPECT_DOUBLE_EQ(r.loop->steady_state_iteration_s, 7.04e-09);
  ASSERT_TRUE(r.loop->steady_state_without_s.has_value());
  EXPECT_DOUBLE_EQ(*r.loop->steady_state_without_s, 9.6e-09);
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 3.776e-08);
}

TEST(LoopOptimizerScenarioTest, ReferenceModeWithoutTheOptimizerIsUnchanged) {
  auto f = LoadScenario();
  const MsaOptions o = Options(false);
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_FALSE(r.loop.has_value());
  EXPECT_THAT(Copies(r, f->Buffer("w1")), ElementsAre("prefetch 3->4"));
  EXPECT_THAT(Copies(r, f->Buffer("w2")), ElementsAre("prefetch 6->7"));
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 4.544e-08);
}

TEST(LoopOptimizerScenarioTest, DefaultModeKeepsItOnlyWhenFaster) {
  auto f = LoadScenario();
  MsaOptions o = Options(true);
  o.mode = MsaMode::kDefault;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  MsaOptions off = o;
  off.loop_optimizer = false;
  off.auto_loop_optimizer = false;  // nor the automatic try
  const MsaResult without = Assign(*f, off);
  EXPECT_FALSE(without.loop.has_value());
  EXPECT_EQ(without.variant, "copy-bandwidth-0.15");
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, without).elapsed_s, 4.224e-08);
  // The reference configuration with the preferences beats every variant.
  EXPECT_EQ(r.variant, "reference-loop");
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 3.776e-08);
  ASSERT_TRUE(r.loop.has_value());
  EXPECT_TRUE(r.loop->chosen);
  // The fastest plan without it reaches the same steady state; it loses at
  // the loop's ends.
  EXPECT_DOUBLE_EQ(r.loop->steady_state_iteration_s, 7.04e-09);
  EXPECT_DOUBLE_EQ(*r.loop->steady_state_without_s, 7.04e-09);
}

TEST(LoopOptimizerScenarioTest, DefaultModeSaysWhenNotChosen) {
  // With 448 bytes the preferences cost more than they save (the weights'
  // double buffers crowd out the temporaries): default mode keeps a plan
  // without them and still reports the loop.
  auto f = LoadScenario();
  MsaOptions o = Options(true);
  o.mode = MsaMode::kDefault;
  o.fast_memory_bytes = 448;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  ASSERT_TRUE(r.loop.has_value());
  EXPECT_FALSE(r.loop->chosen);
  EXPECT_FALSE(r.variant.ends_with("-loop"));
  EXPECT_FALSE(r.loop->steady_state_without_s.has_value());
}

// Without the flag default mode finds the loop and tries the same "-loop"
// variants: it keeps reference-loop, as with the flag (3.776e-08 s against
// 4.224e-08 s without the try), and reports the loop.
TEST(LoopOptimizerScenarioTest, DefaultModeTriesItWithoutTheFlag) {
  auto f = LoadScenario();
  MsaOptions o = Options(false);
  o.mode = MsaMode::kDefault;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_EQ(r.variant, "reference-loop");
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 3.776e-08);
  ASSERT_TRUE(r.loop.has_value());
  EXPECT_TRUE(r.loop->chosen);
  EXPECT_EQ(r.loop->loop, (DetectedLoop{1, 3, 4}));
  EXPECT_DOUBLE_EQ(r.loop->steady_state_iteration_s, 7.04e-09);
}

// With 448 bytes the loop is found but no "-loop" variant is faster: the
// automatic try leaves no trace, the result is the one without it.
TEST(LoopOptimizerScenarioTest, AnAutomaticTryNotKeptLeavesNoTrace) {
  auto f = LoadScenario();
  MsaOptions o = Options(false);
  o.mode = MsaMode::kDefault;
  o.fast_memory_bytes = 448;
  ASSERT_TRUE(DetectLoop(f->program, f->analysis, 3).has_value());
  const MsaResult tried = Assign(*f, o);
  MsaOptions off = o;
  off.auto_loop_optimizer = false;
  const MsaResult without = Assign(*f, off);
  EXPECT_FALSE(tried.loop.has_value());
  EXPECT_EQ(tried.variant, without.variant);
  EXPECT_FALSE(tried.variant.ends_with("-loop"));
  EXPECT_EQ(tried.copies.size(), without.copies.size());
  for (BufferId b = 0; b < static_cast<BufferId>(f->analysis.buffers.buffers.size()); ++b) {
    EXPECT_EQ(Segments(tried, b), Segments(without, b)) << b;
  }
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, tried).elapsed_s, 4.608e-08);
}

}  // namespace
}  // namespace memplan
