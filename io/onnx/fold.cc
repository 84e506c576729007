#include "io/onnx/fold.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "io/onnx/attr.h"
#include "io/onnx/fold_math.h"
#include "io/onnx/slice_window.h"

namespace memplan {
namespace {

using Dims = std::vector<std::int64_t>;

// The values of an integer operand (indices, axes, a shape).
const Dims* IntsOf(const KnownTensor* t) {
  return t == nullptr || t->real() || t->elem_type == onnx::TensorProto::BOOL ? nullptr
                                                                                : &t->values;
}

// `axis` counted from the end when negative; nullopt outside [-rank, rank).
std::optional<std::int64_t> NormalAxis(std::int64_t axis, std::int64_t rank) {
  if (axis < -rank || axis >= rank) return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

std::int64_t Product(const Dims& dims, size_t begin, size_t end) {
  std::int64_t n = 1;
  for (size_t i = begin; i < end; ++i) n *= dims[i];
  return n;
}

// An empty tensor of `like`'s element type and dims `dims`.
KnownTensor Like(const KnownTensor& like, Dims dims) {
  KnownTensor t;
  t.elem_type = like.elem_type;
  t.dims = std::move(dims);
  return t;
}

void Append(KnownTensor& out, const KnownTensor& in, std::int64_t i) {
  if (in.real()) {
    out.reals.push_back(in.reals[i]);
  } else {
    out.values.push_back(in.values[i]);
  }
}

// `in` with every element i replaced by element index[i].
KnownTensor Gathered(const KnownTensor& in, Dims dims, const std::vector<std::int64_t>& index) {
  KnownTensor out = Like(in, std::move(dims));
  for (std::int64_t i : index) Append(out, in, i);
  return out;
}

// Axes from the `axes` attribute (older opsets) or from input `index`.
std::optional<Dims> AxesOf(const onnx::NodeProto& node, int opset, int input_opset,
                           std::span<const FoldInput> inputs, size_t index) {
  if (opset < input_opset) return IntsAttribute(node, "axes").value_or(Dims{});
  if (index >= inputs.size() || node.input(static_cast<int>(index)).empty()) return Dims{};
  const Dims* axes = IntsOf(inputs[index].value);
  if (axes == nullptr) return std::nullopt;
  return *axes;
}

std::optional<KnownTensor> FoldConstant(const onnx::NodeProto& node) {
  if (const onnx::AttributeProto* value = FindAttribute(node, "value")) {
    if (value->type() != onnx::AttributeProto::TENSOR) return std::nullopt;
    return KnownTensorFromProto(value->t());
  }
  if (std::optional<std::int64_t> v = IntAttribute(node, "value_int")) return IntScalar(*v);
  if (std::optional<Dims> v = IntsAttribute(node, "value_ints")) {
    if (static_cast<std::int64_t>(v->size()) > kMaxFoldElements) return std::nullopt;
    return IntVector(*std::move(v));
  }
  const onnx::AttributeProto* f = FindAttribute(node, "value_float");
  if (f != nullptr && f->type() == onnx::AttributeProto::FLOAT) {
    KnownTensor t;
    t.elem_type = onnx::TensorProto::FLOAT;
    t.reals = {f->f()};
    return t;
  }
  const onnx::AttributeProto* fs = FindAttribute(node, "value_floats");
  if (fs != nullptr && fs->type() == onnx::AttributeProto::FLOATS &&
      fs->floats_size() <= kMaxFoldElements) {
    KnownTensor t;
    t.elem_type = onnx::TensorProto::FLOAT;
    t.dims = {fs->floats_size()};
    t.reals.assign(fs->floats().begin(), fs->floats().end());
    return t;
  }
  return std::nullopt;
}

std::optional<KnownTensor> FoldShape(const onnx::NodeProto& node, int opset, const Dims& dims) {
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
  return IntVector(end > start ? Dims(dims.begin() + start, dims.begin() + end) : Dims{});
}

std::optional<KnownTensor> FoldSize(const Dims& dims) {
  std::int64_t n = 1;
  for (std::int64_t d : dims) {
    if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
  }
  return IntScalar(n);
}

std::optional<KnownTensor> FoldCast(const onnx::NodeProto& node, const KnownTensor& x) {
  std::optional<std::int64_t> to = IntAttribute(node, "to");
  if (!to || !IsFoldableType(static_cast<std::int32_t>(*to))) return std::nullopt;
  KnownTensor out = Like(x, x.dims);
  out.elem_type = static_cast<std::int32_t>(*to);
  for (std::int64_t i = 0; i < x.size(); ++i) {
    const double v = x.At(i);
    if (out.real()) {
      out.reals.push_back(x.real() ? v : static_cast<double>(x.values[i]));
    } else if (!x.real()) {
      out.values.push_back(x.values[i]);
    } else if (out.elem_type == onnx::TensorProto::BOOL) {
      out.values.push_back(v != 0.0 ? 1 : 0);
    } else {
      // Float to integer truncates toward zero; out-of-range values have no result.
      if (!std::isfinite(v) || std::fabs(v) >= 9.2e18) return std::nullopt;
      out.values.push_back(static_cast<std::int64_t>(v));
    }
  }
  return Normalized(std::move(out));
}

std::optional<KnownTensor> FoldGather(const onnx::NodeProto& node, const KnownTensor& data,
                                      const KnownTensor& indices) {
  const Dims* idx = IntsOf(&indices);
  const auto rank = static_cast<std::int64_t>(data.dims.size());
  std::optional<std::int64_t> axis = NormalAxis(IntAttribute(node, "axis").value_or(0), rank);
  if (idx == nullptr || !axis) return std::nullopt;
  const std::int64_t n = data.dims[*axis];
  const std::int64_t outer = Product(data.dims, 0, *axis);
  const std::int64_t inner = Product(data.dims, *axis + 1, data.dims.size());
  Dims dims(data.dims.begin(), data.dims.begin() + *axis);
  dims.insert(dims.end(), indices.dims.begin(), indices.dims.end());
  dims.insert(dims.end(), data.dims.begin() + *axis + 1, data.dims.end());
  if (!FoldableCount(dims)) return std::nullopt;
  std::vector<std::int64_t> index;
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i : *idx) {
      if (i < -n || i >= n) return std::nullopt;
      const std::int64_t row = (o * n + (i < 0 ? i + n : i)) * inner;
      for (std::int64_t k = 0; k < inner; ++k) index.push_back(row + k);
    }
  }
  return Gathered(data, std::move(dims), index);
}

std::optional<KnownTensor> FoldConcat(const onnx::NodeProto& node,
                                      std::span<const FoldInput> inputs) {
  if (inputs.empty() || inputs[0].value == nullptr) return std::nullopt;
  const KnownTensor& first = *inputs[0].value;
  const auto rank = static_cast<std::int64_t>(first.dims.size());
  std::optional<std::int64_t> axis = NormalAxis(IntAttribute(node, "axis").value_or(0), rank);
  if (!axis) return std::nullopt;
  Dims dims = first.dims;
  dims[*axis] = 0;
  for (const FoldInput& in : inputs) {
    const KnownTensor* t = in.value;
    if (t == nullptr || t->elem_type != first.elem_type || t->dims.size() != first.dims.size())
      return std::nullopt;
    for (std::int64_t a = 0; a < rank; ++a) {
      if (a != *axis && t->dims[a] != first.dims[a]) return std::nullopt;
    }
    dims[*axis] += t->dims[*axis];
  }
  if (!FoldableCount(dims)) return std::nullopt;
  KnownTensor out = Like(first, dims);
  const std::int64_t outer = Product(first.dims, 0, *axis);
  const std::int64_t inner = Product(first.dims, *axis + 1, first.dims.size());
  for (std::int64_t o = 0; o < outer; ++o) {
    for (const FoldInput& in : inputs) {
      const std::int64_t chunk = in.value->dims[*axis] * inner;
      for (std::int64_t k = 0; k < chunk; ++k) Append(out, *in.value, o * chunk + k);
    }
  }
  return out;
}

std::optional<KnownTensor> FoldSlice(const onnx::NodeProto& node, int opset,
                                     std::span<const FoldInput> inputs) {
  const KnownTensor* data = ValueAt(inputs, 0);
  if (data == nullptr) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(data->dims.size());
  std::optional<std::vector<OnnxSliceAxis>> window =
      ResolveOnnxSlice(node, opset, inputs, data->dims);
  if (!window) return std::nullopt;
  const std::vector<OnnxSliceAxis>& sliced = *window;
  Dims dims;
  for (const OnnxSliceAxis& s : sliced) dims.push_back(s.count);
  std::optional<std::int64_t> count = FoldableCount(dims);
  if (!count) return std::nullopt;
  // Walk the output in row-major order, tracking the input offset.
  std::vector<std::int64_t> index;
  index.reserve(*count);
  Dims pos(rank, 0);
  for (std::int64_t i = 0; i < *count; ++i) {
    std::int64_t at = 0;
    for (std::int64_t a = 0; a < rank; ++a) {
      at = at * data->dims[a] + sliced[a].start + pos[a] * sliced[a].step;
    }
    index.push_back(at);
    for (std::int64_t a = rank; a-- > 0;) {
      if (++pos[a] < dims[a]) break;
      pos[a] = 0;
    }
  }
  return Gathered(*data, std::move(dims), index);
}

std::optional<KnownTensor> FoldUnsqueeze(const onnx::NodeProto& node, int opset,
                                         std::span<const FoldInput> inputs) {
  const KnownTensor* data = ValueAt(inputs, 0);
  std::optional<Dims> axes = AxesOf(node, opset, 13, inputs, 1);
  if (data == nullptr || !axes || axes->empty()) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(data->dims.size() + axes->size());
  std::vector<bool> inserted(rank, false);
  for (std::int64_t a : *axes) {
    std::optional<std::int64_t> axis = NormalAxis(a, rank);
    if (!axis || inserted[*axis]) return std::nullopt;
    inserted[*axis] = true;
  }
  KnownTensor out = *data;
  out.dims.clear();
  size_t next = 0;
  for (std::int64_t i = 0; i < rank; ++i) out.dims.push_back(inserted[i] ? 1 : data->dims[next++]);
  return out;
}

std::optional<KnownTensor> FoldSqueeze(const onnx::NodeProto& node, int opset,
                                       std::span<const FoldInput> inputs) {
  const KnownTensor* data = ValueAt(inputs, 0);
  std::optional<Dims> axes = AxesOf(node, opset, 13, inputs, 1);
  if (data == nullptr || !axes) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(data->dims.size());
  std::vector<bool> removed(rank, false);
  for (std::int64_t a : *axes) {
    std::optional<std::int64_t> axis = NormalAxis(a, rank);
    if (!axis || data->dims[*axis] != 1) return std::nullopt;
    removed[*axis] = true;
  }
  KnownTensor out = *data;
  out.dims.clear();
  for (std::int64_t i = 0; i < rank; ++i) {
    const bool drop = axes->empty() ? data->dims[i] == 1 : removed[i];
    if (!drop) out.dims.push_back(data->dims[i]);
  }
  return out;
}

// Reshape's target dims: 0 copies the input dim (unless allowzero), one -1
// takes what is left.
std::optional<Dims> ReshapeDims(const Dims& in, const Dims& shape, bool allowzero) {
  Dims dims;
  std::int64_t known = 1;
  std::optional<size_t> inferred;
  for (size_t i = 0; i < shape.size(); ++i) {
    std::int64_t d = shape[i];
    if (d == 0 && !allowzero) {
      if (i >= in.size()) return std::nullopt;
      d = in[i];
    }
    if (d == -1) {
      if (inferred) return std::nullopt;
      inferred = i;
    } else if (d < 0 || __builtin_mul_overflow(known, d, &known)) {
      return std::nullopt;
    }
    dims.push_back(d);
  }
  std::int64_t total = 1;
  for (std::int64_t d : in) total *= d;
  if (inferred) {
    if (known == 0 || total % known != 0) return std::nullopt;
    dims[*inferred] = total / known;
  } else if (known != total) {
    return std::nullopt;
  }
  return dims;
}

std::optional<KnownTensor> FoldReshape(const onnx::NodeProto& node, int opset,
                                       std::span<const FoldInput> inputs) {
  const KnownTensor* data = ValueAt(inputs, 0);
  const Dims* shape = IntsOf(ValueAt(inputs, 1));
  if (data == nullptr || shape == nullptr) return std::nullopt;
  const bool allowzero = opset >= 14 && IntAttribute(node, "allowzero").value_or(0) != 0;
  std::optional<Dims> dims = ReshapeDims(data->dims, *shape, allowzero);
  if (!dims) return std::nullopt;
  KnownTensor out = *data;
  out.dims = *std::move(dims);
  return out;
}

std::optional<KnownTensor> FoldFlatten(const onnx::NodeProto& node, const KnownTensor& data) {
  const auto rank = static_cast<std::int64_t>(data.dims.size());
  std::int64_t axis = IntAttribute(node, "axis").value_or(1);
  if (axis < -rank || axis > rank) return std::nullopt;
  if (axis < 0) axis += rank;
  KnownTensor out = data;
  out.dims = {Product(data.dims, 0, axis), Product(data.dims, axis, data.dims.size())};
  return out;
}

std::optional<KnownTensor> FoldConstantOfShape(const onnx::NodeProto& node,
                                               const KnownTensor& shape) {
  const Dims* dims = IntsOf(&shape);
  if (dims == nullptr || shape.dims.size() != 1) return std::nullopt;
  std::optional<std::int64_t> count = FoldableCount(*dims);
  if (!count) return std::nullopt;
  KnownTensor fill;  // default: one FLOAT zero
  fill.elem_type = onnx::TensorProto::FLOAT;
  fill.reals = {0.0};
  if (const onnx::AttributeProto* value = FindAttribute(node, "value")) {
    if (value->type() != onnx::AttributeProto::TENSOR) return std::nullopt;
    std::optional<KnownTensor> t = KnownTensorFromProto(value->t());
    if (!t || t->size() != 1) return std::nullopt;
    fill = *std::move(t);
  }
  return Gathered(fill, *dims, std::vector<std::int64_t>(*count, 0));
}

std::optional<KnownTensor> FoldRange(std::span<const FoldInput> inputs) {
  const KnownTensor* start = ValueAt(inputs, 0);
  const KnownTensor* limit = ValueAt(inputs, 1);
  const KnownTensor* delta = ValueAt(inputs, 2);
  if (start == nullptr || limit == nullptr || delta == nullptr || start->size() != 1 ||
      limit->size() != 1 || delta->size() != 1 || start->elem_type != limit->elem_type ||
      start->elem_type != delta->elem_type || start->elem_type == onnx::TensorProto::BOOL) {
    return std::nullopt;
  }
  // count = max(ceil((limit - start) / delta), 0), in double: both bounded by
  // kMaxFoldElements anyway.
  const double d = delta->At(0);
  if (d == 0.0) return std::nullopt;
  const double n = std::ceil((limit->At(0) - start->At(0)) / d);
  if (!(n <= static_cast<double>(kMaxFoldElements))) return std::nullopt;
  const auto count = static_cast<std::int64_t>(std::max(n, 0.0));
  KnownTensor out = Like(*start, {count});
  for (std::int64_t i = 0; i < count; ++i) {
    if (out.real()) {
      out.reals.push_back(start->reals[0] + static_cast<double>(i) * delta->reals[0]);
    } else {
      out.values.push_back(start->values[0] + i * delta->values[0]);
    }
  }
  return Normalized(std::move(out));
}

std::optional<KnownTensor> FoldExpand(const KnownTensor& data, const KnownTensor& shape) {
  const Dims* target = IntsOf(&shape);
  if (target == nullptr) return std::nullopt;
  std::optional<Dims> dims = BroadcastDims(data.dims, *target);
  if (!dims || !FoldableCount(*dims)) return std::nullopt;
  return Gathered(data, *dims, BroadcastIndex(data.dims, *dims));
}

std::optional<KnownTensor> FoldTile(const KnownTensor& data, const KnownTensor& repeats) {
  const Dims* reps = IntsOf(&repeats);
  if (reps == nullptr || reps->size() != data.dims.size()) return std::nullopt;
  Dims dims;
  for (size_t a = 0; a < reps->size(); ++a) {
    std::int64_t d = 0;
    if ((*reps)[a] < 0 || __builtin_mul_overflow(data.dims[a], (*reps)[a], &d))
      return std::nullopt;
    dims.push_back(d);
  }
  std::optional<std::int64_t> count = FoldableCount(dims);
  if (!count) return std::nullopt;
  std::vector<std::int64_t> index;
  Dims pos(dims.size(), 0);
  for (std::int64_t i = 0; i < *count; ++i) {
    std::int64_t at = 0;
    for (size_t a = 0; a < dims.size(); ++a) at = at * data.dims[a] + pos[a] % data.dims[a];
    index.push_back(at);
    for (size_t a = dims.size(); a-- > 0;) {
      if (++pos[a] < dims[a]) break;
      pos[a] = 0;
    }
  }
  return Gathered(data, std::move(dims), index);
}

std::optional<KnownTensor> FoldTranspose(const onnx::NodeProto& node, const KnownTensor& data) {
  const auto rank = static_cast<std::int64_t>(data.dims.size());
  Dims perm = IntsAttribute(node, "perm").value_or(Dims{});
  if (perm.empty()) {
    for (std::int64_t a = rank; a-- > 0;) perm.push_back(a);
  }
  if (static_cast<std::int64_t>(perm.size()) != rank) return std::nullopt;
  std::vector<bool> used(rank, false);
  Dims dims;
  for (std::int64_t p : perm) {
    if (p < 0 || p >= rank || used[p]) return std::nullopt;
    used[p] = true;
    dims.push_back(data.dims[p]);
  }
  Dims strides(rank, 1);  // of the input
  for (std::int64_t a = rank - 1; a > 0; --a) strides[a - 1] = strides[a] * data.dims[a];
  std::vector<std::int64_t> index;
  Dims pos(rank, 0);
  for (std::int64_t i = 0; i < data.size(); ++i) {
    std::int64_t at = 0;
    for (std::int64_t a = 0; a < rank; ++a) at += pos[a] * strides[perm[a]];
    index.push_back(at);
    for (std::int64_t a = rank; a-- > 0;) {
      if (++pos[a] < dims[a]) break;
      pos[a] = 0;
    }
  }
  return Gathered(data, std::move(dims), index);
}

// ScatterND without a reduction: a copy of `data` with the slices that
// `indices` (rows of k leading coordinates) name replaced by `updates`.
std::optional<KnownTensor> FoldScatterND(const onnx::NodeProto& node, const KnownTensor& data,
                                         const KnownTensor& indices, const KnownTensor& updates) {
  const onnx::AttributeProto* reduction = FindAttribute(node, "reduction");
  if (reduction != nullptr && reduction->s() != "none") return std::nullopt;
  const Dims* idx = IntsOf(&indices);
  if (idx == nullptr || indices.dims.empty() || updates.elem_type != data.elem_type)
    return std::nullopt;
  const auto k = static_cast<size_t>(indices.dims.back());
  if (k == 0 || k > data.dims.size()) return std::nullopt;
  Dims expected(indices.dims.begin(), indices.dims.end() - 1);
  expected.insert(expected.end(), data.dims.begin() + k, data.dims.end());
  if (updates.dims != expected) return std::nullopt;
  const std::int64_t inner = Product(data.dims, k, data.dims.size());
  std::vector<std::int64_t> index(data.size());
  for (std::int64_t i = 0; i < data.size(); ++i) index[i] = i;
  const std::int64_t rows = static_cast<std::int64_t>(idx->size() / k);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t at = 0;
    for (size_t j = 0; j < k; ++j) {
      std::optional<std::int64_t> c = NormalAxis((*idx)[r * k + j], data.dims[j]);
      if (!c) return std::nullopt;
      at = at * data.dims[j] + *c;
    }
    // These elements now come from row r of `updates`, stored after `data`'s.
    for (std::int64_t e = 0; e < inner; ++e) index[at * inner + e] = data.size() + r * inner + e;
  }
  KnownTensor both = data;  // data's elements, then updates'
  both.values.insert(both.values.end(), updates.values.begin(), updates.values.end());
  both.reals.insert(both.reals.end(), updates.reals.begin(), updates.reals.end());
  return Gathered(both, data.dims, index);
}

}  // namespace

