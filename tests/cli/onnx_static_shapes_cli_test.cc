// Models exported at fixed input shapes plan as they are: every dim that
// follows from the graph's static input shapes is resolved by folding, the
// folded shape computations take no time step, and every plan is verified.
// A model with symbolic inputs gets one error naming every input dim to bind.
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace memplan {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing_cli::CliRun;
using testing_cli::FreshDir;
using testing_cli::Memplan;
using testing_cli::Slurp;
using Json = nlohmann::ordered_json;

const std::string kExported = MEMPLAN_SOURCE_DIR "/tests/data/onnx/";
const std::string kSharedOnnx = MEMPLAN_SHARED_DIR "/data/onnx/";

class OnnxStaticShapesCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshDir(); }
  void TearDown() override { fs::remove_all(dir_); }

  // Plans `model` with no --dim and returns the verified JSON plan.
  Json Plan(const std::string& model) {
    const std::string json = dir_ + "/plan.json";
    CliRun r = Memplan("plan " + model + " --json " + json);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("plan verified"));
    if (r.exit_code != 0) return Json::object();
    Json plan = Json::parse(Slurp(json));
    EXPECT_EQ(plan["verified"], true);
    return plan;
  }

  std::string dir_;
};

struct Exported {
  std::string file;
  int time_steps;
  int buffers;
};

// Time steps: the nodes whose outputs depend on the input's data, counted
// independently with the onnx Python package (a node is a shape computation
// when it is Shape/Size or all its inputs are initializers or shape
// computations). Every shape computation folds except, in the FPN/SSD, the
// anchors' final Concat and Cast: (1024 + 256 + 64) x 4 = 5376 elements, above
// the 4096-element bound. The Concat, constant-only, is then computed before
// the run (hoist_constants.h); the Cast writes graph output 287, so it stays
// (37 + 1 steps). Buffers: what the plan reports (tensors sharing storage
// through views, in-place ops and concat views are one buffer). ViT keeps 4
// more buffers than before views were checked against the live peak
// (io/onnx/alias_profile.h): 4 views that would have raised it stay copies
// (its transient extent, 30464 B, is the same). The FPN/SSD's three
// reshaped head outputs take their producers' buffers (outputs written in
// place): 53 buffers instead of 56.
// On main before the folding, ViT, GPT and Swin failed with "dim 0 'unk__0'
// is symbolic", UNet with "'unk__5'", and the FPN/SSD planned in 261 steps.
TEST_F(OnnxStaticShapesCliTest, ExportedModelsPlanWithoutDims) {
  const std::vector<Exported> models = {
      {"vit_tiny.onnx", 108, 116},  {"swin_tiny.onnx", 289, 391},
      {"fpn_ssd_tiny.onnx", 38, 53}, {"unet_tiny.onnx", 19, 26},
      {"gpt_tiny.onnx", 50, 62},
  };
  for (const Exported& m : models) {
    SCOPED_TRACE(m.file);
    const Json plan = Plan(kExported + m.file);
    EXPECT_EQ(plan["time_steps"], m.time_steps);
    EXPECT_EQ(plan["buffers"].size(), static_cast<size_t>(m.buffers));
  }
}

TEST_F(OnnxStaticShapesCliTest, EverySharedModelPlansWithoutDims) {
  if (!fs::is_directory(kSharedOnnx)) GTEST_SKIP() << "no shared data at " << kSharedOnnx;
  int planned = 0;
  for (const char* folder : {"torchvision", "zoo-light"}) {
    for (const auto& entry : fs::directory_iterator(kSharedOnnx + folder)) {
      if (entry.path().extension() != ".onnx") continue;
      SCOPED_TRACE(entry.path().string());
      Plan(entry.path().string());
      ++planned;
    }
  }
  EXPECT_EQ(planned, 15);
}

// The same decoder as gpt_tiny.onnx, exported with its batch and sequence
// dims symbolic: one error lists both, and the dims they leave unknown.
TEST_F(OnnxStaticShapesCliTest, SymbolicInputsAreNamedInOneError) {
  const std::string model = kExported + "symbolic_inputs.onnx";
  CliRun r = Memplan("plan " + model);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, model +
                       ": error: 97 tensor dims are symbolic; they follow from input dims: "
                       "'batch' (input 'ids' dim 0), 'seq' (input 'ids' dim 1); bind them with "
                       "--dim batch=VALUE --dim seq=VALUE\n");
  EXPECT_EQ(r.out, "");
  // Bound, it plans like gpt_tiny.onnx (exported at batch 2, sequence 16).
  const Json bound = [&] {
    const std::string json = dir_ + "/bound.json";
    CliRun b = Memplan("plan " + model + " --dim batch=2 --dim seq=16 --json " + json);
    EXPECT_EQ(b.exit_code, 0) << b.err;
    return b.exit_code == 0 ? Json::parse(Slurp(json)) : Json::object();
  }();
  const Json fixed = Plan(kExported + "gpt_tiny.onnx");
  EXPECT_EQ(bound["time_steps"], fixed["time_steps"]);
  EXPECT_EQ(bound["peak_bytes"], fixed["peak_bytes"]);
}

// A sequence length the model's fixed parts (its causal mask) do not allow:
// libonnx reports several nodes over several lines; memplan gives one line
// with the first node and the bindings in force.
TEST_F(OnnxStaticShapesCliTest, ADimTheModelDoesNotAllowIsOneLine) {
  const std::string model = kExported + "symbolic_inputs.onnx";
  CliRun r = Memplan("plan " + model + " --dim batch=1 --dim seq=17");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, model +
                       ": error: ONNX shape inference failed at node '/Where_1' (Where): Incompatible "
                       "dimensions (and 1 more node); the model may not allow the dims bound with "
                       "--dim batch=1 --dim seq=17\n");
  EXPECT_EQ(r.out, "");
}

// A --dim name the model lacks lists the symbolic dims of its inputs, not
// the exporter's names for inner dims (swin_tiny's value_info names one
// `Gemm2772_dim_0`).
TEST_F(OnnxStaticShapesCliTest, AnUnknownDimListsOnlyInputDims) {
  CliRun r = Memplan("plan " + kExported + "swin_tiny.onnx --dim batch=3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, kExported + "swin_tiny.onnx: error: --dim batch=3: the model has no symbolic dim "
                               "'batch' (its inputs have no symbolic dims)\n");
  r = Memplan("plan " + kExported + "symbolic_inputs.onnx --dim bach=3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, kExported + "symbolic_inputs.onnx: error: --dim bach=3: the model has no symbolic "
                               "dim 'bach' (the symbolic dims of its inputs: batch, seq)\n");
}

}  // namespace
}  // namespace memplan
