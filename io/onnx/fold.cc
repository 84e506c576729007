#include "io/onnx/fold.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <string>

#include "io/onnx/attr.h"
#include "onnx/defs/tensor_proto_util.h"

namespace memplan {
namespace {

using Dims = std::vector<std::int64_t>;

std::optional<std::int64_t> ElementCount(const Dims& dims) {
  std::int64_t n = 1;
  for (std::int64_t d : dims) {
    if (d < 0 || (d > 0 && n > kMaxFoldElements / d)) return std::nullopt;
    n *= d;
  }
  return n;
}

bool IsIntType(std::int32_t elem_type) {
  return elem_type == onnx::TensorProto::INT64 || elem_type == onnx::TensorProto::INT32;
}

// Keeps INT32 results in range; INT64 arithmetic is overflow-checked by the callers.
std::optional<IntTensor> Checked(IntTensor t) {
  if (t.elem_type == onnx::TensorProto::INT32) {
    for (std::int64_t v : t.values) {
      if (v < std::numeric_limits<std::int32_t>::min() ||
          v > std::numeric_limits<std::int32_t>::max()) {
        return std::nullopt;
      }
    }
  }
  return t;
}

IntTensor Vector(std::vector<std::int64_t> values,
                 std::int32_t elem_type = onnx::TensorProto::INT64) {
  IntTensor t;
  t.elem_type = elem_type;
  t.dims = {static_cast<std::int64_t>(values.size())};
  t.values = std::move(values);
  return t;
}

const IntTensor* ValueAt(std::span<const FoldInput> inputs, size_t i) {
  return i < inputs.size() ? inputs[i].value : nullptr;
}

// A one-element integer operand (a scalar index, axis or bound).
std::optional<std::int64_t> Scalar(const IntTensor* t) {
  if (t == nullptr || t->values.size() != 1) return std::nullopt;
  return t->values[0];
}

// Axes from the `axes` attribute (older opsets) or from input `index`.
std::optional<Dims> AxesOf(const onnx::NodeProto& node, int opset, int input_opset,
                           std::span<const FoldInput> inputs, size_t index) {
  if (opset < input_opset) return IntsAttribute(node, "axes").value_or(Dims{});
  if (index >= inputs.size() || node.input(static_cast<int>(index)).empty()) return Dims{};
  const IntTensor* axes = inputs[index].value;
  if (axes == nullptr) return std::nullopt;
  return axes->values;
}

std::optional<IntTensor> FoldConstant(const onnx::NodeProto& node) {
  if (const onnx::AttributeProto* value = FindAttribute(node, "value")) {
    if (value->type() != onnx::AttributeProto::TENSOR) return std::nullopt;
    return IntTensorFromProto(value->t());
  }
  if (std::optional<std::int64_t> v = IntAttribute(node, "value_int")) {
    IntTensor t;
    t.values = {*v};
    return t;
  }
  if (std::optional<Dims> v = IntsAttribute(node, "value_ints")) {
    if (static_cast<std::int64_t>(v->size()) > kMaxFoldElements) return std::nullopt;
    return Vector(*std::move(v));
  }
  return std::nullopt;
}

std::optional<IntTensor> FoldShape(const onnx::NodeProto& node, int opset, const Dims& dims) {
  const auto rank = static_cast<std::int64_t>(dims.size());
  std::int64_t start = 0;
  std::int64_t end = rank;
  if (opset >= 15) {
    start = IntAttribute(node, "start").value_or(0);
    end = IntAttribute(node, "end").value_or(rank);
  }
  auto clamp = [rank](std::int64_t i) {
    return std::clamp(i < 0 ? i + rank : i, std::int64_t{0}, rank);
  };
  start = clamp(start);
  end = clamp(end);
  return Vector(end > start ? Dims(dims.begin() + start, dims.begin() + end) : Dims{});
}

std::optional<IntTensor> FoldGather(const onnx::NodeProto& node, const IntTensor& data,
                                    const IntTensor& indices) {
  if (data.dims.size() != 1) return std::nullopt;
  const std::int64_t axis = IntAttribute(node, "axis").value_or(0);
  if (axis != 0 && axis != -1) return std::nullopt;
  const std::int64_t n = data.dims[0];
  IntTensor out;
  out.elem_type = data.elem_type;
  out.dims = indices.dims;
  for (std::int64_t i : indices.values) {
    if (i < -n || i >= n) return std::nullopt;
    out.values.push_back(data.values[i < 0 ? i + n : i]);
  }
  return out;
}

std::optional<IntTensor> FoldConcat(const onnx::NodeProto& node,
                                    std::span<const FoldInput> inputs) {
  const std::int64_t axis = IntAttribute(node, "axis").value_or(0);
  if (axis != 0 && axis != -1) return std::nullopt;
  std::vector<std::int64_t> values;
  std::int32_t elem_type = onnx::TensorProto::INT64;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const IntTensor* t = inputs[i].value;
    if (t == nullptr || t->dims.size() != 1) return std::nullopt;
    if (i == 0) elem_type = t->elem_type;
    values.insert(values.end(), t->values.begin(), t->values.end());
  }
  if (static_cast<std::int64_t>(values.size()) > kMaxFoldElements) return std::nullopt;
  return Vector(std::move(values), elem_type);
}

std::optional<IntTensor> FoldSlice(const onnx::NodeProto& node, int opset,
                                   std::span<const FoldInput> inputs) {
  const IntTensor* data = ValueAt(inputs, 0);
  if (data == nullptr || data->dims.size() != 1) return std::nullopt;
  std::optional<std::int64_t> start, end, axis = 0, step = 1;
  if (opset < 10) {
    auto one = [&](std::string_view name) -> std::optional<std::int64_t> {
      std::optional<Dims> v = IntsAttribute(node, name);
      if (!v || v->size() != 1) return std::nullopt;
      return (*v)[0];
    };
    start = one("starts");
    end = one("ends");
    if (FindAttribute(node, "axes") != nullptr) axis = one("axes");
  } else {
    start = Scalar(ValueAt(inputs, 1));
    end = Scalar(ValueAt(inputs, 2));
    if (inputs.size() > 3 && !node.input(3).empty()) axis = Scalar(ValueAt(inputs, 3));
    if (inputs.size() > 4 && !node.input(4).empty()) step = Scalar(ValueAt(inputs, 4));
  }
  if (!start || !end || !axis || !step || (*axis != 0 && *axis != -1) || *step == 0) {
    return std::nullopt;
  }
  // ONNX clamping: negative bounds count from the end; positive steps clamp to
  // [0, n], negative steps to [-1, n-1].
  const std::int64_t n = data->dims[0];
  auto clamp = [n, s = *step](std::int64_t i) {
    if (i < 0) i = i < -n ? -1 : i + n;
    return s > 0 ? std::clamp<std::int64_t>(i, 0, n) : std::clamp<std::int64_t>(i, -1, n - 1);
  };
  std::vector<std::int64_t> values;
  const std::int64_t e = clamp(*end);
  for (std::int64_t i = clamp(*start); *step > 0 ? i < e : i > e;) {
    values.push_back(data->values[i]);
    if (__builtin_add_overflow(i, *step, &i)) break;
  }
  return Vector(std::move(values), data->elem_type);
}

std::optional<IntTensor> FoldUnsqueeze(const onnx::NodeProto& node, int opset,
                                       std::span<const FoldInput> inputs) {
  const IntTensor* data = ValueAt(inputs, 0);
  std::optional<Dims> axes = AxesOf(node, opset, 13, inputs, 1);
  if (data == nullptr || !axes || axes->empty()) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(data->dims.size() + axes->size());
  std::vector<bool> inserted(rank, false);
  for (std::int64_t a : *axes) {
    if (a < -rank || a >= rank) return std::nullopt;
    if (a < 0) a += rank;
    if (inserted[a]) return std::nullopt;
    inserted[a] = true;
  }
  IntTensor out = *data;
  out.dims.clear();
  size_t next = 0;
  for (std::int64_t i = 0; i < rank; ++i) out.dims.push_back(inserted[i] ? 1 : data->dims[next++]);
  return out;
}

std::optional<IntTensor> FoldSqueeze(const onnx::NodeProto& node, int opset,
                                     std::span<const FoldInput> inputs) {
  const IntTensor* data = ValueAt(inputs, 0);
  std::optional<Dims> axes = AxesOf(node, opset, 13, inputs, 1);
  if (data == nullptr || !axes) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(data->dims.size());
  std::vector<bool> removed(rank, false);
  for (std::int64_t a : *axes) {
    if (a < -rank || a >= rank) return std::nullopt;
    if (a < 0) a += rank;
    if (data->dims[a] != 1) return std::nullopt;
    removed[a] = true;
  }
  IntTensor out = *data;
  out.dims.clear();
  for (std::int64_t i = 0; i < rank; ++i) {
    const bool drop = axes->empty() ? data->dims[i] == 1 : removed[i];
    if (!drop) out.dims.push_back(data->dims[i]);
  }
  return out;
}

std::optional<IntTensor> FoldArithmetic(std::string_view op, const IntTensor& a,
                                        const IntTensor& b) {
  if (a.elem_type != b.elem_type) return std::nullopt;
  IntTensor out;
  out.elem_type = a.elem_type;
  if (a.dims == b.dims) {
    out.dims = a.dims;
  } else if (a.values.size() == 1 && a.dims.size() <= b.dims.size()) {
    out.dims = b.dims;
  } else if (b.values.size() == 1 && b.dims.size() <= a.dims.size()) {
    out.dims = a.dims;
  } else {
    return std::nullopt;
  }
  const size_t n = std::max(a.values.size(), b.values.size());
  for (size_t i = 0; i < n; ++i) {
    const std::int64_t x = a.values[a.values.size() == 1 ? 0 : i];
    const std::int64_t y = b.values[b.values.size() == 1 ? 0 : i];
    std::int64_t r = 0;
    bool overflow = false;
    if (op == "Add") {
      overflow = __builtin_add_overflow(x, y, &r);
    } else if (op == "Sub") {
      overflow = __builtin_sub_overflow(x, y, &r);
    } else if (op == "Mul") {
      overflow = __builtin_mul_overflow(x, y, &r);
    } else {
      if (y == 0 || (x == std::numeric_limits<std::int64_t>::min() && y == -1)) return std::nullopt;
      r = x / y;
    }
    if (overflow) return std::nullopt;
    out.values.push_back(r);
  }
  return Checked(std::move(out));
}

}  // namespace

