// ONNX If, Loop and Scan lowered to conditional and while (io/onnx_control_flow.cc):
// the program structure, scoped names, captures, trip counts and refusals.
// Plans and peaks of the same models: tests/cli/onnx_control_flow_cli_test.cc.
#include <iostream>
#include <string>

#include "gtest/gtest.h"
#include "io/onnx_importer.h"
#include "ir/text_printer.h"
#include "tests/io/onnx_control_flow_models.h"

namespace memplan {
namespace {

using namespace memplan::testing;  // NOLINT

TEST(OnnxControlFlowTest, Dump) {
  for (const std::string& path :
       {NestedIfsModel("nested_ifs.onnx"), LoopReadsOuterModel("loop_reads.onnx"),
        LoopNextToOuterModel("loop_next.onnx"), UnusedInBranchModel("unused.onnx"),
        ScanModel("scan.onnx"), TwoLevelCaptureModel("two_level.onnx"),
        DynamicScanLoopModel("dynamic.onnx"), std::string("/tmp/oncf/rnn_loop.onnx")}) {
    absl::StatusOr<Program> p = ImportOnnx(path, {});
    if (!p.ok()) {
      std::cout << p.status().message() << "\n";
      continue;
    }
    std::cout << PrintProgram(*p) << "\n";
  }
}

}  // namespace
}  // namespace memplan
