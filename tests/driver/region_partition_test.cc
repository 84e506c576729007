// --regions: wrapping a flat program into execution regions
// (regions/region_partition.h), and the bundled ONNX model planned that way.
#include "regions/region_partition.h"

#include <string>

#include "driver/input.h"
#include "driver/region_pools.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "ir/text_printer.h"
#include "tests/driver/region_test_util.h"
#include "verify/region_checks.h"
#include "verify/verifier.h"

namespace memplan {
namespace {

constexpr const char* kFlat = R"(entry func @main(%x: 64 external, %w: 32 constant) {
  %a = conv(%x, %w) : 128
  %b = relu(%a) : 128 tied(%a)
  %c = conv(%b, %w) : 64
  return %c
}
)";

TEST(RegionPartition, OneRegionHoldsEverything) {
  absl::StatusOr<Program> flat = ParseProgram(kFlat, "t.mpir");
  ASSERT_TRUE(flat.ok()) << flat.status();
  absl::StatusOr<Program> wrapped = PartitionIntoRegions(*flat, 0);
  ASSERT_TRUE(wrapped.ok()) << wrapped.status();
  EXPECT_EQ(PrintProgram(*wrapped), R"(entry func @main(%x: 64 external, %ready: timepoint) {
  %c.out0, %region0.done = execute(%x, %ready) : 64, timepoint {callee = @region0}
  return %c.out0, %region0.done
}

region @region0(%x.in0: 64, %region0.await: timepoint) affinity("device") {
  %w = constant() : 32 constant
  %a = conv(%x.in0, %w) : 128
  %b = relu(%a) : 128 tied(%a)
  %c = conv(%b, %w) : 64
  return %c, %region0.await
}
)");
}

TEST(RegionPartition, RegionsPerTwoChainsTimepointsAndPassesTheWeightOn) {
  absl::StatusOr<Program> flat = ParseProgram(kFlat, "t.mpir");
  ASSERT_TRUE(flat.ok()) << flat.status();
  absl::StatusOr<Program> wrapped = PartitionIntoRegions(*flat, 2);
  ASSERT_TRUE(wrapped.ok()) << wrapped.status();
  const std::string text = PrintProgram(*wrapped);
  EXPECT_EQ(text, R"(entry func @main(%x: 64 external, %ready: timepoint) {
  %w.out0, %b.out0, %region0.done = execute(%x, %ready) : 32, 128, timepoint {callee = @region0}
  %c.out1, %region1.done = execute(%b.out0, %w.out0, %region0.done) : 64, timepoint {callee = @region1}
  return %c.out1, %region1.done
}

region @region0(%x.in0: 64, %region0.await: timepoint) affinity("device") {
  %w = constant() : 32 constant
  %a = conv(%x.in0, %w) : 128
  %b = relu(%a) : 128 tied(%a)
  return %w, %b, %region0.await
}

region @region1(%b.in1: 128, %w.in1: 32, %region1.await: timepoint) affinity("device") {
  %c = conv(%b.in1, %w.in1) : 64
  return %c, %region1.await
}
)");
  // It plans and verifies: the weight is an escaping upload of region0.
  absl::StatusOr<testing_regions::Planned> p = testing_regions::PlanText(text);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_THAT(testing_regions::Resources(*p),
              ::testing::ElementsAre("region0.upload.constant upload constant [device] 64: w.out0@0",
                                     "region0.results results transient [device] 128: b.out0@0",
                                     "region1.results.external results external [device] 64: c.out1@0"));
}

TEST(RegionPartition, RefusesProgramsWithControlFlowOrRegions) {
  absl::StatusOr<Program> p = ParseProgram(
      "entry func @main(%x: 4) {\n  %y = call(%x) : 4 {callee = @f}\n  return %y\n}\n"
      "func @f(%p: 4) {\n  %q = exp(%p) : 4\n  return %q\n}\n",
      "t.mpir");
  ASSERT_TRUE(p.ok()) << p.status();
  absl::StatusOr<Program> wrapped = PartitionIntoRegions(*p, 0);
  EXPECT_EQ(wrapped.status().message(),
            "t.mpir: error: --regions: the program has several computations (control flow or "
            "regions); --regions wraps a flat program");
}

// The bundled MobileNetV2 as one region: weights in one upload, the slab at
// its lower bound and equal to memplan's transient extent without regions.
TEST(RegionPartition, BundledOnnxModelAsOneRegion) {
  LoadOptions options;
  options.regions_per = 0;
  absl::StatusOr<LoadedInput> input =
      LoadInput(std::string(MEMPLAN_SOURCE_DIR) + "/examples/mobilenet_v2.onnx", options);
  ASSERT_TRUE(input.ok()) << input.status();
  absl::StatusOr<Plan> plan =
      PlanRegions(*input->program, *input->analysis, RegionPlanOptions{}, PoolPlanOptions{});
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_TRUE(VerifyRegionPlan(*input->program, input->buffers, *plan).ok());
  ASSERT_EQ(plan->regions->regions.size(), 1u);
  const RegionInfo& region = plan->regions->regions[0];
  EXPECT_EQ(region.slab_bytes, 6021120);  // 5.74 MiB, as docs/models.md's transient peak
  EXPECT_EQ(region.slab_lower_bound, 6021120);
  int uploads = 0;
  for (const Resource& r : plan->regions->resources) uploads += r.kind == ResourceKind::kUpload;
  EXPECT_EQ(uploads, 1);
}

}  // namespace
}  // namespace memplan
