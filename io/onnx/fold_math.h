// The elementwise and reduction half of the folder (io/onnx/fold.h): ops that
// compute new element values rather than move them.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "io/onnx/fold.h"

namespace memplan {

// Folds `node` when it is an elementwise op (unary, binary with numpy
// broadcasting, comparison, logic, Where, variadic Min/Max) or a
// ReduceSum/ReduceProd/ReduceMin/ReduceMax; nullopt otherwise or when it
// cannot be evaluated (see FoldNode).
std::optional<KnownTensor> FoldMathNode(const onnx::NodeProto& node, int opset,
                                        std::span<const FoldInput> inputs);

}  // namespace memplan
