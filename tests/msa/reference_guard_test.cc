// memplan never reports an assignment slower than using no fast memory: when
// the kept plan's copies stall more than they save, it falls back to
// copy-free residency; when even that is slower, to the empty assignment.
// Both modes.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/simulator.h"
#include "tests/msa/allocator_test_util.h"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::Assign;
using testing::HarnessOptions;
using testing::Load;

// Six 1 s compute steps, then a compute-bound op (100 s) reading four 8 B
// weights: fast memory saves nothing there, but the reference still
// prefetches the weights, and their four 1 s copies share one DMA queue with
// only ~1.5 s of compute to hide behind, so the op waits for them.
TEST(ReferenceGuardTest, StallingReferenceFallsBackToCopyFree) {
  Target t;
  t.flops_per_second = 1;
  t.transcendentals_per_second = 1;
  t.default_bandwidth = 8;
  t.alternate_bandwidth = 80;
  t.copy_bandwidth = 8;
  auto f = Load(R"(
entry func @main(%x: f32[2], %w1: f32[2], %w2: f32[2], %w3: f32[2], %w4: f32[2]) {
  %t0 = negate(%x) : f32[2] {flops = 1, bytes_accessed = 0}
  %t1 = negate(%t0) : f32[2] {flops = 1, bytes_accessed = 0}
  %t2 = negate(%t1) : f32[2] {flops = 1, bytes_accessed = 0}
  %t3 = negate(%t2) : f32[2] {flops = 1, bytes_accessed = 0}
  %t4 = negate(%t3) : f32[2] {flops = 1, bytes_accessed = 0}
  %t5 = negate(%t4) : f32[2] {flops = 1, bytes_accessed = 0}
  %y = custom.sum(%t5, %w1, %w2, %w3, %w4) : f32[2] {flops = 100}
  return %y
}
)",
                t);
  MsaOptions o = HarnessOptions();
  o.picker = PickerKind::kCostAnalysis;
  const MsaResult ref = Assign(*f, o);
  const double all_default = TimeAllDefault(f->analysis, *f->cost);
  EXPECT_DOUBLE_EQ(all_default, 106);
  EXPECT_LE(SimulateMsa(f->analysis, *f->cost, ref).elapsed_s, all_default);
  EXPECT_EQ(ref.mode, "reference");
  EXPECT_THAT(ref.variant, HasSubstr("copy-free"));
  EXPECT_THAT(ref.copies, IsEmpty());
}

// A fast memory slower than the default one (ResolveTarget rejects such a
// target; code can still build one): every byte placed there loses, with or
// without copies, so both modes fall back to the empty assignment.
TEST(ReferenceGuardTest, SlowerFastMemoryFallsBackToTheEmptyAssignment) {
  Target t = testing::TestTarget();
  t.alternate_bandwidth = t.default_bandwidth / 4;
  auto f = Load(R"(
entry func @main(%x: f32[4]) {
  %a = negate(%x) : f32[4]
  %b = negate(%a) : f32[4]
  %c = negate(%b) : f32[4]
  %d = add(%c, %a) : f32[4]
  return %d
}
)",
                t);
  for (MsaMode mode : {MsaMode::kReference, MsaMode::kDefault}) {
    MsaOptions o = HarnessOptions();
    o.mode = mode;
    const MsaResult r = Assign(*f, o);
    EXPECT_EQ(testing::CheckResult(*f, o, r), "");
    EXPECT_EQ(r.mode, mode == MsaMode::kReference ? "reference" : "default");
    EXPECT_THAT(r.variant, ::testing::StartsWith("empty"));
    EXPECT_THAT(r.copies, IsEmpty());
    EXPECT_FALSE(r.cross_program_prefetch.has_value());
    for (BufferId b = 0; b < static_cast<BufferId>(r.alternate.size()); ++b) {
      EXPECT_THAT(r.alternate[b], IsEmpty()) << b;
    }
    EXPECT_EQ(SimulateMsa(f->analysis, *f->cost, r).elapsed_s,
              TimeAllDefault(f->analysis, *f->cost));
  }
}

}  // namespace
}  // namespace memplan
