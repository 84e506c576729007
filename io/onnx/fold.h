// Import-time evaluation of the small integer computations ONNX exporters emit
// to compute shapes (Shape -> Gather -> Add -> Div -> Slice/Resize sizes ...).
//
// ONNX 1.12 shape inference only reads the *data* of initializers and
// Constant nodes, so a Slice whose bounds come from Shape(x) arithmetic gets no
// output shape (bert's attention splits, deeplab's Resize). Once every dim is
// static these values are compile-time constants; the importer evaluates them
// here, substitutes Constant nodes into the graph it runs inference on, and
// infers again (see onnx_shapes.h). Runtimes such as ONNX Runtime fold the
// same subgraphs before execution.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "onnx/onnx_pb.h"

namespace memplan {

// An integer tensor whose value is known at import time.
struct IntTensor {
  std::int32_t elem_type = onnx::TensorProto::INT64;  // INT64 or INT32
  std::vector<std::int64_t> dims;                     // empty for a scalar
  std::vector<std::int64_t> values;                   // row-major, one per element
  bool operator==(const IntTensor&) const = default;
};

// Folding gives up on tensors with more elements than this: shape
// computations are tiny, and a cap keeps import time and memory bounded.
inline constexpr std::int64_t kMaxFoldElements = 4096;

// The value of an INT64/INT32 tensor with inline data; nullopt for other
// element types, external data (never loaded), malformed data, or more than
// kMaxFoldElements elements.
std::optional<IntTensor> IntTensorFromProto(const onnx::TensorProto& tensor);

// A TensorProto holding `tensor` (for the substituted Constant nodes).
onnx::TensorProto IntTensorToProto(const IntTensor& tensor);

// What the folder knows about one node input: its value and/or its static
// dims (nullptr when unknown or the input is omitted).
struct FoldInput {
  const IntTensor* value = nullptr;
  const std::vector<std::int64_t>* dims = nullptr;
};

// Evaluates default-domain node `node` of opset `opset` when it computes an
// integer tensor from known inputs: Constant (value, value_int, value_ints),
// Shape and Size (from static dims), Identity, Cast to INT32/INT64, Gather
// and Concat and Slice on rank <= 1 data, Unsqueeze, Squeeze, and
// Add/Sub/Mul/Div (equal dims or a one-element side; Div truncates toward
// zero). `inputs[i]` describes node.input(i). Returns nullopt for any other
// op, unknown inputs, out-of-range indices, overflow or division by zero.
std::optional<IntTensor> FoldIntNode(const onnx::NodeProto& node, int opset,
                                     std::span<const FoldInput> inputs);

}  // namespace memplan
