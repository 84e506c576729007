// Inputs past memplan's limits (ir/units.h: 2^62 bytes in total counting
// alignment padding, alignment at most 2^32) exit 2 with a located error in
// plan, verify and stats, instead of overflowing.
#include <filesystem>
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::WriteText;

class LimitsTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Csv(const std::string& rows) {
    const std::string path = dir_ + "/x.csv";
    WriteText(path, "id,lower,upper,size,alignment\n" + rows);
    return path;
  }

  // `plan` (with `flags`, all algorithms' default auto), `stats` and `verify`
  // all fail with exit 2 and `message`; plan writes no JSON.
  void ExpectRejected(const std::string& input, const std::string& flags,
                      const std::string& message) {
    const std::string json = dir_ + "/plan.json";
    // verify reads the plan's input options first, then the input.
    const std::string saved = dir_ + "/saved.json";
    WriteText(saved, R"({"schema": "memplan.plan/1", "input_options": {"alias": true, "dims": {}}})");
    for (const std::string& args :
         {"plan " + input + " " + flags + " --json " + json, "stats " + input,
          "verify " + input + " " + saved}) {
      SCOPED_TRACE(args);
      CliRun r = Memplan(args);
      EXPECT_EQ(r.exit_code, 2);
      EXPECT_EQ(r.err, message + "\n");
      EXPECT_EQ(r.out, "");
      EXPECT_FALSE(fs::exists(json));
      if (!flags.empty()) break;  // the flag matters only to plan
    }
  }

  std::string dir_;
};

TEST_F(LimitsTest, ABufferOfTwoToThe63MinusOneBytes) {
  const std::string csv = Csv("huge,0,2,9223372036854775807,1\n");
  ExpectRejected(csv, "",
                 csv + ":2:10: error: size 9223372036854775807 is above the limit of 2^62 "
                       "(4611686018427387904) bytes");
}

// An op's scratch buffer has no value to point at: the error is at the op.
TEST_F(LimitsTest, ScratchOfTwoToThe63MinusOneBytesIsLocatedAtItsOp) {
  const std::string path = dir_ + "/scratch.mpir";
  WriteText(path,
            "entry func @main(%x: f32[4]) {\n  %y = exp(%x) : f32[4] {scratch = 9223372036854775807}\n"
            "  return %y\n}\n");
  ExpectRejected(path, "",
                 path + ":2:8: error: buffer 'y.scratch' is 9223372036854775807 bytes, above the limit of "
                        "2^62 (4611686018427387904) bytes per input");
}

TEST_F(LimitsTest, TwoBuffersOfTwoToThe62Bytes) {
  const std::string csv = Csv("a,0,2,4611686018427387904,1\nb,1,3,4611686018427387904,1\n");
  ExpectRejected(csv, "",
                 csv + ": error: the buffers total more than 2^62 (4611686018427387904) bytes "
                       "counting alignment padding (reached at buffer 'b'); memplan plans at "
                       "most that much");
}

TEST_F(LimitsTest, OneBufferOfExactlyTwoToThe62BytesPlans) {
  const std::string csv = Csv("a,0,2,4611686018427387904,1\n");
  CliRun r = Memplan("plan " + csv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  CliRun stats = Memplan("stats " + csv);
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_THAT(stats.out, ::testing::HasSubstr("lower bound (max live activations): "
                                              "4611686018427387904 bytes (4.00 EiB) at step 0\n"));
}

// One buffer past the limit only with its padding: located at its row when
// the CSV alignment does it, named when --alignment does.
TEST_F(LimitsTest, OneBufferPastTheLimitWithItsPadding) {
  const std::string csv = Csv("b1,0,3,4611686018427387904,2\n");
  ExpectRejected(csv, "",
                 csv + ":2:8: error: size 4611686018427387904 with alignment 2 is above the limit "
                       "of 2^62 (4611686018427387904) bytes counting alignment padding");
  const std::string aligned = Csv("b1,0,3,4611686018427387904,1\n");
  CliRun r = Memplan("plan " + aligned + " --alignment 64");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, aligned + ": error: buffer 'b1' is 4611686018427387904 bytes plus up to 63 "
                             "bytes of alignment padding, above the limit of 2^62 "
                             "(4611686018427387904) bytes per input\n");
}

TEST_F(LimitsTest, AlignmentPaddingCountsTowardsTheTotal) {
  // 2 * 2^61 = 2^62 fits alone; with --alignment 2^32 each buffer may need
  // 2^32 - 1 bytes of padding, so the total passes the limit.
  const std::string csv = Csv("a,0,2,2305843009213693952,1\nb,1,3,2305843009213693952,1\n");
  CliRun fits = Memplan("plan " + csv + " -q");
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
  const std::string json = dir_ + "/plan.json";
  CliRun r = Memplan("plan " + csv + " --alignment 4GiB --json " + json);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, csv + ": error: the buffers total more than 2^62 (4611686018427387904) bytes "
                         "counting alignment padding (reached at buffer 'b'); memplan plans at "
                         "most that much\n");
  EXPECT_FALSE(fs::exists(json));
}

TEST_F(LimitsTest, CsvAlignmentAboveTwoToThe32) {
  const std::string csv = Csv("a,0,2,8,8589934592\n");
  ExpectRejected(csv, "",
                 csv + ":2:9: error: alignment 8589934592 is above the limit of 2^32 "
                       "(4294967296)");
}

}  // namespace
}  // namespace memplan