std::optional<KnownTensor> FoldNode(const onnx::NodeProto& node, int opset,
                                    std::span<const FoldInput> inputs) {
  const std::string& op = node.op_type();
  if (!node.domain().empty() && node.domain() != "ai.onnx") return std::nullopt;
  if (node.output_size() != 1) return std::nullopt;
  if (op == "Constant") return FoldConstant(node);
  if (op == "Shape" || op == "Size") {
    if (inputs.empty() || inputs[0].dims == nullptr) return std::nullopt;
    return op == "Shape" ? FoldShape(node, opset, *inputs[0].dims) : FoldSize(*inputs[0].dims);
  }
  if (op == "ConstantOfShape" || op == "Range" || op == "Concat") {
    if (op == "Range") return FoldRange(inputs);
    if (op == "Concat") return FoldConcat(node, inputs);
    const KnownTensor* shape = ValueAt(inputs, 0);
    return shape != nullptr ? FoldConstantOfShape(node, *shape) : std::nullopt;
  }
  if (op == "Slice") return FoldSlice(node, opset, inputs);
  if (op == "Unsqueeze") return FoldUnsqueeze(node, opset, inputs);
  if (op == "Squeeze") return FoldSqueeze(node, opset, inputs);
  if (op == "Reshape") return FoldReshape(node, opset, inputs);
  const KnownTensor* first = ValueAt(inputs, 0);
  const KnownTensor* second = ValueAt(inputs, 1);
  if (op == "Identity") return first != nullptr ? std::optional<KnownTensor>(*first) : std::nullopt;
  if (op == "Cast") return first != nullptr ? FoldCast(node, *first) : std::nullopt;
  if (op == "Flatten") return first != nullptr ? FoldFlatten(node, *first) : std::nullopt;
  if (op == "Transpose") return first != nullptr ? FoldTranspose(node, *first) : std::nullopt;
  if (op == "Gather" || op == "Expand" || op == "Tile") {
    if (first == nullptr || second == nullptr) return std::nullopt;
    if (op == "Gather") return FoldGather(node, *first, *second);
    return op == "Expand" ? FoldExpand(*first, *second) : FoldTile(*first, *second);
  }
  if (op == "ScatterND") {
    const KnownTensor* updates = ValueAt(inputs, 2);
    if (first == nullptr || second == nullptr || updates == nullptr) return std::nullopt;
    return FoldScatterND(node, *first, *second, *updates);
  }
  return FoldMathNode(node, opset, inputs);
}

