// Region plans beyond the reference scenarios: dynamic sizes shared across
// different dims (better than IREE), --max-allocation-size, IREE's layout
// with --pack in-order.
#include <map>
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

// %p (4a bytes) and %s (8b bytes) are never live together: they share offset
// 0 although their sizes differ (IREE shares dynamic slices only when their
// size is the very same value). The static %q sits above both.
constexpr const char* kTwoDims = R"(
dim %a <= 4096
dim %b <= 1024
entry func @main(%x: 256 external, %ready: timepoint) {
  %y, %done = execute(%x, %ready) : 256, timepoint {callee = @r}
  return %y, %done
}
region @r(%in: 256, %await: timepoint) affinity("gpu0") {
  %p = dispatch(%in) : (4*%a)
  %q = dispatch(%p) : 512
  %s = dispatch(%q) : (8*%b)
  %o = dispatch(%s, %in) : 256
  return %o, %await
}
)";

TEST(RegionPlans, DifferentDynamicSizesShareStorage) {
  absl::StatusOr<testing_regions::Planned> p = PlanText(kTwoDims);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(Resources(*p),
              ElementsAre("r.results.external results external [gpu0] 256: y@0",
                          "r.slab slab transient [gpu0] max(align(4*%a, 64) + 512, "
                          "align(8*%b, 64) + 512): p@0 s@0 q@max(align(4*%a, 64), align(8*%b, 64))"));
  // IREE's layout stacks the two dynamic slices after the static one.
  RegionPlanOptions in_order;
  in_order.pack = "in-order";
  absl::StatusOr<testing_regions::Planned> iree = PlanText(kTwoDims, in_order);
  ASSERT_TRUE(iree.ok()) << iree.status();
  EXPECT_THAT(Resources(*iree),
              ElementsAre("r.results.external results external [gpu0] 256: y@0",
                          "r.slab slab transient [gpu0] align(4*%a, 64) + align(8*%b, 64) + 512: "
                          "q@0 p@512 s@align(4*%a, 64) + 512"));
}

// --alignment need not be a power of two: slices are laid out on the least
// common multiple of it and --offset-alignment (3 and 64: 192), which the
// plan records, so every offset is a multiple of both.
constexpr const char* kStatic = R"(
entry func @main(%x: 256 external, %ready: timepoint) {
  %y, %done = execute(%x, %ready) : 256, timepoint {callee = @r}
  return %y, %done
}
region @r(%in: 256, %await: timepoint) affinity("gpu0") {
  %p = dispatch(%in) : 100
  %q = dispatch(%p) : 70
  %s = dispatch(%q, %p) : 30
  %o = dispatch(%s, %in) : 256
  return %o, %await
}
)";

TEST(RegionPlans, NonPowerOfTwoAlignment) {
  PoolPlanOptions pools;
  pools.alignment = 3;
  absl::StatusOr<testing_regions::Planned> p = PlanText(kStatic, {}, {}, pools);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->plan.regions->options.offset_alignment, 192);
  EXPECT_THAT(Resources(*p), ElementsAre("r.results.external results external [gpu0] 256: y@0",
                                         "r.slab slab transient [gpu0] 448: p@0 q@192 s@384"));
  // Every offset is a multiple of 3; the region's slices of both.
  for (const BufferPlacement& placement : p->plan.placements) {
    for (const Allocation& a : placement.allocations) {
      EXPECT_EQ(a.offset % (placement.pool.str().starts_with("r.") ? 192 : 3), 0)
          << placement.pool << " " << a.offset;
    }
  }
}

TEST(RegionPlans, AlignmentsWhoseLcmIsTooLarge) {
  PoolPlanOptions pools;
  pools.alignment = kMaxAlignment - 1;
  RegionPlanOptions regions;
  regions.offset_alignment = kMaxAlignment;
  absl::StatusOr<testing_regions::Planned> p = PlanText(kStatic, regions, {}, pools);
  EXPECT_EQ(p.status().message(),
            "--offset-alignment 4294967296 and --alignment 4294967295 combine to a slice alignment "
            "(their least common multiple) above the supported 2^32 (4294967296); choose "
            "alignments that divide one another");
}

// A command that reads a value in the wave where another writes over it in
// place races with that write (the text IR's validator sees only the text
// order, where the read comes first): refused, located at the reader.
TEST(RegionPlans, ReadInTheWaveOfAnInPlaceWriteIsRefused) {
  constexpr const char* kRace = R"(entry func @main(%x: 256 external, %ready: timepoint) {
  %y, %done = execute(%x, %ready) : 256, timepoint {callee = @r}
  return %y, %done
}
region @r(%in: 256, %await: timepoint) affinity("gpu0") {
  %a = dispatch(%in) : 256 {wave = 0}
  %z = splat() : 256 {wave = 0}
  %b = dispatch(%a) : 256 {wave = 1}
  %c = update(%z, %a[0 for 256]) : 256 tied(%a) {wave = 1}
  %o = dispatch(%c, %b) : 256 {wave = 2}
  return %o, %await
}
)";
  absl::StatusOr<testing_regions::Planned> p = PlanText(kRace);
  EXPECT_EQ(p.status().message(),
            "t.mpir:8:8: error: %a is read by dispatch in the wave where %c overwrites it in place "
            "(at 9:8); "
            "clone it first (e.g. %a_copy = clone(%a)) and read the clone");
}