std::optional<IntTensor> IntTensorFromProto(const onnx::TensorProto& tensor) {
  if (!IsIntType(tensor.data_type()) || tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    return std::nullopt;
  }
  IntTensor t;
  t.elem_type = tensor.data_type();
  t.dims.assign(tensor.dims().begin(), tensor.dims().end());
  std::optional<std::int64_t> count = ElementCount(t.dims);
  if (!count) return std::nullopt;
  try {
    if (t.elem_type == onnx::TensorProto::INT64) {
      std::vector<std::int64_t> v = onnx::ParseData<std::int64_t>(&tensor);
      t.values.assign(v.begin(), v.end());
    } else {
      std::vector<std::int32_t> v = onnx::ParseData<std::int32_t>(&tensor);
      t.values.assign(v.begin(), v.end());
    }
  } catch (const std::exception&) {
    return std::nullopt;  // malformed payload: leave it to shape inference to report
  }
  if (static_cast<std::int64_t>(t.values.size()) != *count) return std::nullopt;
  return t;
}

onnx::TensorProto IntTensorToProto(const IntTensor& tensor) {
  onnx::TensorProto proto;
  proto.set_data_type(tensor.elem_type);
  for (std::int64_t d : tensor.dims) proto.add_dims(d);
  for (std::int64_t v : tensor.values) {
    if (tensor.elem_type == onnx::TensorProto::INT32) {
      proto.add_int32_data(static_cast<std::int32_t>(v));
    } else {
      proto.add_int64_data(v);
    }
  }
  return proto;
}

