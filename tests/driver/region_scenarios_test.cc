// The odd-numbered execution-region scenarios of the reference notes
// (../shared/reference/regions.md §7), re-created in memplan's IR, each with
// the outcome the reference states: uploads, allocations, slices, offsets,
// command ranges, access bits and timepoint joins. Every plan also passes
// both verifiers (PlanText).
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/driver/region_test_util.h"

namespace memplan {
namespace {

using ::testing::ElementsAre;
using testing_regions::PlanText;
using testing_regions::Resources;
using testing_regions::Steps;

// 1. Constant hoisting: two constants and a variable leave the region as two
// upload groups; the region keeps only the in-place fill of its operand and
// waits on no upload (it reads none); downstream users wait on a join of the
// execution and both uploads.
TEST(RegionScenarios, ConstantHoisting) {
  absl::StatusOr<testing_regions::Planned> p = PlanText(R"(
entry func @main(%buf: 64 transient, %ready: timepoint) {
  %c0, %c1, %v, %f, %done = execute(%buf, %ready) : 8, 16, 32, 64, timepoint {callee = @r}
  return %c0, %c1, %v, %f, %done
}
region @r(%operand: 64, %await: timepoint) affinity("gpu0") {
  %k0 = constant() : 8
  %k1 = constant() : 16
  %kv = constant() : 32 variable
  %filled = fill(%operand[0 for 64]) : 64 tied(%operand)
  return %k0, %k1, %kv, %filled, %await
}
)");
  ASSERT_TRUE(p.ok()) << p.status();
  // Buffers are named after their first value: the execute's results here.
  EXPECT_THAT(Resources(*p), ElementsAre("r.upload.constant upload constant [gpu0] 128: c0@0 c1@64",
                                         "r.upload.variable upload variable [gpu0] 64: v@0"));
  EXPECT_THAT(Steps(*p),
              ElementsAre("join -> ready",  //
                          "host", "  input external[0+64] write %buf",
                          "upload r.upload.constant -> r.upload.constant.ready",
                          "  upload r.upload.constant[0+8] write %k0",
                          "  upload r.upload.constant[64+16] write %k1",
                          "upload r.upload.variable -> r.upload.variable.ready",
                          "  upload r.upload.variable[0+32] write %kv",
                          "execute @r -> r.done <- ready",  // no upload awaited
                          "  fill external[0+64] write %filled",
                          "join -> r.joined <- r.done,r.upload.constant.ready,r.upload.variable.ready",
                          "host <- r.upload.constant.ready,r.upload.variable.ready,r.done",
                          "  output r.upload.constant[0+8] read %c0 r.upload.constant[64+16] read %c1 "
                          "r.upload.variable[0+32] read %v external[0+64] read %f"));
  EXPECT_EQ(p->plan.regions->regions[0].downstream, "r.joined");
}

// 5. Tied in-place: a fill of a captured operand returned as a tied result
// needs no allocation; the fill writes the operand's own bytes and the
// caller's result is the operand.
TEST(RegionScenarios, TiedInPlace) {
  absl::StatusOr<testing_regions::Planned> p = PlanText(R"(
entry func @main(%x: 256 external, %ready: timepoint) {
  %y, %done = execute(%x, %ready) : 256, timepoint {callee = @r}
  return %y, %done
}
region @r(%operand: 256, %await: timepoint) affinity("gpu0") {
  %filled = fill(%operand[64 for 128]) : 256 tied(%operand)
  return %filled, %await
}
)");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(Resources(*p), ElementsAre());
  EXPECT_THAT(Steps(*p), ElementsAre("join -> ready", "host", "  input external[0+256] write %x",
                                     "execute @r -> r.done <- ready",
                                     "  fill external[64+128] write %filled", "host <- r.done",
                                     "  output external[0+256] read %y"));
  // One buffer: the operand, the fill's result and the caller's result.
  EXPECT_EQ(p->analysis.buffers.buffers.size(), 1u);
}

// 7. Produced results of dynamic sizes: one reservation holds both, laid end
// to end ([0,0] lifetimes: they never alias); the region waits on its alloca
// and each splat becomes a fill of its range.
TEST(RegionScenarios, ProducedResults) {
  absl::StatusOr<testing_regions::Planned> p = PlanText(R"(
dim %a <= 1024
dim %b <= 1024
entry func @main(%ready: timepoint) {
  %x, %y, %done = execute(%ready) : (%a), (%b), timepoint {callee = @r}
  return %x, %y, %done
}
region @r(%await: timepoint) affinity("gpu0") {
  %s0 = splat() : (%a)
  %s1 = splat() : (%b)
  return %s0, %s1, %await
}
)");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(Resources(*p),
              ElementsAre("r.results.external results external [gpu0] align(%a, 64) + "
                          "align(%b, 64): x@0 y@align(%a, 64)"));
  EXPECT_THAT(Steps(*p),
              ElementsAre("join -> ready",
                          "alloca r.results.external -> r.results.external.ready <- ready",
                          "execute @r -> r.done <- ready,r.results.external.ready",
                          "  fill r.results.external[0+1024] write %s0",
                          "  fill r.results.external[1024+1024] write %s1", "host <- r.done",
                          "  output r.results.external[0+1024] read %x "
                          "r.results.external[1024+1024] read %y"));
}

// 9. Concurrent waves: in one wave an in-place fill of an operand (no
// allocation) and a new escaping splat (a result reservation); two chained
// in-place copies into one target in another wave need no allocation.
TEST(RegionScenarios, ConcurrentWaves) {
  absl::StatusOr<testing_regions::Planned> p = PlanText(R"(
entry func @main(%x: 256 external, %src: 64 external, %target: 256 external, %ready: timepoint) {
  %filled, %fresh, %tt, %done = execute(%x, %src, %target, %ready) : 256, 128, 256, timepoint {callee = @r}
  return %filled, %fresh, %tt, %done
}
region @r(%operand: 256, %s: 64, %t: 256, %await: timepoint) affinity("gpu0") {
  %f = fill(%operand[0 for 256]) : 256 tied(%operand) {wave = 0}
  %new = splat() : 128 {wave = 0}
  %t1 = copy(%s[0 for 64], %t[0 for 64]) : 256 tied(%t) {wave = 1}
  %t2 = copy(%s[0 for 64], %t1[128 for 64]) : 256 tied(%t1) {wave = 1}
  return %f, %new, %t2, %await
}
)");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(Resources(*p), ElementsAre("r.results.external results external [gpu0] 128: fresh@0"));
  EXPECT_THAT(Steps(*p),
              ElementsAre("join -> ready", "host",
                          "  input external[0+256] write %x external[256+64] write %src "
                          "external[320+256] write %target",
                          "alloca r.results.external -> r.results.external.ready <- ready",
                          "execute @r -> r.done <- ready,r.results.external.ready",
                          "  fill[w0] external[0+256] write %f",
                          "  fill[w0] r.results.external[0+128] write %new",
                          "  copy[w1] external[256+64] read %s external[320+64] write %t1",
                          "  copy[w1] external[256+64] read %s external[448+64] write %t2", "host <- r.done",
                          "  output external[0+256] read %filled r.results.external[0+128] read "
                          "%fresh external[320+256] read %tt"));
}

// 11. Transfers between devices: each destination gets a reservation placed
// on optimal(exec, destination); each transfer is a copy followed by a flush
// towards the destination, the two transfers of wave 0 concurrently; the
// execute waits on every alloca.
TEST(RegionScenarios, TransfersBetweenDevices) {
  absl::StatusOr<testing_regions::Planned> p = PlanText(R"(
entry func @main(%x: 1024 external, %ready: timepoint) {
  %a, %b, %c, %done = execute(%x, %ready) : 1024, 1024, 1024, timepoint {callee = @r}
  return %a, %b, %c, %done
}
region @r(%in: 1024, %await: timepoint) affinity("exec") {
  %to1 = transfer(%in) : 1024 {target_affinity = "dev1"}
  %to2 = transfer(%in) : 1024 {target_affinity = "dev2", wave = 0}
  %to3 = transfer(%in) : 1024 {target_affinity = "dev3", wave = 0}
  return %to1, %to2, %to3, %await
}
)");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(
      Resources(*p),
      ElementsAre("r.results.external:exec:dev1 results external [optimal(exec,dev1)] 1024: a@0",
                  "r.results.external:exec:dev2 results external [optimal(exec,dev2)] 1024: b@0",
                  "r.results.external:exec:dev3 results external [optimal(exec,dev3)] 1024: c@0"));
  EXPECT_THAT(
      Steps(*p),
      ElementsAre(
          "join -> ready", "host", "  input external[0+1024] write %x",
          "alloca r.results.external:exec:dev1 -> r.results.external:exec:dev1.ready <- ready",
          "alloca r.results.external:exec:dev2 -> r.results.external:exec:dev2.ready <- ready",
          "alloca r.results.external:exec:dev3 -> r.results.external:exec:dev3.ready <- ready",
          "execute @r -> r.done <- ready,r.results.external:exec:dev1.ready,"
          "r.results.external:exec:dev2.ready,r.results.external:exec:dev3.ready",
          "  copy external[0+1024] read %in r.results.external:exec:dev1[0+1024] write %to1 (dev1)",
          "  flush r.results.external:exec:dev1[0+1024] read %to1 (dev1)",
          "  copy[w0] external[0+1024] read %in r.results.external:exec:dev2[0+1024] write %to2 "
          "(dev2)",
          "  flush[w0] r.results.external:exec:dev2[0+1024] read %to2 (dev2)",
          "  copy[w0] external[0+1024] read %in r.results.external:exec:dev3[0+1024] write %to3 "
          "(dev3)",
          "  flush[w0] r.results.external:exec:dev3[0+1024] read %to3 (dev3)", "host <- r.done",
          "  output r.results.external:exec:dev1[0+1024] read %a r.results.external:exec:dev2[0+1024] "
          "read %b r.results.external:exec:dev3[0+1024] read %c"));
}

