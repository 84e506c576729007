// kDefault against kReference: never slower in simulated time, and strictly
// faster where the reference's blind spots (buffer order, copy bandwidth)
// bite.
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "msa/simulator.h"
#include "tests/msa/allocator_test_util.h"
#include "tests/test_data.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::Assign;
using testing::CheckResult;
using testing::HarnessOptions;
using testing::Load;
using testing::Segments;

double Seconds(const testing::MsaFixture& f, const MsaResult& r) {
  return SimulateMsa(f.analysis, *f.cost, r).elapsed_s;
}

// a (8 B) has the higher benefit per sqrt(byte), b (128 B) the higher total
// benefit; they overlap and only one fits in 128 B.
TEST(DefaultModeTest, BufferOrderByTotalBenefitWins) {
  auto f = Load(R"(
entry func @main(%x: f32[2]) {
  %a = negate(%x) : f32[2] {bytes_accessed = 8000}
  %b = negate(%x) : f32[32] {bytes_accessed = 13600}
  %c = add(%a, %b) : f32[2]
  return %c
}
)");
  MsaOptions o = HarnessOptions();
  const MsaResult ref = Assign(*f, o);
  EXPECT_THAT(Segments(ref, f->Buffer("a")), ElementsAre("0-2@0"));
  EXPECT_THAT(Segments(ref, f->Buffer("b")), IsEmpty());
  o.mode = MsaMode::kDefault;
  const MsaResult def = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, def), "");
  EXPECT_EQ(def.mode, "default");
  EXPECT_EQ(def.variant, "copy-bandwidth-0.1-size-order");  // the first size-ordered variant
  EXPECT_THAT(Segments(def, f->Buffer("b")), ElementsAre("1-2@0"));
  EXPECT_THAT(Segments(def, f->Buffer("a")), IsEmpty());
  // With a in fast memory step 0 saves 0.9 x 4000 B / 1e10 B/s = 3.6e-7 s
  // and step 2 7.2e-10 s; with b step 1 saves 1.152e-6 s and step 2
  // 1.152e-8 s.
  EXPECT_NEAR(Seconds(*f, ref) - Seconds(*f, def), (1.152e-6 + 1.152e-8) - (3.6e-7 + 7.2e-10),
              1e-15);
}

// Four compute-bound 4 s steps, then a memory-bound add of t3 and w (3 s
// from default memory; each 8 B operand read from fast memory saves 0.9 s).
// The 1 s copy of w has no compute to hide behind if it starts at step 3,
// which the reference prefers (the use's own 0.9 s saving passes min ratio
// 0.8): the run stalls 1 s to save 0.9 s.
TEST(DefaultModeTest, CopiesThatWouldStallAreMovedEarlier) {
  Target t;
  t.flops_per_second = 1;
  t.transcendentals_per_second = 1;
  t.default_bandwidth = 8;
  t.alternate_bandwidth = 80;
  t.copy_bandwidth = 8;
  auto f = Load(R"(
entry func @main(%x: f32[2], %w: f32[2]) {
  %t0 = negate(%x) : f32[2] {flops = 4}
  %t1 = negate(%t0) : f32[2] {flops = 4}
  %t2 = negate(%t1) : f32[2] {flops = 4}
  %t3 = negate(%t2) : f32[2] {flops = 4}
  %y = add(%t3, %w) : f32[2]
  return %y
}
)",
                t);
  MsaOptions o = HarnessOptions();
  o.picker = PickerKind::kCostAnalysis;
  const MsaResult ref = Assign(*f, o);
  EXPECT_THAT(testing::Copies(ref, f->Buffer("w")), ElementsAre("prefetch 3->4"));
  EXPECT_DOUBLE_EQ(Seconds(*f, ref), 16 + 1 + 1.2);  // t3 is in fast memory too
  EXPECT_DOUBLE_EQ(TimeAllDefault(f->analysis, *f->cost), 16 + 3);

  o.mode = MsaMode::kDefault;
  const MsaResult def = Assign(*f, o);
  EXPECT_EQ(CheckResult(*f, o, def), "");
  // With 0.15 x 4 s of each step for copies, the copy needs two steps: it
  // starts after step 1 and is done long before step 4.
  EXPECT_EQ(def.variant, "copy-bandwidth-0.15-no-cross-program-prefetch");  // the first variant
  EXPECT_THAT(testing::Copies(def, f->Buffer("w")), ElementsAre("prefetch 1->4"));
  EXPECT_DOUBLE_EQ(Seconds(*f, def), 16 + 1.2);
}

TEST(DefaultModeTest, NeverSlowerThanReferenceOrAllDefault) {
  for (const char* name : {"basic.mpir", "mlp.mpir", "while_loop.mpir", "conditional.mpir", "call.mpir"}) {
    auto f = Load(ReadExample(name));
    for (PickerKind picker : {PickerKind::kInstructionCount, PickerKind::kCostAnalysis}) {
      for (Bytes fast : {Bytes{128}, Bytes{4096}, Bytes{65536}, Bytes{1} << 20}) {
        MsaOptions o = HarnessOptions();
        o.picker = picker;
        o.fast_memory_bytes = fast;
        const MsaResult ref = Assign(*f, o);
        o.mode = MsaMode::kDefault;
        const MsaResult def = Assign(*f, o);
        EXPECT_EQ(CheckResult(*f, o, def), "") << name;
        EXPECT_LE(Seconds(*f, def), Seconds(*f, ref)) << name << " " << fast;
        EXPECT_LE(Seconds(*f, def), TimeAllDefault(f->analysis, *f->cost)) << name << " " << fast;
        EXPECT_GE(Seconds(*f, def), TimeAllFast(f->analysis, *f->cost)) << name << " " << fast;
      }
    }
  }
}

}  // namespace
}  // namespace memplan
