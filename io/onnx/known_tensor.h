// A small tensor whose value the ONNX importer knows at import time (an
// integer shape vector, a boolean mask of a shape computation, a float scale
// of a Resize), and the helpers the folder (io/onnx/fold.h) builds on:
// reading one from a TensorProto, writing one back, numpy broadcasting.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "onnx/onnx_pb.h"

namespace memplan {

// Folding gives up on tensors with more elements than this: shape
// computations are tiny, and the cap keeps each folded node O(kMaxFoldElements)
// time and memory, so a whole folding pass stays linear in the node count.
inline constexpr std::int64_t kMaxFoldElements = 4096;

// One tensor value. Integer element types (INT64, INT32) and BOOL (0/1) are
// held in `values`, FLOAT and DOUBLE in `reals` (FLOAT values rounded to
// float precision after every op, as a runtime computes them).
struct KnownTensor {
  std::int32_t elem_type = onnx::TensorProto::INT64;
  std::vector<std::int64_t> dims;    // empty for a scalar
  std::vector<std::int64_t> values;  // integer and BOOL types, row-major
  std::vector<double> reals;         // FLOAT and DOUBLE, row-major
  bool operator==(const KnownTensor&) const = default;

  // Whether the element type is FLOAT or DOUBLE (values live in `reals`).
  bool real() const;
  // The element count.
  std::int64_t size() const;
  // Element i as a double (either storage).
  double At(std::int64_t i) const;
};

// Whether the folder computes with element type `elem_type` (INT64, INT32,
// BOOL, FLOAT, DOUBLE).
bool IsFoldableType(std::int32_t elem_type);
// Whether `elem_type` is stored in KnownTensor::reals.
bool IsRealType(std::int32_t elem_type);

// A rank-1 INT64 tensor (or of `elem_type`, an integer type) holding `values`.
KnownTensor IntVector(std::vector<std::int64_t> values,
                      std::int32_t elem_type = onnx::TensorProto::INT64);
// A scalar of integer type `elem_type`.
KnownTensor IntScalar(std::int64_t value, std::int32_t elem_type = onnx::TensorProto::INT64);

// The element count of `dims`, or nullopt when a dim is negative or the count
// exceeds kMaxFoldElements.
std::optional<std::int64_t> FoldableCount(std::span<const std::int64_t> dims);

// Rounds FLOAT results to float precision and checks INT32 results stay in
// range; nullopt when a value does not fit its type (or is not finite for a
// conversion to an integer type).
std::optional<KnownTensor> Normalized(KnownTensor t);

// The value of a tensor of a foldable type with inline data; nullopt for other
// element types, external data (never loaded), malformed data, or more than
// kMaxFoldElements elements.
std::optional<KnownTensor> KnownTensorFromProto(const onnx::TensorProto& tensor);

// A TensorProto holding `tensor` (for the substituted Constant nodes).
onnx::TensorProto KnownTensorToProto(const KnownTensor& tensor);

// The numpy broadcast of dims `a` and `b` (ONNX multidirectional
// broadcasting), or nullopt when they do not broadcast.
// Example: [3, 1] and [4] -> [3, 4].
std::optional<std::vector<std::int64_t>> BroadcastDims(std::span<const std::int64_t> a,
                                                       std::span<const std::int64_t> b);

// For each element of a tensor of dims `out`, the index of the element of a
// tensor of dims `in` (which broadcasts to `out`) that it reads.
// Example: in [3, 1], out [3, 2] -> {0, 0, 1, 1, 2, 2}.
std::vector<std::int64_t> BroadcastIndex(std::span<const std::int64_t> in,
                                         std::span<const std::int64_t> out);

}  // namespace memplan
