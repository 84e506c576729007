// Window prefetch (msa/window_prefetch.h) on a scenario with exact outcome:
// a matmul reads a 256-byte weight, larger than the 96 bytes of fast
// memory, so the weight stays in default memory; a 64-byte window of it is
// prefetched into fast memory beside the small activations, and the
// matmul reads a quarter of the weight from there.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/simulator.h"
#include "msa/time_bound.h"
#include "msa/window_prefetch.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Assign;
using testing::CheckResult;
using testing::HarnessOptions;
using testing::Load;
using testing::Segments;

// tests/data/mpir/window_matmul.mpir.
constexpr char kMatmul[] = R"(
entry func @main(%x: f32[4], %w: f32[64]) {
  %a = negate(%x) : f32[4]
  %b = negate(%a) : f32[4]
  %c = negate(%b) : f32[4]
  %y = matmul(%c, %w) : f32[4]
  return %y
}
)";

// The test target with copies as fast as fast memory (1e11 B/s) and 96
// bytes of fast memory (tests/data/msa/window_target.json).
Target WindowTarget() {
  Target t = testing::TestTarget();
  t.copy_bandwidth = 1e11;
  t.fast_memory_bytes = 96;
  return t;
}

MsaOptions WindowOptions(Bytes window) {
  MsaOptions o = HarnessOptions();
  o.fast_memory_bytes = 96;
  o.picker = PickerKind::kCostAnalysis;
  o.window_prefetch_bytes = window;
  return o;
}

TEST(WindowPrefetchScenarioTest, ReferenceWithoutWindowsLeavesTheWeightInDefaultMemory) {
  auto f = Load(kMatmul, WindowTarget());
  const MsaOptions o = WindowOptions(0);
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_THAT(Segments(r, f->Buffer("w")), IsEmpty());
  EXPECT_THAT(r.window_prefetches, IsEmpty());
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 2.848e-08);
}

TEST(WindowPrefetchScenarioTest, A64ByteWindowOfTheWeightForTheMatmul) {
  auto f = Load(kMatmul, WindowTarget());
  const MsaOptions o = WindowOptions(64);
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  // The activations hold bytes [0, 32) through step 3; the window takes the
  // lowest free aligned bytes, [32, 96).
  EXPECT_THAT(Segments(r, f->Buffer("c")), ElementsAre("2-3@0"));
  ASSERT_EQ(r.window_prefetches.size(), 1u);
  const WindowPrefetch& w = r.window_prefetches[0];
  EXPECT_EQ(w.buffer, f->Buffer("w"));
  EXPECT_EQ(w.op, 3);
  EXPECT_EQ(w.operand, 1);
  EXPECT_EQ(w.bytes, 64);
  EXPECT_EQ(w.offset, 32);
  // Its copy takes 64 / 1e11 = 0.64 ns; op c's all-default time, 3.2 ns
  // (CostModel::ElapsedBetween(1, 3)), covers it: issued after step 1.
  EXPECT_EQ(w.start, 1);
  EXPECT_EQ(w.done, 3);
  // The matmul reads 64 of w's 256 bytes at 1e11 instead of 1e10 B/s,
  // 5.76 ns less; op c runs in fast memory (0.32 ns), so the matmul waits
  // 0.32 ns for the copy: 2.848e-08 s -> 2.304e-08 s.
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 2.304e-08);
  // The bound with windows lets part of w count, and stays below the plan.
  EXPECT_DOUBLE_EQ(TimeBound(f->analysis, *f->cost, 96, /*windows=*/true), 2.112e-08);
  EXPECT_DOUBLE_EQ(TimeBound(f->analysis, *f->cost, 96), 2.688e-08);
}

TEST(WindowPrefetchScenarioTest, DefaultModeKeepsTheWindowOnlyWhenFaster) {
  auto f = Load(kMatmul, WindowTarget());
  MsaOptions o = WindowOptions(64);
  o.mode = MsaMode::kDefault;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(r.variant, "reference+window-64");
  ASSERT_EQ(r.window_prefetches.size(), 1u);
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 2.304e-08);
  // With copies at default-memory speed (1e10 B/s) the copy costs what the
  // window saves: no gain, so default mode drops it.
  Target slow = WindowTarget();
  slow.copy_bandwidth = 1e10;
  auto g = Load(kMatmul, slow);
  const MsaResult tie = Assign(*g, o);
  EXPECT_THAT(tie.window_prefetches, IsEmpty());
  EXPECT_EQ(tie.variant.find("window"), std::string::npos);
}

// Without a window size default mode tries fast memory / 2, / 4 and / 8
// (48, 24 and 12 bytes) and keeps the fastest: 48 bytes fill the free
// [32, 96) and save 48 x (1/1e10 - 1/1e11) = 4.32 ns of the matmul's reads
// of w; the 0.48 ns copy, issued after step 1 as above, outlasts the
// negation at step 2 in fast memory (0.32 ns) by 0.16 ns: 2.848e-08 s ->
// 2.432e-08 s. 24 bytes would save 2.16 ns, 12 bytes 1.08 ns.
TEST(WindowPrefetchScenarioTest, DefaultModeTriesWindowsWithoutASize) {
  auto f = Load(kMatmul, WindowTarget());
  MsaOptions o = WindowOptions(0);
  o.mode = MsaMode::kDefault;
  const MsaResult r = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, r), "");
  EXPECT_EQ(r.variant, "reference+window-48");
  ASSERT_EQ(r.window_prefetches.size(), 1u);
  const WindowPrefetch& w = r.window_prefetches[0];
  EXPECT_EQ(w.buffer, f->Buffer("w"));
  EXPECT_EQ(w.bytes, 48);
  EXPECT_EQ(w.offset, 32);
  EXPECT_EQ(w.start, 1);
  EXPECT_EQ(w.done, 3);
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s, 2.432e-08);
  // Turned off, the plan is the one without windows.
  o.auto_window_prefetch = false;
  const MsaResult off = Assign(*f, o);
  EXPECT_EQ(off.variant, "reference");
  EXPECT_THAT(off.window_prefetches, IsEmpty());
  EXPECT_DOUBLE_EQ(SimulateMsa(f->analysis, *f->cost, off).elapsed_s, 2.848e-08);
  // Reference mode never tries them by itself.
  o = WindowOptions(0);
  EXPECT_THAT(Assign(*f, o).window_prefetches, IsEmpty());
}

TEST(WindowPrefetchScenarioTest, AutomaticWindowSizesAreSharesOfTheFastMemory) {
  EXPECT_THAT(AutoWindowSizes(96), ElementsAre(48, 24, 12));
  EXPECT_THAT(AutoWindowSizes(4), ElementsAre(2, 1));  // 4 / 8 < 1 byte
  EXPECT_THAT(AutoWindowSizes(0), IsEmpty());
}

TEST(WindowPrefetchScenarioTest, NoWindowForAnOperandNoLargerThanTheWindow) {
  auto f = Load(kMatmul, WindowTarget());
  const MsaResult r = Assign(*f, WindowOptions(256));
  EXPECT_THAT(r.window_prefetches, IsEmpty());
}

}  // namespace
}  // namespace memplan
