// The windowed fast path of ONNX shape inference (io/onnx/windowed_inference.h):
// it finishes where every tensor gets static dims and gives the types the
// whole-graph rounds give; elsewhere it steps aside for them.
#include <string>
#include <unordered_map>

#include "gtest/gtest.h"
#include "io/onnx/model.h"
#include "io/onnx/shapes.h"
#include "io/onnx/windowed_inference.h"

namespace memplan {
namespace {

const std::string kSource = MEMPLAN_SOURCE_DIR;

std::unordered_map<std::string, KnownTensor> IntegerInitializers(const onnx::ModelProto& model) {
  std::unordered_map<std::string, KnownTensor> values;
  for (const onnx::TensorProto& init : model.graph().initializer()) {
    if (std::optional<KnownTensor> v = KnownTensorFromProto(init)) values.emplace(init.name(), *v);
  }
  return values;
}

// swin_tiny.onnx needs folds between inferences along its whole depth (pad
// sizes -> Pad -> Shape -> window reshape); the windows reach every tensor,
// down to the logits [1, 10] (traced by the exporter as [Gemm2772_dim_0, 10]).
TEST(WindowedInferenceTest, SwinTinyGetsEveryTensorStatic) {
  absl::StatusOr<onnx::ModelProto> model = ReadOnnxModel(kSource + "/tests/data/onnx/swin_tiny.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  std::unordered_map<std::string, KnownTensor> values = IntegerInitializers(*model);
  onnx::ModelProto copy = *model;
  std::optional<onnx::GraphProto> types = InferInWindows(copy, values);
  ASSERT_TRUE(types.has_value());
  int node_outputs = 0;
  for (const onnx::NodeProto& node : model->graph().node()) node_outputs += node.output_size();
  // Every node output but the graph output is in value_info, all static.
  EXPECT_EQ(types->value_info_size() + types->output_size(), node_outputs);
  for (const onnx::ValueInfoProto& info : types->value_info()) {
    for (const auto& dim : info.type().tensor_type().shape().dim()) {
      EXPECT_TRUE(dim.has_dim_value()) << info.name();
    }
  }
  const auto& logits = types->output(0).type().tensor_type().shape();
  ASSERT_EQ(logits.dim_size(), 2);
  EXPECT_EQ(logits.dim(0).dim_value(), 1);
  EXPECT_EQ(logits.dim(1).dim_value(), 10);
}

// Unbound symbolic inputs and subgraphs: nullopt, so the whole-graph rounds
// give their results and messages.
TEST(WindowedInferenceTest, StepsAsideForSymbolicDimsAndSubgraphs) {
  for (const std::string& path : {kSource + "/tests/data/onnx/symbolic_inputs.onnx",
                                  kSource + "/examples/rnn_loop.onnx"}) {
    absl::StatusOr<onnx::ModelProto> model = ReadOnnxModel(path);
    ASSERT_TRUE(model.ok()) << model.status();
    std::unordered_map<std::string, KnownTensor> values = IntegerInitializers(*model);
    EXPECT_FALSE(InferInWindows(*model, values).has_value()) << path;
  }
}

}  // namespace
}  // namespace memplan