std::optional<IntTensor> FoldIntNode(const onnx::NodeProto& node, int opset,
                                     std::span<const FoldInput> inputs) {
  const std::string& op = node.op_type();
  if (!node.domain().empty() && node.domain() != "ai.onnx") return std::nullopt;
  if (op == "Constant") return FoldConstant(node);
  if (op == "Shape" || op == "Size") {
    if (inputs.empty() || inputs[0].dims == nullptr) return std::nullopt;
    if (op == "Shape") return FoldShape(node, opset, *inputs[0].dims);
    std::int64_t n = 1;
    for (std::int64_t d : *inputs[0].dims) {
      if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
    }
    IntTensor t;
    t.values = {n};
    return t;
  }
  const IntTensor* first = ValueAt(inputs, 0);
  if (op == "Identity") return first != nullptr ? std::optional<IntTensor>(*first) : std::nullopt;
  if (op == "Cast") {
    std::optional<std::int64_t> to = IntAttribute(node, "to");
    if (first == nullptr || !to || !IsIntType(static_cast<std::int32_t>(*to))) return std::nullopt;
    IntTensor t = *first;
    t.elem_type = static_cast<std::int32_t>(*to);
    return Checked(std::move(t));
  }
  if (op == "Gather") {
    const IntTensor* indices = ValueAt(inputs, 1);
    if (first == nullptr || indices == nullptr) return std::nullopt;
    return FoldGather(node, *first, *indices);
  }
  if (op == "Concat") return FoldConcat(node, inputs);
  if (op == "Slice") return FoldSlice(node, opset, inputs);
  if (op == "Unsqueeze") return FoldUnsqueeze(node, opset, inputs);
  if (op == "Squeeze") return FoldSqueeze(node, opset, inputs);
  if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
    const IntTensor* second = ValueAt(inputs, 1);
    if (first == nullptr || second == nullptr || inputs.size() != 2) return std::nullopt;
    return FoldArithmetic(op, *first, *second);
  }
  return std::nullopt;
}

}  // namespace memplan
