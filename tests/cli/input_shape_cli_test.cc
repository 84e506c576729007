// --input-shape and sweep --batch on ONNX models: new static input shapes,
// every other shape inferred again; located errors for a wrong name, rank or
// spelling (exit 2). unet_tiny.onnx (tests/data/onnx/README.md) is exported
// at x = [1, 3, 32, 32]; its activations scale with the batch.
#include <string>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

using ::testing::HasSubstr;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;

const std::string kUnet = MEMPLAN_SOURCE_DIR "/tests/data/onnx/unet_tiny.onnx";

// Plans with `flags`, checks that `memplan verify` reloads the input the
// same way (the JSON records the shapes), returns the peak.
std::int64_t Peak(const std::string& flags) {
  const std::string json = FreshDir() + "/plan.json";
  CliRun run = Memplan("plan " + kUnet + " --quiet --json " + json + " " + flags);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  if (run.exit_code != 0) return -1;
  CliRun verify = Memplan("verify " + kUnet + " " + json);
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  return nlohmann::json::parse(Slurp(json))["peak_bytes"].get<std::int64_t>();
}

TEST(InputShapeCli, PeakAtBatchTwo) {
  EXPECT_EQ(Peak(""), 163840);
  EXPECT_EQ(Peak("--input-shape x=1x3x32x32"), 163840);  // the exported shape
  EXPECT_EQ(Peak("--input-shape x=2x3x32x32"), 393216);
}

TEST(InputShapeCli, SweepBatchSetsTheLeadingDim) {
  CliRun run = Memplan("sweep " + kUnet + " --batch 1,2,4 --csv -");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("\n1,,163840,"));
  EXPECT_THAT(run.out, HasSubstr("\n2,,393216,"));
  EXPECT_THAT(run.out, HasSubstr("\n4,,786432,"));
}

TEST(InputShapeCli, ErrorsAreLocated) {
  CliRun name = Memplan("plan " + kUnet + " --input-shape img=2x3x32x32");
  EXPECT_EQ(name.exit_code, 2);
  EXPECT_THAT(name.err, HasSubstr("unet_tiny.onnx: error: --input-shape img=2x3x32x32: the model "
                                  "has no input 'img' (its inputs: x)"));
  CliRun rank = Memplan("stats " + kUnet + " --input-shape x=2x3x32");
  EXPECT_EQ(rank.exit_code, 2);
  EXPECT_THAT(rank.err, HasSubstr("--input-shape x=2x3x32: input 'x' has rank 4 ([1, 3, 32, 32]), "
                                  "the shape gives 3 dims"));
  CliRun spelling = Memplan("plan " + kUnet + " --input-shape x=2x3xx32");
  EXPECT_EQ(spelling.exit_code, 2);
  EXPECT_THAT(spelling.err, HasSubstr("--input-shape expects NAME=DIMS"));
  CliRun baked = Memplan("plan " + kUnet + " --input-shape x=1x3x64x64");
  EXPECT_EQ(baked.exit_code, 2);
  EXPECT_THAT(baked.err, HasSubstr("the model may not allow the input shapes given with "
                                   "--input-shape x=1x3x64x64"));
  CliRun ir = Memplan("stats " + testing_cli::kMlp + " --input-shape x=2");
  EXPECT_EQ(ir.exit_code, 2);
  EXPECT_THAT(ir.err, HasSubstr("--input-shape applies only to ONNX models"));
  CliRun batch = Memplan("sweep " + kUnet + " --batch 1,0");
  EXPECT_EQ(batch.exit_code, 2);
  EXPECT_THAT(batch.err, HasSubstr("--batch expects VALUE[,VALUE...]"));
}

}  // namespace
}  // namespace memplan
