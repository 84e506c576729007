#include "io/onnx/known_tensor.h"

#include <cmath>
#include <exception>
#include <limits>
#include <string>

#include "onnx/defs/tensor_proto_util.h"

namespace memplan {

bool IsRealType(std::int32_t elem_type) {
  return elem_type == onnx::TensorProto::FLOAT || elem_type == onnx::TensorProto::DOUBLE;
}

bool IsFoldableType(std::int32_t elem_type) {
  return IsRealType(elem_type) || elem_type == onnx::TensorProto::INT64 ||
         elem_type == onnx::TensorProto::INT32 || elem_type == onnx::TensorProto::BOOL;
}

bool KnownTensor::real() const { return IsRealType(elem_type); }

std::int64_t KnownTensor::size() const {
  return static_cast<std::int64_t>(real() ? reals.size() : values.size());
}

double KnownTensor::At(std::int64_t i) const {
  return real() ? reals[i] : static_cast<double>(values[i]);
}

KnownTensor IntVector(std::vector<std::int64_t> values, std::int32_t elem_type) {
  KnownTensor t;
  t.elem_type = elem_type;
  t.dims = {static_cast<std::int64_t>(values.size())};
  t.values = std::move(values);
  return t;
}

KnownTensor IntScalar(std::int64_t value, std::int32_t elem_type) {
  KnownTensor t;
  t.elem_type = elem_type;
  t.values = {value};
  return t;
}

std::optional<std::int64_t> FoldableCount(std::span<const std::int64_t> dims) {
  std::int64_t n = 1;
  for (std::int64_t d : dims) {
    if (d < 0 || (d > 0 && n > kMaxFoldElements / d)) return std::nullopt;
    n *= d;
  }
  return n;
}

std::optional<KnownTensor> Normalized(KnownTensor t) {
  if (!FoldableCount(t.dims) || *FoldableCount(t.dims) != t.size()) return std::nullopt;
  switch (t.elem_type) {
    case onnx::TensorProto::FLOAT:
      for (double& v : t.reals) v = static_cast<double>(static_cast<float>(v));
      break;
    case onnx::TensorProto::INT32:
      for (std::int64_t v : t.values) {
        if (v < std::numeric_limits<std::int32_t>::min() ||
            v > std::numeric_limits<std::int32_t>::max()) {
          return std::nullopt;
        }
      }
      break;
    case onnx::TensorProto::BOOL:
      for (std::int64_t& v : t.values) v = v != 0 ? 1 : 0;
      break;
    default:
      break;
  }
  return t;
}

std::optional<KnownTensor> KnownTensorFromProto(const onnx::TensorProto& tensor) {
  if (!IsFoldableType(tensor.data_type()) ||
      tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    return std::nullopt;
  }
  KnownTensor t;
  t.elem_type = tensor.data_type();
  t.dims.assign(tensor.dims().begin(), tensor.dims().end());
  std::optional<std::int64_t> count = FoldableCount(t.dims);
  if (!count) return std::nullopt;
  try {
    switch (t.elem_type) {
      case onnx::TensorProto::INT64: {
        std::vector<std::int64_t> v = onnx::ParseData<std::int64_t>(&tensor);
        t.values.assign(v.begin(), v.end());
        break;
      }
      case onnx::TensorProto::INT32: {
        std::vector<std::int32_t> v = onnx::ParseData<std::int32_t>(&tensor);
        t.values.assign(v.begin(), v.end());
        break;
      }
      case onnx::TensorProto::FLOAT: {
        std::vector<float> v = onnx::ParseData<float>(&tensor);
        t.reals.assign(v.begin(), v.end());
        break;
      }
      case onnx::TensorProto::DOUBLE: {
        std::vector<double> v = onnx::ParseData<double>(&tensor);
        t.reals.assign(v.begin(), v.end());
        break;
      }
      default:  // BOOL: one byte each in raw_data, else int32_data
        if (tensor.has_raw_data()) {
          for (char c : tensor.raw_data()) t.values.push_back(c != 0 ? 1 : 0);
        } else {
          for (std::int32_t v : tensor.int32_data()) t.values.push_back(v != 0 ? 1 : 0);
        }
        break;
    }
  } catch (const std::exception&) {
    return std::nullopt;  // malformed payload: leave it to shape inference to report
  }
  if (t.size() != *count) return std::nullopt;
  return t;
}

onnx::TensorProto KnownTensorToProto(const KnownTensor& tensor) {
  onnx::TensorProto proto;
  proto.set_data_type(tensor.elem_type);
  for (std::int64_t d : tensor.dims) proto.add_dims(d);
  switch (tensor.elem_type) {
    case onnx::TensorProto::INT64:
      for (std::int64_t v : tensor.values) proto.add_int64_data(v);
      break;
    case onnx::TensorProto::FLOAT:
      for (double v : tensor.reals) proto.add_float_data(static_cast<float>(v));
      break;
    case onnx::TensorProto::DOUBLE:
      for (double v : tensor.reals) proto.add_double_data(v);
      break;
    default:  // INT32 and BOOL
      for (std::int64_t v : tensor.values) proto.add_int32_data(static_cast<std::int32_t>(v));
      break;
  }
  return proto;
}

std::optional<std::vector<std::int64_t>> BroadcastDims(std::span<const std::int64_t> a,
                                                       std::span<const std::int64_t> b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<std::int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const std::int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

std::vector<std::int64_t> BroadcastIndex(std::span<const std::int64_t> in,
                                         std::span<const std::int64_t> out) {
  // Strides of `in` aligned to `out`'s trailing axes; 0 on broadcast axes.
  const size_t rank = out.size();
  std::vector<std::int64_t> strides(rank, 0);
  std::int64_t stride = 1;
  for (size_t k = 0; k < in.size(); ++k) {
    const size_t axis_in = in.size() - 1 - k;
    const size_t axis_out = rank - 1 - k;
    strides[axis_out] = in[axis_in] == 1 ? 0 : stride;
    stride *= in[axis_in];
  }
  std::int64_t count = 1;
  for (std::int64_t d : out) count *= d;
  std::vector<std::int64_t> index(count, 0);
  std::vector<std::int64_t> pos(rank, 0);
  std::int64_t at = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    index[i] = at;
    // Advance the row-major position, updating the input offset.
    for (size_t axis = rank; axis-- > 0;) {
      if (++pos[axis] < out[axis]) {
        at += strides[axis];
        break;
      }
      at -= strides[axis] * (out[axis] - 1);
      pos[axis] = 0;
    }
  }
  return index;
}

}  // namespace memplan
