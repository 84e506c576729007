// --write-onnx: the input ONNX model with its main graph's nodes in the
// order memplan planned (the file's own, or --reorder's).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "driver/input.h"

namespace memplan {

// The ONNX file `input` was loaded from (read again) with its main graph's
// nodes in the program's flattened order (io/onnx/node_order.h): each node
// where the op computing its output runs, nodes the importer folded or
// hoisted as early as their inputs allow. Errors: InvalidArgument
// `path: error: ...` when --reorder changed the order of a subgraph's ops
// (If, Loop and Scan bodies keep the file's order) and those of reading the
// file and of OnnxWithNodeOrder.
absl::StatusOr<std::string> OnnxInPlanOrder(const LoadedInput& input);

}  // namespace memplan
