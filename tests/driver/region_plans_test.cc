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
