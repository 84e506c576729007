// ONNX tensors past memplan's size limit (2^62 bytes, ir/units.h) are
// rejected by name before any cost is computed, op costs never overflow, and
// a mistyped --dim name is reported before the dim it failed to bind.
#include <cstdint>
#include <limits>
#include <string>

#include "gtest/gtest.h"
#include "io/onnx/importer.h"
#include "tests/io/onnx/test_models.h"

namespace memplan {
namespace {

using ::memplan::testing::ErrorOf;
using ::memplan::testing::OnnxModelBuilder;
using onnx::TensorProto;

// x: f32[n] -> Exp y -> Exp z.
std::string ExpChain(std::int64_t n, const std::string& file_name) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {n}).Output("z");
  b.Node("Exp", {"x"}, {"y"});
  b.Node("Exp", {"y"}, {"z"});
  return b.Write(file_name);
}

TEST(OnnxLimitsTest, ATensorAboveTwoToThe62BytesIsNamed) {
  // (2^60 + 1) x 4 bytes = 2^62 + 4.
  const std::string path = ExpChain((std::int64_t{1} << 60) + 1, "limit_above.onnx");
  EXPECT_EQ(ErrorOf(path), path + ": error: tensor 'x' is 4611686018427387908 bytes (shape "
                                  "[1152921504606846977], FLOAT), above the limit of 2^62 "
                                  "(4611686018427387904) bytes");
}

TEST(OnnxLimitsTest, ATensorOverflowingInt64IsNamed) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::DOUBLE, {std::int64_t{1} << 31, std::int64_t{1} << 31}).Output("y");
  b.Node("Relu", {"x"}, {"y"});
  const std::string path = b.Write("limit_overflow.onnx");
  EXPECT_EQ(ErrorOf(path), path + ": error: tensor 'x' has more than 2^63 - 1 bytes (shape "
                                  "[2147483648, 2147483648], DOUBLE), above the limit of 2^62 "
                                  "(4611686018427387904) bytes");
}

TEST(OnnxLimitsTest, BytesAccessedSaturatesInsteadOfOverflowing) {
  // Each tensor is exactly 2^62 bytes (allowed); an op reading one and
  // writing another accesses 2^63 bytes, past int64.
  const std::string path = ExpChain(std::int64_t{1} << 60, "limit_at.onnx");
  absl::StatusOr<Program> p = ImportOnnx(path, {});
  ASSERT_TRUE(p.ok()) << p.status();
  const ValueId y = p->FindValue("y");
  ASSERT_NE(y, kNoId);
  const Op& exp = p->ops.at(p->values.at(y).defining_op);
  EXPECT_EQ(exp.cost.bytes_accessed, std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(p->values.at(y).size, std::int64_t{1} << 62);
}

TEST(OnnxLimitsTest, AMistypedDimNameIsReportedFirst) {
  OnnxModelBuilder b;
  b.Input("x", TensorProto::FLOAT, {"batch", 4}).Output("y");
  b.Node("Relu", {"x"}, {"y"});
  const std::string path = b.Write("limit_typo.onnx");
  OnnxImportOptions options;
  options.dims = {{"bach", 8}};
  EXPECT_EQ(ErrorOf(path, options), path + ": error: --dim bach=8: the model has no symbolic dim "
                                           "'bach' (the symbolic dims of its inputs: batch)");
}

}  // namespace
}  // namespace memplan
