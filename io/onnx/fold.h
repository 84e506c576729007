// Import-time evaluation of the small computations ONNX exporters emit to
// compute shapes: Shape -> Gather -> Unsqueeze -> Concat -> Reshape,
// ConstantOfShape -> Mul -> Equal -> Where -> Expand (torch's expand(B, -1)),
// Shape -> Cast -> Mul -> Floor -> Cast -> Resize sizes, Range of a length.
//
// ONNX 1.12 shape inference only reads the *data* of initializers and
// Constant nodes, so an Expand, Reshape, Slice, Pad or Resize whose shape
// operand is computed gets unknown dims. Once every graph input dim is static
// these values are compile-time constants; the importer evaluates them here,
// substitutes Constant nodes into the graph it runs inference on, and infers
// again (see io/onnx/shapes.h). Runtimes such as ONNX Runtime fold the same
// subgraphs before execution. Folded nodes take no step of the plan
// (io/onnx/importer.h).
//
// Each fold is bounded by kMaxFoldElements elements per input and output, so
// it costs O(kMaxFoldElements) and a pass over the graph stays O(nodes).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/onnx/known_tensor.h"
#include "onnx/onnx_pb.h"

namespace memplan {

// What the folder knows about one node input: its value and/or its static
// dims (nullptr when unknown or the input is omitted).
struct FoldInput {
  const KnownTensor* value = nullptr;
  const std::vector<std::int64_t>* dims = nullptr;
};

// The known value of input `i`, or null when it is absent or not known.
inline const KnownTensor* ValueAt(std::span<const FoldInput> inputs, size_t i) {
  return i < inputs.size() ? inputs[i].value : nullptr;
}

// Evaluates default-domain node `node` of opset `opset` from its known inputs
// (`inputs[i]` describes node.input(i)) when it has one output and is one of:
//   * sources: Constant (value, value_int(s), value_float(s)), Shape (with
//     start/end from opset 15) and Size of an input with static dims,
//     ConstantOfShape, Range;
//   * data movement: Identity, Cast (to INT64/INT32/BOOL/FLOAT/DOUBLE;
//     float to integer truncates toward zero), Gather, Concat, Slice (any
//     axes, negative starts/ends/steps, ONNX clamping), Squeeze, Unsqueeze,
//     Reshape (0 copies the input dim unless allowzero, -1 is inferred),
//     Flatten, Expand, Tile, Transpose, ScatterND (no reduction: torch's
//     slice assignment `mask[a:b, c:d] = v`);
//   * elementwise, numpy-broadcast: Add Sub Mul Div (integer Div truncates
//     toward zero) Mod (fmod 0: the sign of the divisor) Pow Min Max, Neg Abs
//     Floor Ceil Round (half to even) Sqrt Reciprocal Sign, Equal Less
//     Greater LessOrEqual GreaterOrEqual, Not And Or Xor, Where;
//   * reductions: ReduceSum ReduceProd ReduceMin ReduceMax (axes attribute
//     or input by opset, keepdims, noop_with_empty_axes).
// Element types: INT64, INT32, BOOL, FLOAT, DOUBLE. Returns nullopt for any
// other op or type, an unknown input, out-of-range indices or axes, integer
// overflow or division by zero, a non-finite float cast to an integer, or a
// tensor above kMaxFoldElements elements.
// Example: Where(Equal([2, 3], [-1, -1]), [1, 1], [2, 3]) folds to [2, 3];
// Reshape(x, [0, -1]) with x = [[1, 2], [3, 4]] of dims [2, 2] folds to the
// same values with dims [2, 2] (0 keeps dim 0, -1 takes the rest).
std::optional<KnownTensor> FoldNode(const onnx::NodeProto& node, int opset,
                                    std::span<const FoldInput> inputs);

// Static dims by tensor name.
using OnnxKnownDims = std::unordered_map<std::string, std::vector<std::int64_t>>;

// Folds `node` (one output) in the graph being inferred: when FoldNode
// evaluates it from the known `values` and static `dims` of its inputs,
// records the value under its output in `values` and, unless the node is a
// Constant already, replaces it by a Constant node holding that value (same
// name and output). Returns whether it replaced the node. Nodes whose output
// is already in `values` are left as they are.
bool FoldIntoConstant(onnx::NodeProto& node, int opset,
                      std::unordered_map<std::string, KnownTensor>& values,
                      const OnnxKnownDims& dims);

}  // namespace memplan
