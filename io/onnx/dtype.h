// ONNX element types (TensorProto.DataType) as memplan dtypes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace memplan {

// The memplan dtype name (ir/dtype.h) of ONNX element type `elem_type`:
// FLOAT -> "f32", BFLOAT16 -> "bf16", INT64 -> "i64", BOOL -> "bool" (one byte
// per element, as ONNX stores it), ...; nullopt for types without a fixed
// width (UNDEFINED, STRING) and codes unknown to ONNX 1.12.
std::optional<std::string_view> OnnxDtypeOf(std::int32_t elem_type);

// ONNX's own name of `elem_type` ("FLOAT", "STRING", ...) for diagnostics;
// the decimal code for unknown values.
std::string OnnxDtypeName(std::int32_t elem_type);

}  // namespace memplan
