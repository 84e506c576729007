#include "io/onnx/fold_math.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "io/onnx/attr.h"

namespace memplan {
namespace {

using Dims = std::vector<std::int64_t>;
using IntOp = std::function<std::optional<std::int64_t>(std::int64_t, std::int64_t)>;
using RealOp = std::function<std::optional<double>(double, double)>;

// Applies `int_op` (integer and BOOL inputs) or `real_op` (FLOAT/DOUBLE
// inputs) to the numpy broadcast of `a` and `b`; the result has `out_type`.
std::optional<KnownTensor> Binary(const KnownTensor& a, const KnownTensor& b,
                                  std::int32_t out_type, const IntOp& int_op,
                                  const RealOp& real_op) {
  if (a.elem_type != b.elem_type) return std::nullopt;
  std::optional<Dims> dims = BroadcastDims(a.dims, b.dims);
  if (!dims || !FoldableCount(*dims)) return std::nullopt;
  const std::vector<std::int64_t> ia = BroadcastIndex(a.dims, *dims);
  const std::vector<std::int64_t> ib = BroadcastIndex(b.dims, *dims);
  KnownTensor out;
  out.elem_type = out_type;
  out.dims = *dims;
  for (size_t i = 0; i < ia.size(); ++i) {
    if (a.real()) {
      std::optional<double> r = real_op(a.reals[ia[i]], b.reals[ib[i]]);
      if (!r) return std::nullopt;
      if (out.real()) {
        out.reals.push_back(*r);
      } else {
        out.values.push_back(static_cast<std::int64_t>(*r));
      }
    } else {
      std::optional<std::int64_t> r = int_op(a.values[ia[i]], b.values[ib[i]]);
      if (!r) return std::nullopt;
      out.values.push_back(*r);
    }
  }
  return Normalized(std::move(out));
}

std::optional<std::int64_t> IntPow(std::int64_t x, std::int64_t y) {
  if (y < 0) return std::nullopt;
  std::int64_t r = 1;
  for (std::int64_t i = 0; i < y; ++i) {
    if (__builtin_mul_overflow(r, x, &r)) return std::nullopt;
    if (r == 0 || r == 1) break;  // stays put; avoids long loops
  }
  return r;
}

std::optional<KnownTensor> Arithmetic(std::string_view op, const onnx::NodeProto& node,
                                      const KnownTensor& a, const KnownTensor& b) {
  const std::int32_t type = a.elem_type;
  if (type == onnx::TensorProto::BOOL) return std::nullopt;
  if (op == "Add") {
    return Binary(
        a, b, type,
        [](std::int64_t x, std::int64_t y) -> std::optional<std::int64_t> {
          std::int64_t r;
          if (__builtin_add_overflow(x, y, &r)) return std::nullopt;
          return r;
        },
        [](double x, double y) -> std::optional<double> { return x + y; });
  }
  if (op == "Sub") {
    return Binary(
        a, b, type,
        [](std::int64_t x, std::int64_t y) -> std::optional<std::int64_t> {
          std::int64_t r;
          if (__builtin_sub_overflow(x, y, &r)) return std::nullopt;
          return r;
        },
        [](double x, double y) -> std::optional<double> { return x - y; });
  }
  if (op == "Mul") {
    return Binary(
        a, b, type,
        [](std::int64_t x, std::int64_t y) -> std::optional<std::int64_t> {
          std::int64_t r;
          if (__builtin_mul_overflow(x, y, &r)) return std::nullopt;
          return r;
        },
        [](double x, double y) -> std::optional<double> { return x * y; });
  }
  if (op == "Div") {
    return Binary(
        a, b, type,
        [](std::int64_t x, std::int64_t y) -> std::optional<std::int64_t> {
          if (y == 0 || (x == std::numeric_limits<std::int64_t>::min() && y == -1))
            return std::nullopt;
          return x / y;  // truncates toward zero, as runtimes do
        },
        [](double x, double y) -> std::optional<double> { return x / y; });
  }
  if (op == "Mod") {
    const bool fmod = IntAttribute(node, "fmod").value_or(0) != 0;
    if (a.real() && !fmod) return std::nullopt;  // the spec requires fmod=1 for floats
    return Binary(
        a, b, type,
        [fmod](std::int64_t x, std::int64_t y) -> std::optional<std::int64_t> {
          if (y == 0 || (x == std::numeric_limits<std::int64_t>::min() && y == -1))
            return std::nullopt;
          std::int64_t r = x % y;
          if (!fmod && r != 0 && ((r < 0) != (y < 0))) r += y;  // the divisor's sign
          return r;
        },
        [](double x, double y) -> std::optional<double> { return std::fmod(x, y); });
  }
  if (op == "Pow") {
    return Binary(a, b, type, IntPow,
                  [](double x, double y) -> std::optional<double> { return std::pow(x, y); });
  }
  if (op == "Min" || op == "Max") {
    const bool min = op == "Min";
    return Binary(
        a, b, type,
        [min](std::int64_t x, std::int64_t y) -> std::optional<std::int64_t> {
          return min ? std::min(x, y) : std::max(x, y);
        },
        [min](double x, double y) -> std::optional<double> {
          return min ? std::min(x, y) : std::max(x, y);
        });
  }
  return std::nullopt;
}

std::optional<KnownTensor> Comparison(std::string_view op, const KnownTensor& a,
                                      const KnownTensor& b) {
  auto pick = [op](auto x, auto y) -> bool {
    if (op == "Equal") return x == y;
    if (op == "Less") return x < y;
    if (op == "Greater") return x > y;
    if (op == "LessOrEqual") return x <= y;
    return x >= y;  // GreaterOrEqual
  };
  return Binary(
      a, b, onnx::TensorProto::BOOL,
      [pick](std::int64_t x, std::int64_t y) -> std::optional<std::int64_t> {
        return pick(x, y) ? 1 : 0;
      },
      [pick](double x, double y) -> std::optional<double> { return pick(x, y) ? 1.0 : 0.0; });
}

std::optional<KnownTensor> Logic(std::string_view op, const KnownTensor& a,
                                 const KnownTensor& b) {
  if (a.elem_type != onnx::TensorProto::BOOL) return std::nullopt;
  return Binary(
      a, b, onnx::TensorProto::BOOL,
      [op](std::int64_t x, std::int64_t y) -> std::optional<std::int64_t> {
        if (op == "And") return x & y;
        if (op == "Or") return x | y;
        return x ^ y;  // Xor
      },
      RealOp());
}

// Round half to even, as ONNX Round specifies.
double RoundHalfEven(double x) {
  const double r = std::round(x);
  if (std::fabs(x - std::trunc(x)) == 0.5) return 2.0 * std::round(x / 2.0);
  return r;
}

std::optional<KnownTensor> Unary(std::string_view op, const KnownTensor& x) {
  KnownTensor out = x;
  if (op == "Not") {
    if (x.elem_type != onnx::TensorProto::BOOL) return std::nullopt;
    for (std::int64_t& v : out.values) v = v != 0 ? 0 : 1;
    return out;
  }
  if (x.elem_type == onnx::TensorProto::BOOL) return std::nullopt;
  if (x.real()) {
    for (double& v : out.reals) {
      if (op == "Neg") v = -v;
      else if (op == "Abs") v = std::fabs(v);
      else if (op == "Floor") v = std::floor(v);
      else if (op == "Ceil") v = std::ceil(v);
      else if (op == "Round") v = RoundHalfEven(v);
      else if (op == "Sqrt") v = std::sqrt(v);
      else if (op == "Reciprocal") v = 1.0 / v;
      else if (op == "Sign") v = v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
      else return std::nullopt;
    }
    return Normalized(std::move(out));
  }
  for (std::int64_t& v : out.values) {
    if (op == "Neg" || op == "Abs") {
      if (v == std::numeric_limits<std::int64_t>::min()) return std::nullopt;
      v = op == "Neg" ? -v : std::abs(v);
    } else if (op == "Sign") {
      v = v > 0 ? 1 : (v < 0 ? -1 : 0);
    } else if (op != "Floor" && op != "Ceil" && op != "Round") {
      return std::nullopt;  // Sqrt, Reciprocal: float ops
    }
  }
  return Normalized(std::move(out));
}

std::optional<KnownTensor> Where(const KnownTensor& c, const KnownTensor& x,
                                 const KnownTensor& y) {
  if (c.elem_type != onnx::TensorProto::BOOL || x.elem_type != y.elem_type) return std::nullopt;
  std::optional<Dims> xy = BroadcastDims(x.dims, y.dims);
  std::optional<Dims> dims = xy ? BroadcastDims(c.dims, *xy) : std::nullopt;
  if (!dims || !FoldableCount(*dims)) return std::nullopt;
  const std::vector<std::int64_t> ic = BroadcastIndex(c.dims, *dims);
  const std::vector<std::int64_t> ix = BroadcastIndex(x.dims, *dims);
  const std::vector<std::int64_t> iy = BroadcastIndex(y.dims, *dims);
  KnownTensor out;
  out.elem_type = x.elem_type;
  out.dims = *dims;
  for (size_t i = 0; i < ic.size(); ++i) {
    const KnownTensor& from = c.values[ic[i]] != 0 ? x : y;
    const std::int64_t at = c.values[ic[i]] != 0 ? ix[i] : iy[i];
    if (out.real()) {
      out.reals.push_back(from.reals[at]);
    } else {
      out.values.push_back(from.values[at]);
    }
  }
  return out;
}

// The reduced axes of a Reduce* node (attribute, or input 1 from
// `input_opset`), normalized and sorted; empty means "all" or "none" by
// noop_with_empty_axes.
std::optional<Dims> ReduceAxes(const onnx::NodeProto& node, int opset, int input_opset,
                               std::span<const FoldInput> inputs, std::int64_t rank) {
  Dims axes;
  if (opset < input_opset) {
    axes = IntsAttribute(node, "axes").value_or(Dims{});
  } else if (inputs.size() > 1 && !node.input(1).empty()) {
    const KnownTensor* t = inputs[1].value;
    if (t == nullptr || t->real()) return std::nullopt;
    axes = t->values;
  }
  for (std::int64_t& a : axes) {
    if (a < -rank || a >= rank) return std::nullopt;
    if (a < 0) a += rank;
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

std::optional<KnownTensor> Reduce(std::string_view op, const onnx::NodeProto& node, int opset,
                                  std::span<const FoldInput> inputs) {
  const KnownTensor* x = ValueAt(inputs, 0);
  if (x == nullptr || x->elem_type == onnx::TensorProto::BOOL) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(x->dims.size());
  std::optional<Dims> axes = ReduceAxes(node, opset, op == "ReduceSum" ? 13 : 18, inputs, rank);
  if (!axes) return std::nullopt;
  if (axes->empty()) {
    if (IntAttribute(node, "noop_with_empty_axes").value_or(0) != 0) return *x;
    for (std::int64_t a = 0; a < rank; ++a) axes->push_back(a);
  }
  const bool keepdims = IntAttribute(node, "keepdims").value_or(1) != 0;
  std::vector<bool> reduced(rank, false);
  for (std::int64_t a : *axes) reduced[a] = true;
  Dims kept_dims;  // the output dims with keepdims (reduced axes as 1)
  Dims out_dims;
  for (std::int64_t a = 0; a < rank; ++a) {
    kept_dims.push_back(reduced[a] ? 1 : x->dims[a]);
    if (!reduced[a] || keepdims) out_dims.push_back(kept_dims.back());
  }
  if (x->size() == 0) return std::nullopt;  // identity elements differ by op; rare
  // Each input element folds into the output element it broadcasts from.
  const std::vector<std::int64_t> to = BroadcastIndex(kept_dims, x->dims);
  const std::int64_t n = *FoldableCount(kept_dims);
  KnownTensor out;
  out.elem_type = x->elem_type;
  out.dims = out_dims;
  std::vector<bool> seen(n, false);
  out.values.assign(x->real() ? 0 : n, 0);
  out.reals.assign(x->real() ? n : 0, 0.0);
  for (size_t i = 0; i < to.size(); ++i) {
    const std::int64_t o = to[i];
    if (x->real()) {
      double& acc = out.reals[o];
      const double v = x->reals[i];
      if (!seen[o]) acc = v;
      else if (op == "ReduceSum") acc += v;
      else if (op == "ReduceProd") acc *= v;
      else if (op == "ReduceMin") acc = std::min(acc, v);
      else acc = std::max(acc, v);
    } else {
      std::int64_t& acc = out.values[o];
      const std::int64_t v = x->values[i];
      if (!seen[o]) {
        acc = v;
      } else if (op == "ReduceSum") {
        if (__builtin_add_overflow(acc, v, &acc)) return std::nullopt;
      } else if (op == "ReduceProd") {
        if (__builtin_mul_overflow(acc, v, &acc)) return std::nullopt;
      } else {
        acc = op == "ReduceMin" ? std::min(acc, v) : std::max(acc, v);
      }
    }
    seen[o] = true;
  }
  return Normalized(std::move(out));
}

constexpr std::string_view kUnary[] = {"Neg",  "Abs",        "Floor", "Ceil", "Round",
                                       "Sqrt", "Reciprocal", "Sign",  "Not"};
constexpr std::string_view kArithmetic[] = {"Add", "Sub", "Mul", "Div", "Mod", "Pow"};
constexpr std::string_view kComparison[] = {"Equal", "Less", "Greater", "LessOrEqual",
                                            "GreaterOrEqual"};
constexpr std::string_view kLogic[] = {"And", "Or", "Xor"};
constexpr std::string_view kReduce[] = {"ReduceSum", "ReduceProd", "ReduceMin", "ReduceMax"};

template <size_t N>
bool OneOf(std::string_view op, const std::string_view (&set)[N]) {
  return std::find(std::begin(set), std::end(set), op) != std::end(set);
}

}  // namespace

std::optional<KnownTensor> FoldMathNode(const onnx::NodeProto& node, int opset,
                                        std::span<const FoldInput> inputs) {
  const std::string& op = node.op_type();
  if (OneOf(op, kReduce)) return Reduce(op, node, opset, inputs);
  // Every other math op needs all its inputs.
  for (const FoldInput& in : inputs) {
    if (in.value == nullptr) return std::nullopt;
  }
  if (OneOf(op, kUnary)) {
    if (inputs.size() != 1) return std::nullopt;
    return Unary(op, *inputs[0].value);
  }
  if (op == "Where") {
    if (inputs.size() != 3) return std::nullopt;
    return Where(*inputs[0].value, *inputs[1].value, *inputs[2].value);
  }
  if (op == "Min" || op == "Max") {  // variadic
    if (inputs.empty()) return std::nullopt;
    std::optional<KnownTensor> acc = *inputs[0].value;
    for (size_t i = 1; i < inputs.size() && acc; ++i) {
      acc = Arithmetic(op, node, *acc, *inputs[i].value);
    }
    return acc;
  }
  if (inputs.size() != 2) return std::nullopt;
  const KnownTensor& a = *inputs[0].value;
  const KnownTensor& b = *inputs[1].value;
  if (OneOf(op, kArithmetic)) return Arithmetic(op, node, a, b);
  if (OneOf(op, kComparison)) return Comparison(op, a, b);
  if (OneOf(op, kLogic)) return Logic(op, a, b);
  return std::nullopt;
}

}  // namespace memplan
