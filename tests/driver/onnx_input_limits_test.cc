// An ONNX model whose tensors are each within the 2^62-byte limit but whose
// costs and total are not: loading it ends in the located total-limit error
// (a user test got "bytes_accessed must be >= 0" from an overflowed cost).
#include <cstdint>
#include <string>

#include "driver/input.h"
#include "gtest/gtest.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

TEST(OnnxInputLimitsTest, TensorsOfTwoToThe62BytesHitTheTotalLimit) {
  testing::OnnxModelBuilder b;
  b.Input("x", onnx::TensorProto::FLOAT, {std::int64_t{1} << 60}).Output("z");
  b.Node("Exp", {"x"}, {"y"});
  b.Node("Exp", {"y"}, {"z"});
  const std::string path = b.Write("huge60.onnx");
  absl::StatusOr<LoadedInput> input = LoadInput(path, {});
  EXPECT_EQ(input.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(input.status().message(),
            path + ": error: the buffers total more than 2^62 (4611686018427387904) bytes "
                   "counting alignment padding (reached at buffer 'y'); memplan plans at most "
                   "that much");
}

}  // namespace
}  // namespace memplan
