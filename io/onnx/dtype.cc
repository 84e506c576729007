#include "io/onnx/dtype.h"

#include <string>

#include "onnx/onnx_pb.h"

namespace memplan {

std::optional<std::string_view> OnnxDtypeOf(std::int32_t elem_type) {
  using onnx::TensorProto;
  switch (elem_type) {
    case TensorProto::FLOAT:
      return "f32";
    case TensorProto::UINT8:
      return "u8";
    case TensorProto::INT8:
      return "i8";
    case TensorProto::UINT16:
      return "u16";
    case TensorProto::INT16:
      return "i16";
    case TensorProto::INT32:
      return "i32";
    case TensorProto::INT64:
      return "i64";
    case TensorProto::BOOL:
      return "bool";
    case TensorProto::FLOAT16:
      return "f16";
    case TensorProto::DOUBLE:
      return "f64";
    case TensorProto::UINT32:
      return "u32";
    case TensorProto::UINT64:
      return "u64";
    case TensorProto::COMPLEX64:
      return "c64";
    case TensorProto::COMPLEX128:
      return "c128";
    case TensorProto::BFLOAT16:
      return "bf16";
    default:
      return std::nullopt;  // UNDEFINED, STRING, or newer than ONNX 1.12
  }
}

std::string OnnxDtypeName(std::int32_t elem_type) {
  if (onnx::TensorProto::DataType_IsValid(elem_type)) {
    return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(elem_type));
  }
  return std::to_string(elem_type);
}

}  // namespace memplan
