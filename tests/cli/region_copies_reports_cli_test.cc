// The summary and the memory map show regions' copies of captured values
// (RegionCopy) on tests/data/regions/captured_copy.mpir: %w (4096 bytes)
// copied into the fast slab at offset 0 over steps 0..3, beside the slices
// a, b, c (1024 bytes each; a and b live at step 1).
#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;

const std::string kCopyScenario = MEMPLAN_SOURCE_DIR "/tests/data/regions/captured_copy.mpir";

class RegionCopiesReportsCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir_;
};

// The peak listing counts the copy, so it agrees with the space's max live
// (6144 bytes at step 1); the pool row stays the slices and says so.
TEST_F(RegionCopiesReportsCliTest, SummaryCountsTheCopy) {
  CliRun r = Memplan("plan " + kCopyScenario + " --target npu-3level");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(
      "r.scratchpad       scratchpad        3           3072           6144           6144    "
      "0.00%\n"
      "  (r.scratchpad also holds 1 copy (w, 4096 bytes over steps 0..3) in its extent; its "
      "buffers and bytes count the plan's buffers only, its slices, as verify checks them)\n"));
  EXPECT_THAT(r.out, HasSubstr(
      "scratchpad memory activation peak (1 copy of captured values included): 6144 bytes live "
      "at step 1 (op %b = dispatch) in 3 buffers (of 4 with bytes there):\n"
      "   66.67%  w (copy): 4096 bytes (4.00 KiB)\n"
      "   16.67%  a: 1024 bytes (1.00 KiB)\n"
      "   16.67%  b: 1024 bytes (1.00 KiB)\n"));
  EXPECT_THAT(r.out, HasSubstr("max live 6144 bytes (6.00 KiB) at step 1 (0.00% over)\n"));
}

TEST_F(RegionCopiesReportsCliTest, SummaryWithFastMemory) {
  CliRun r = Memplan("plan " + kCopyScenario + " --fast-memory 8192");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  (r.fast also holds 1 copy (w, 4096 bytes over steps 0..3) in "
                               "its extent;"));
  EXPECT_THAT(r.out, HasSubstr("alternate memory activation peak (1 copy of captured values "
                               "included): 6144 bytes live at step 1"));
}

// The copy is a block in the scratchpad panel over steps 0..3 (x 88 to
// 955.2 of 5 steps), 4096 bytes high from the panel's bottom, drawn like an
// async copy's bar (k6 = prefetch) and named inside.
TEST_F(RegionCopiesReportsCliTest, MapDrawsTheCopyBlock) {
  const std::string svg = dir_ + "/map.svg";
  CliRun r = Memplan("plan " + kCopyScenario + " --target npu-3level -q --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = Slurp(svg);
  EXPECT_THAT(text, HasSubstr(
      "<rect class=\"k6 copy region-copy\" data-rc=\"0:0\" x=\"88\" y=\"610.67\" "
      "width=\"867.2\" height=\"213.33\"><title>w (copy): 4 KiB from dram memory at step 0, "
      "read through step 3</title></rect>\n"
      "<text class=\"alloc-label\" x=\"92\" y=\"820\">w (copy)</text>\n"));
  // The panel's peak counts the copy, as the summary's max live does.
  EXPECT_THAT(text, HasSubstr(">peak step 1 · 6 KiB live · %b = dispatch</text>"));
  const std::string html = dir_ + "/map.html";
  r = Memplan("plan " + kCopyScenario + " --target npu-3level -q --html " + html);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(Slurp(html), HasSubstr(">w (copy)</text>"));
}

// Without copies nothing of this shows.
TEST_F(RegionCopiesReportsCliTest, NoCopyNoMarks) {
  const std::string svg = dir_ + "/map.svg";
  CliRun r = Memplan("plan " + kCopyScenario + " --svg " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("(copy)")));
  EXPECT_THAT(r.out, Not(HasSubstr("also holds")));
  EXPECT_THAT(Slurp(svg), Not(HasSubstr("region-copy")));
}

}  // namespace
}  // namespace memplan
