// Programs with while / conditional / call: buffers that cross into or out of
// a called computation stay in default memory, buffers local to one
// computation may use fast memory, and every result checks out.
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
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

std::string ReadExample(const std::string& name) {
  std::ifstream in(std::string(MEMPLAN_SOURCE_DIR) + "/examples/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ControlFlowTest, BundledExamplesPlanAndCheck) {
  for (const char* name : {"basic.mpir", "mlp.mpir", "while_loop.mpir", "conditional.mpir",
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
  EXPECT_THAT(Segments(r, f->Buffer("t2")), ElementsAre("3-4@16"));
  // Loop-carried buffers (h0 = b = t3 = h, w = bw = wo) cross the loop.
  for (const char* v : {"h0", "w"}) {
    EXPECT_THAT(Segments(r, f->Buffer(v)), IsEmpty()) << v;
    EXPECT_TRUE(r.needs_default[f->Buffer(v)]) << v;
  }
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
  EXPECT_THAT(Segments(r, f->Buffer("st")), ElementsAre("1-2@16"));
  for (const char* v : {"x", "y", "flag"}) EXPECT_THAT(Segments(r, f->Buffer(v)), IsEmpty()) << v;
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

}  // namespace
}  // namespace memplan