bool FoldIntoConstant(onnx::NodeProto& node, int opset,
                      std::unordered_map<std::string, KnownTensor>& values,
                      const OnnxKnownDims& dims) {
  if (node.output_size() != 1 || node.output(0).empty() || values.contains(node.output(0))) {
    return false;
  }
  std::vector<FoldInput> inputs(node.input_size());
  for (int j = 0; j < node.input_size(); ++j) {
    auto v = values.find(node.input(j));
    if (v != values.end()) inputs[j].value = &v->second;
    auto d = dims.find(node.input(j));
    if (d != dims.end()) inputs[j].dims = &d->second;
  }
  std::optional<KnownTensor> value = FoldNode(node, opset, inputs);
  if (!value) return false;
  const bool replaced = node.op_type() != "Constant";
  if (replaced) {
    onnx::NodeProto constant;
    constant.set_name(node.name());
    constant.set_op_type("Constant");
    constant.add_output(node.output(0));
    onnx::AttributeProto* attr = constant.add_attribute();
    attr->set_name("value");
    attr->set_type(onnx::AttributeProto::TENSOR);
    *attr->mutable_t() = KnownTensorToProto(*value);
    node = std::move(constant);
  }
  values.insert_or_assign(node.output(0), *std::move(value));
  return replaced;
}

}  // namespace memplan
