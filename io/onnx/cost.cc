#include "io/onnx/cost.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string_view>

#include "io/onnx/attr.h"

namespace memplan {
namespace {

// Sorted for binary search.
constexpr std::array<std::string_view, 37> kElementwiseOps = {
    "Abs",
    "Add",
    "And",
    "BitShift",
    "Ceil",
    "Clip",
    "Div",
    "Equal",
    "Floor",
    "Greater",
    "GreaterOrEqual",
    "HardSigmoid",
    "HardSwish",
    "IsInf",
    "IsNaN",
    "LeakyRelu",
    "Less",
    "LessOrEqual",
    "Max",
    "Mean",
    "Min",
    "Mod",
    "Mul",
    "Neg",
    "Not",
    "Or",
    "PRelu",
    "Reciprocal",
    "Relu",
    "Round",
    "Sign",
    "Softsign",
    "Sub",
    "Sum",
    "ThresholdedRelu",
    "Where",
    "Xor",
};

constexpr std::array<std::string_view, 23> kTranscendentalOps = {
    "Acos",    "Acosh", "Asin", "Asinh",    "Atan", "Atanh", "Celu", "Cos",
    "Cosh",    "Elu",   "Erf",  "Exp",      "Log",  "Mish",  "Pow",  "Selu",
    "Sigmoid", "Sin",   "Sinh", "Softplus", "Sqrt", "Tan",   "Tanh",
};

constexpr std::array<std::string_view, 12> kReductionOps = {
    "ArgMax",    "ArgMin",     "ReduceL1",  "ReduceL2",   "ReduceLogSum", "ReduceLogSumExp",
    "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum",    "ReduceSumSquare",
};

static_assert(std::is_sorted(kElementwiseOps.begin(), kElementwiseOps.end()));
static_assert(std::is_sorted(kTranscendentalOps.begin(), kTranscendentalOps.end()));
static_assert(std::is_sorted(kReductionOps.begin(), kReductionOps.end()));

template <size_t N>
bool Contains(const std::array<std::string_view, N>& sorted, std::string_view op) {
  return std::binary_search(sorted.begin(), sorted.end(), op);
}

double Elements(const OnnxTensorType* t) {
  if (t == nullptr) return 0;
  double n = 1;
  for (std::int64_t d : t->type.dims) n *= static_cast<double>(d);
  return n;
}

const OnnxTensorType* At(std::span<const OnnxTensorType* const> tensors, size_t i) {
  return i < tensors.size() ? tensors[i] : nullptr;
}

// Elements per output feature: E(W) / W.dims[0] (0 when unknown).
double PerFeature(const OnnxTensorType* w) {
  if (w == nullptr || w->type.dims.empty() || w->type.dims[0] == 0) return 0;
  return Elements(w) / static_cast<double>(w->type.dims[0]);
}

void ComputeFlops(const onnx::NodeProto& node, std::span<const OnnxTensorType* const> in,
                  std::span<const OnnxTensorType* const> out, OpCost& cost) {
  const std::string& op = node.op_type();
  const OnnxTensorType* x = At(in, 0);
  const OnnxTensorType* y = At(out, 0);
  const double ey = Elements(y);
  const double present_inputs = static_cast<double>(
      std::count_if(in.begin(), in.end(), [](auto* t) { return t != nullptr; }));
  if (op == "Conv") {
    cost.flops = 2 * ey * PerFeature(At(in, 1)) + (At(in, 2) != nullptr ? ey : 0);
  } else if (op == "ConvTranspose") {
    cost.flops = 2 * Elements(x) * PerFeature(At(in, 1)) + (At(in, 2) != nullptr ? ey : 0);
  } else if (op == "Gemm") {
    if (y == nullptr || y->type.dims.size() != 2 || y->type.dims[0] == 0) return;
    const double m = static_cast<double>(y->type.dims[0]);
    const double n = static_cast<double>(y->type.dims[1]);
    const double k = Elements(x) / m;
    cost.flops = 2 * m * n * k + (At(in, 2) != nullptr ? m * n : 0);
  } else if (op == "MatMul") {
    if (x == nullptr || x->type.dims.empty()) return;
    cost.flops = 2 * ey * static_cast<double>(x->type.dims.back());
  } else if (op == "Sum" || op == "Max" || op == "Min") {
    cost.flops = ey * std::max(1.0, present_inputs - 1);
  } else if (op == "Mean") {
    cost.flops = ey * present_inputs;
  } else if (Contains(kElementwiseOps, op)) {
    cost.flops = ey;
  } else if (Contains(kTranscendentalOps, op)) {
    cost.transcendentals = ey;
  } else if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") {
    double window = 1;
    for (std::int64_t k :
         IntsAttribute(node, "kernel_shape").value_or(std::vector<std::int64_t>{})) {
      window *= static_cast<double>(k);
    }
    cost.flops = ey * window;
  } else if (op == "GlobalAveragePool" || op == "GlobalMaxPool" || op == "GlobalLpPool") {
    cost.flops = Elements(x);
  } else if (op == "BatchNormalization") {
    cost.flops = 2 * ey;
  } else if (op == "InstanceNormalization") {
    cost.flops = 7 * ey;
    if (x != nullptr && x->type.dims.size() >= 2) {
      cost.transcendentals =
          static_cast<double>(x->type.dims[0]) * static_cast<double>(x->type.dims[1]);
    }
  } else if (op == "LayerNormalization") {
    cost.flops = 7 * ey;
    if (x != nullptr) {
      const auto rank = static_cast<std::int64_t>(x->type.dims.size());
      std::int64_t axis = IntAttribute(node, "axis").value_or(-1);
      if (axis < 0) axis += rank;
      double groups = 1;
      for (std::int64_t i = 0; i < std::clamp<std::int64_t>(axis, 0, rank); ++i) {
        groups *= static_cast<double>(x->type.dims[i]);
      }
      cost.transcendentals = groups;
    }
  } else if (op == "LRN") {
    cost.flops = 2 * static_cast<double>(IntAttribute(node, "size").value_or(1)) * ey;
    cost.transcendentals = ey;
  } else if (op == "Softmax" || op == "LogSoftmax") {
    cost.flops = 4 * ey;
    cost.transcendentals = ey;
  } else if (Contains(kReductionOps, op)) {
    cost.flops = Elements(x);
  }
}

}  // namespace

OpCost OnnxNodeCost(const onnx::NodeProto& node, std::span<const OnnxTensorType* const> inputs,
                    std::span<const OnnxTensorType* const> outputs) {
  OpCost cost;
  const bool metadata_only = node.op_type() == "Shape" || node.op_type() == "Size";
  // Each tensor is at most kMaxTotalBytes (SizeOnnxTensor), their sum may
  // still overflow: it saturates at the int64 maximum.
  Bytes bytes = 0;
  const auto add = [&bytes](const OnnxTensorType* t) {
    if (t != nullptr && __builtin_add_overflow(bytes, t->bytes, &bytes)) {
      bytes = std::numeric_limits<Bytes>::max();
    }
  };
  if (!metadata_only) {
    for (const OnnxTensorType* t : inputs) add(t);
  }
  for (const OnnxTensorType* t : outputs) add(t);
  cost.bytes_accessed = bytes;
  if (node.domain().empty()) ComputeFlops(node, inputs, outputs, cost);
  return cost;
}

}  // namespace memplan
