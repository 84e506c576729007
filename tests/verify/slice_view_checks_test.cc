// Rule 12 of verify/verifier.h: a view result of onnx.Slice sits at its
// window's byte offset. The program is what the ONNX importer gives
// tests/data/onnx/slice_outer.onnx (e f32[1,1024], y = e[:, 256:768] a view
// at byte 1024); each test edits one thing a faulty importer could get wrong.
#include <string>

#include "gtest/gtest.h"
#include "ir/text_parser.h"
#include "tests/ir/parse_ok.h"
#include "verify/checks.h"
#include "verify/verifier.h"

namespace memplan {
namespace {

using verify_internal::CheckSliceViews;

std::string SliceProgram(const std::string& y_type, const std::string& attributes) {
  return R"(
  entry func @g(%x: f32[1,1024] external, %s: i64[1] constant, %t: i64[1] constant) {
    %e = onnx.Exp(%x) : f32[1,1024]
    %y = onnx.Slice(%e, %s, %t) : )" +
         y_type + " " + attributes + R"(
    %r = onnx.ReduceSum(%y) : f32[1,1]
    %o = onnx.Add(%e, %r) : f32[1,1024] external
    return %o
  })";
}

std::string SliceViewError(const std::string& y_type, const std::string& attributes) {
  const Program p = ParseOk(SliceProgram(y_type, attributes));
  return std::string(CheckSliceViews(p).message());
}

TEST(SliceViewChecks, TheImportedOffsetPasses) {
  EXPECT_EQ(SliceViewError("f32[1,512] view(%e, 1024)", "{starts = [0, 256]}"), "");
}

TEST(SliceViewChecks, AWrongOffsetIsCaught) {
  EXPECT_EQ(SliceViewError("f32[1,512] view(%e, 1000)", "{starts = [0, 256]}"),
            "%y = onnx.Slice(%e) is a view at byte 1000, but the window at starts [0, 256] "
            "begins at byte 1024, not at byte 1000");
}

TEST(SliceViewChecks, AViewWithoutStartsIsCaught) {
  EXPECT_EQ(SliceViewError("f32[1,512] view(%e, 1024)", ""),
            "%y = onnx.Slice(%e) is a view at byte 1024, but the op has no integer list `starts` "
            "saying where its window begins");
}

TEST(SliceViewChecks, AWindowLeavingTheInputIsCaught) {
  EXPECT_EQ(SliceViewError("f32[1,512] view(%e, 2048)", "{starts = [0, 768]}"),
            "%y = onnx.Slice(%e) is a view at byte 2048, but the window at starts [0, 768] of "
            "dims [1, 512] leaves the operand's dims [1, 1024]");
}

// f32[2,512] of f32[1,1024] is no window of it (rank agrees, dims do not fit).
TEST(SliceViewChecks, DimsThatDoNotFitAreCaught) {
  EXPECT_EQ(SliceViewError("f32[2,256] view(%e, 0)", "{starts = [0, 0]}"),
            "%y = onnx.Slice(%e) is a view at byte 0, but the window at starts [0, 0] of dims "
            "[2, 256] leaves the operand's dims [1, 1024]");
}

// An inner-axis window is many runs: a view cannot hold it.
TEST(SliceViewChecks, AnInnerAxisWindowIsCaught) {
  const Program p = ParseOk(R"(
  entry func @g(%x: f32[4,8] external, %s: i64[1] constant, %t: i64[1] constant) {
    %e = onnx.Exp(%x) : f32[4,8]
    %y = onnx.Slice(%e, %s, %t) : f32[4,2] view(%e, 8) {starts = [0, 2]}
    %o = onnx.ReduceSum(%y) : f32[1,1] external
    return %o
  })");
  EXPECT_EQ(CheckSliceViews(p).message(),
            "%y = onnx.Slice(%e) is a view at byte 8, but the window at starts [0, 2] of dims "
            "[4, 2] is not one contiguous run of the operand's dims [4, 8]");
}

// One index of dim 0, a range of dim 1, dim 2 whole: one run at element 40.
TEST(SliceViewChecks, OneIndexThenARangeIsOneRun) {
  const Program p = ParseOk(R"(
  entry func @g(%x: f32[2,8,4] external, %s: i64[2] constant, %t: i64[2] constant) {
    %e = onnx.Exp(%x) : f32[2,8,4]
    %y = onnx.Slice(%e, %s, %t) : f32[1,3,4] view(%e, 160) {starts = [1, 2, 0]}
    %o = onnx.ReduceSum(%y) : f32[1,1] external
    return %o
  })");
  EXPECT_TRUE(CheckSliceViews(p).ok()) << CheckSliceViews(p);
}

// Through VerifyPlan: the rule runs when the program is given.
TEST(SliceViewChecks, VerifyPlanReportsIt) {
  const Program p = ParseOk(SliceProgram("f32[1,512] view(%e, 0)", "{starts = [0, 256]}"));
  BufferSet buffers;
  Plan plan;
  VerifyOptions options;
  options.program = &p;
  const absl::Status s = VerifyPlan(buffers, plan, options);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(),
            "%y = onnx.Slice(%e) is a view at byte 0, but the window at starts [0, 256] begins "
            "at byte 1024, not at byte 0");
}

}  // namespace
}  // namespace memplan