// 13. Binding access modes: a dispatch reads and writes a subrange of its
// operand (tied: read-write with the dispatch's own offset and length) and
// writes a new result (write-only at offset 0 of its reservation); a call
// gets the same bindings.
TEST(RegionScenarios, BindingAccessModes) {
  absl::StatusOr<testing_regions::Planned> p = PlanText(R"(
entry func @main(%x: 4096 external, %ready: timepoint) {
  %y, %z, %w, %done = execute(%x, %ready) : 4096, 512, 256, timepoint {callee = @r}
  return %y, %z, %w, %done
}
region @r(%operand: 4096, %await: timepoint) affinity("gpu0") {
  %rw, %new = dispatch(%operand[1024 for 2048]) : 4096 tied(%operand), 512
  %fresh = call(%new) : 256 {callee = @kernel}
  return %rw, %new, %fresh, %await
}
func @kernel(%in: 512) {
  %out = dispatch(%in) : 256
  return %out
}
)");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(Resources(*p),
              ElementsAre("r.results.external results external [gpu0] 768: z@0 w@512"));
  EXPECT_THAT(Steps(*p),
              ElementsAre("join -> ready", "host", "  input external[0+4096] write %x",
                          "alloca r.results.external -> r.results.external.ready <- ready",
                          "execute @r -> r.done <- ready,r.results.external.ready",
                          "  dispatch external[1024+2048] read-write %rw "
                          "r.results.external[0+512] write %new (dispatch)",
                          "  call r.results.external[0+512] read %new r.results.external[512+256] "
                          "write %fresh (kernel)",
                          "host <- r.done",
                          "  output external[0+4096] read %y r.results.external[0+512] read %z "
                          "r.results.external[512+256] read %w"));
}

}  // namespace
}  // namespace memplan
