// Element types of tensor values and the bytes a tensor occupies.
//
// Dtype names follow XLA/MLIR spelling (f32, bf16, i8, pred, f8e4m3fn, ...);
// importers map their own element types onto these names (the ONNX importer
// maps FLOAT -> f32, BOOL -> bool, ...). Sub-byte types (i4, u4, i2, u2, f4e2m1fn,
// f6e2m3fn, ...) are packed densely, as XLA and ONNX Runtime store them; pred, bool
// and i1 take one byte per element, as XLA and ONNX Runtime store booleans.
#pragma once

#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

// Storage bits per element of `dtype`, or nullopt for an unknown name.
// Examples: "f32" -> 32, "bf16" -> 16, "i4" -> 4, "pred" -> 8, "c128" -> 128.
std::optional<int> DtypeBits(std::string_view dtype);

// Bytes of storage for a tensor: ceil(product(dims) * bits / 8); a scalar
// (no dims) holds one element, any zero dim gives 0 bytes.
// Example: f32[2,3] -> 24, i4[3] -> 2.
// Errors (InvalidArgument, message without location): unknown dtype, a
// negative dim, or a size that overflows int64.
absl::StatusOr<Bytes> TensorBytes(const TensorType& type);

}  // namespace memplan
