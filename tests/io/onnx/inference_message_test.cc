// libonnx's multi-line shape-inference errors become one line.
#include "io/onnx/inference_message.h"

#include "gtest/gtest.h"

namespace memplan {
namespace {

TEST(InferenceMessageTest, FirstNodeAndHowManyMore) {
  EXPECT_EQ(OneLineInferenceMessage(
                "[ShapeInferenceError] Shape inference error(s): (op_type:Where, node name: /Where_1): "
                "[ShapeInferenceError] Incompatible dimensions\n(op_type:Where, node name: /Where_2): "
                "[ShapeInferenceError] Incompatible dimensions\n"),
            "node '/Where_1' (Where): Incompatible dimensions (and 1 more node)");
  EXPECT_EQ(OneLineInferenceMessage("(op_type:Add, node name: bad_add): [ShapeInferenceError] Incompatible "
                                    "dimensions\n(op_type:Relu, node name: r): [TypeInferenceError] x\n"
                                    "(op_type:Relu, node name: s): [TypeInferenceError] y"),
            "node 'bad_add' (Add): Incompatible dimensions (and 2 more nodes)");
}

TEST(InferenceMessageTest, OtherTextKeepsItsFirstLine) {
  EXPECT_EQ(OneLineInferenceMessage("[TypeInferenceError] something odd"), "something odd");
  EXPECT_EQ(OneLineInferenceMessage("first\n\nsecond\nthird\n"), "first (and 2 more lines)");
  EXPECT_EQ(OneLineInferenceMessage("\n \n"), "no message");
}

}  // namespace
}  // namespace memplan
