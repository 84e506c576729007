// The region verifier's check of subviews at offsets given by dims (rule 2,
// verify/region_view_checks.cc) and the input error a program gets when its
// plan without memory reuse fails it (driver/verification_failure.h): it
// names the view and what is wrong, located at the view's definition, and is
// not the "reads data it has itself overwritten" of a shadow-execution
// failure.
#include <string>

#include "driver/verification_failure.h"
#include "gtest/gtest.h"
#include "io/file_io.h"
#include "tests/driver/region_test_util.h"

namespace memplan {
namespace {

const std::string kDynamicSubviewProgram =
    MEMPLAN_SOURCE_DIR "/tests/data/regions/dynamic_subview.mpir";

// The slice of %buf (its slab, r.slab) made 4*%n + 256 bytes: as many as
// align(4*%n, 64) + 256 at the bound n = 1024, so every check at the
// evaluation point passes, but fewer for n = 1 (260 < 320), where %tail at
// align(4*%n, 64) ends past it.
testing_regions::Planned WithTheSliceOfBufShrunk() {
  absl::StatusOr<std::string> text = ReadFile(kDynamicSubviewProgram);
  EXPECT_TRUE(text.ok()) << text.status();
  absl::StatusOr<testing_regions::Planned> planned = testing_regions::PlanText(*text);
  EXPECT_TRUE(planned.ok()) << planned.status();
  const std::vector<std::string> names = DimNames(planned->program);
  bool shrunk = false;
  for (Resource& r : planned->plan.regions->resources) {
    if (r.name != "r.slab") continue;
    for (Slice& s : r.slices) {
      EXPECT_EQ(s.size.ToString(names), "align(4*%n, 64) + 256");
      s.size = SizeExpr::Dim(0).Scaled(4) + SizeExpr::Constant(256);
      EXPECT_EQ(s.size.ToString(names), "4*%n + 256");
      shrunk = true;
    }
  }
  EXPECT_TRUE(shrunk);
  return *std::move(planned);
}

TEST(RegionDynamicViewChecks, PlannedProgramPasses) {
  absl::StatusOr<std::string> text = ReadFile(kDynamicSubviewProgram);
  ASSERT_TRUE(text.ok()) << text.status();
  for (const std::map<std::string, std::int64_t>& dims :
       std::vector<std::map<std::string, std::int64_t>>{{}, {{"n", 1}}, {{"n", 341}}}) {
    absl::StatusOr<testing_regions::Planned> planned = testing_regions::PlanText(*text, {}, dims);
    EXPECT_TRUE(planned.ok()) << planned.status();
  }
}

TEST(RegionDynamicViewChecks, AViewPastItsSliceIsRule2AtTheView) {
  const testing_regions::Planned p = WithTheSliceOfBufShrunk();
  RegionFailureSite site;
  const absl::Status s = VerifyRegionPlan(p.program, p.analysis.buffers, p.plan, &site);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(),
            "region rule 2 (slices): %tail, a view at offset align(4*%n, 64) of its buffer, ends "
            "at align(4*%n, 64) + 256, not provably inside its slice of size 4*%n + 256 for every "
            "binding of the dims");
  ASSERT_NE(site.value, kNoId);
  EXPECT_EQ(p.program.values[site.value].name, "tail");
  EXPECT_FALSE(site.has_command);
}

TEST(RegionDynamicViewChecks, TheInputErrorNamesTheViewAtItsDefinition) {
  const testing_regions::Planned p = WithTheSliceOfBufShrunk();
  RegionFailureSite site;
  const absl::Status s = VerifyRegionPlan(p.program, p.analysis.buffers, p.plan, &site);
  ASSERT_FALSE(s.ok());
  const absl::Status error =
      RegionInputFailure(p.program, p.plan, "p.mpir", site, std::string(s.message()));
  EXPECT_EQ(error.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(error.message(),
            "p.mpir:14:3: error: subview %tail at an offset given by dims does not stay inside its "
            "buffer's memory for every binding of the dims (so even without memory reuse): %tail, "
            "a view at offset align(4*%n, 64) of its buffer, ends at align(4*%n, 64) + 256, not "
            "provably inside its slice of size 4*%n + 256 for every binding of the dims; bound "
            "the dims, or give the view an offset and size that provably end inside its operand");
  EXPECT_EQ(std::string(error.message()).find("overwritten"), std::string::npos);
}

// A failure of the shadow execution keeps its message (no view site).
TEST(RegionDynamicViewChecks, OtherFailuresKeepTheirMessage) {
  const testing_regions::Planned p = WithTheSliceOfBufShrunk();
  RegionFailureSite site;  // as a rule-5 failure leaves it: a command, no value
  site.has_command = false;
  const absl::Status error = RegionInputFailure(
      p.program, p.plan, "p.mpir", site,
      "region rule 5 (shadow execution): dispatch %o reads bytes it has not written");
  EXPECT_EQ(error.message(),
            "p.mpir: error: the program reads data it has itself overwritten (so even without "
            "memory reuse): dispatch %o reads bytes it has not written; clone a value before "
            "writing it in place, or read the written value");
}

}  // namespace
}  // namespace memplan
