// Captured copies' ratings (driver/captured_copy_rating.h) on
// tests/data/regions/captured_copy.mpir, by hand: edge-npu reads of 4096
// bytes save 4096 x (1/8e9 - 1/64e9) = 4.48e-7 s each and a copy costs
// 4096 / 8e9 = 5.12e-7 s; npu-3level's scratchpad saves 4.96e-7 s per read
// and the dram -> scratchpad copy costs 1e-7 + 5.12e-7 s.
#include <string>

#include "analysis/analyze.h"
#include "driver/captured_copy_rating.h"
#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "msa/target.h"

namespace memplan {
namespace {

struct Loaded {
  Program program;
  ProgramAnalysis analysis;
};

Loaded Load(const std::string& text) {
  absl::StatusOr<Program> program = ParseProgram(text, "test.mpir");
  EXPECT_TRUE(program.ok()) << program.status();
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(*program);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  return Loaded{*std::move(program), *std::move(analysis)};
}

Loaded LoadScenario() {
  absl::StatusOr<Program> program =
      ParseProgramFile(std::string(MEMPLAN_SOURCE_DIR) + "/tests/data/regions/captured_copy.mpir");
  EXPECT_TRUE(program.ok()) << program.status();
  absl::StatusOr<ProgramAnalysis> analysis = AnalyzeProgram(*program);
  EXPECT_TRUE(analysis.ok()) << analysis.status();
  return Loaded{*std::move(program), *std::move(analysis)};
}

TEST(CapturedCopyRatingTest, FlatTargetKeepsTheWeightOnly) {
  const Loaded l = LoadScenario();
  const Target t = *ResolveTarget("edge-npu");
  const std::vector<CopyCandidate> c = RateCapturedCopies(l.program, l.analysis, t, 0, {});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(l.program.values[c[0].value].name, "w");
  EXPECT_EQ(c[0].bytes, 4096);
  EXPECT_DOUBLE_EQ(c[0].copy_s, 5.12e-7);
  EXPECT_NEAR(c[0].saves_s, 4 * 4.48e-7 - 5.12e-7, 1e-18);
}

TEST(CapturedCopyRatingTest, HierarchyCostsTheLinkAndLatency) {
  const Loaded l = LoadScenario();
  Target t = *ResolveTarget("npu-3level");
  t.alternate_bandwidth = 2.56e11;  // the scratchpad's, as the driver rates level 0
  const std::vector<CopyCandidate> c = RateCapturedCopies(l.program, l.analysis, t, 0, {});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(l.program.values[c[0].value].name, "w");
  EXPECT_NEAR(c[0].copy_s, 6.12e-7, 1e-18);
  EXPECT_NEAR(c[0].saves_s, 4 * 4.96e-7 - 6.12e-7, 1e-18);
}

// A value the region writes in place is never copied, however often read.
TEST(CapturedCopyRatingTest, WrittenValueIsNoCandidate) {
  const Loaded l = Load(R"(program @p
entry func @main(%in: 4096 external, %ready: timepoint) {
  %out, %done = execute(%in, %ready) : 4096 external, timepoint {callee = @r}
  return %out, %done
}
region @r(%x: 4096, %await: timepoint) affinity("gpu0") {
  %a = dispatch(%x) : 4096
  %b = dispatch(%x, %a) : 4096
  %c = dispatch(%x, %b) : 4096
  %y = fill(%x[0 for 4096]) : 4096 tied(%x)
  return %y, %await
}
)");
  EXPECT_TRUE(RateCapturedCopies(l.program, l.analysis, *ResolveTarget("edge-npu"), 0, {}).empty());
}

}  // namespace
}  // namespace memplan