// The same symbolic plan, evaluated and shadow-executed (PlanText runs the
// region verifier) at several bindings, the bounds included.
TEST(RegionPlans, DynamicPlanVerifiesAtEveryBinding) {
  const std::vector<std::map<std::string, std::int64_t>> bindings = {
      {{"a", 1}, {"b", 1}},       {{"a", 4096}, {"b", 1024}}, {{"a", 4096}, {"b", 1}},
      {{"a", 1}, {"b", 1024}},    {{"a", 100}, {"b", 7}},     {{"a", 17}, {"b", 999}}};
  for (const auto& dims : bindings) {
    absl::StatusOr<testing_regions::Planned> p = PlanText(kTwoDims, {}, dims);
    ASSERT_TRUE(p.ok()) << p.status();
    const std::int64_t a = dims.at("a"), b = dims.at("b");
    const Bytes expected =
        std::max(AlignUp(4 * a, 64), AlignUp(8 * b, 64)) + 512;  // the slab expression
    const RegionInfo& region = p->plan.regions->regions[0];
    EXPECT_EQ(region.slab_bytes, expected) << "a=" << a << " b=" << b;
    EXPECT_EQ(region.slab_lower_bound, std::max(4 * a, 8 * b) + 512);
  }
}

// Two regions that may run at the same time (each awaits only %ready): their
// slabs never share bytes although the program's text order puts one after
// the other; a transient result reservation is released after its last
// reader, and host steps wait for the regions whose results they read.
TEST(RegionPlans, ConcurrentRegionsNeverShareAndReservationsAreReleased) {
  absl::StatusOr<testing_regions::Planned> p = PlanText(R"(
entry func @main(%x: 4096 external, %ready: timepoint) {
  %a, %ta = execute(%x, %ready) : 1024, timepoint {callee = @ra}
  %b, %tb = execute(%x, %ready) : 1024, timepoint {callee = @rb}
  %c, %tc = execute(%a, %b, %ta, %tb) : 64 external, timepoint {callee = @rc}
  return %c, %tc
}
region @ra(%in: 4096, %t: timepoint) affinity("gpu0") {
  %p = dispatch(%in) : 65536
  %q = dispatch(%p) : 1024
  return %q, %t
}
region @rb(%in2: 4096, %t2: timepoint) affinity("gpu1") {
  %p2 = dispatch(%in2) : 65536
  %q2 = dispatch(%p2) : 1024
  return %q2, %t2
}
region @rc(%u: 1024, %v: 1024, %w0: timepoint, %w1: timepoint) affinity("gpu0") {
  %s = dispatch(%u, %v) : 64
  return %s, %w0
}
)");
  ASSERT_TRUE(p.ok()) << p.status();
  std::map<std::string, const PoolInfo*> pools;
  for (const PoolInfo& pool : p->plan.pools) pools[pool.name] = &pool;
  const PoolInfo& ra = *pools.at("ra.slab");
  const PoolInfo& rb = *pools.at("rb.slab");
  EXPECT_TRUE(ra.offset + ra.size <= rb.offset || rb.offset + rb.size <= ra.offset);
  EXPECT_EQ(p->plan.peak, 2 * 65536 + 2 * 1024);  // both slabs and both reservations at once
  const std::vector<std::string> steps = testing_regions::Steps(*p);
  EXPECT_THAT(steps, ::testing::Contains("dealloca ra.results -> ra.results.freed <- "
                                         "ra.done,rc.done"));
  EXPECT_THAT(steps, ::testing::Contains("host <- rc.done"));
}

// --max-allocation-size 4096: a result reservation, the slab and the
// constant upload are each split; %b (8192 bytes) gets an allocation of its
// own and a warning.
TEST(RegionPlans, MaxAllocationSizeSplitsEveryKind) {
  RegionPlanOptions options;
  options.max_allocation_size = 4096;
  absl::StatusOr<testing_regions::Planned> p = PlanText(R"(
entry func @main(%x: 1024 external, %ready: timepoint) {
  %r0, %r1, %r2, %big, %c0, %c1, %done = execute(%x, %ready) : 2048, 2048, 2048, 8192, 3000, 3000, timepoint {callee = @r}
  return %r0, %r1, %r2, %big, %c0, %c1, %done
}
region @r(%in: 1024, %await: timepoint) affinity("gpu0") {
  %k0 = constant() : 3000
  %k1 = constant() : 3000
  %t0 = dispatch(%in) : 3000
  %t1 = dispatch(%in) : 3000
  %a0 = dispatch(%t0, %t1) : 2048
  %a1 = dispatch(%t0, %t1, %k0, %k1) : 2048
  %a2 = dispatch(%a0, %a1) : 2048
  %b = dispatch(%a2) : 8192
  return %a0, %a1, %a2, %b, %k0, %k1, %await
}
)",
                                                        options);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(Resources(*p),
              ElementsAre("r.upload.constant.part1 upload constant [gpu0] 3008: c0@0",
                          "r.upload.constant.part2 upload constant [gpu0] 3008: c1@0",
                          "r.results.external.part1 results external [gpu0] 4096: r0@0 r1@2048",
                          "r.results.external.part2 results external [gpu0] 2048: r2@0",
                          "r.results.external.part3 results external [gpu0] 8192: big@0",
                          "r.slab.part1 slab transient [gpu0] 3008: t0@0",
                          "r.slab.part2 slab transient [gpu0] 3008: t1@0"));
  EXPECT_THAT(p->plan.regions->warnings,
              ElementsAre("r.results.external.part3 holds big alone: it needs 8192 bytes, more "
                          "than --max-allocation-size 4096"));
  for (const Resource& r : p->plan.regions->resources) {
    EXPECT_EQ(r.over_limit, r.name == "r.results.external.part3") << r.name;
  }
}

}  // namespace
}  // namespace memplan
