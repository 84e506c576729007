#include "ir/opcodes.h"

#include <algorithm>
#include <array>

namespace memplan {
namespace {

// Plain compute ops: elementwise, linear algebra, data movement, reductions,
// normalization, and the async ops of execution regions.
constexpr std::array<std::string_view, 111> kComputeOpcodes = {
    "abs", "add", "all-gather", "all-reduce", "all-to-all", "alloc", "alloca", "and", "argmax", "argmin",
    "atan2", "avgpool", "barrier", "batchnorm", "bitcast", "broadcast", "cast", "ceil",
    "clamp", "clone", "collective", "collective-permute", "compare", "concatenate", "conv",
    "conv-transpose", "convert", "copy", "cos", "cosh", "custom-call", "dispatch", "div",
    "dot", "dynamic-slice", "dynamic-update-slice", "erf", "exp", "expand", "expm1", "export",
    "fill", "flatten", "floor", "fusion", "gather", "gelu", "gemm", "get-tuple-element",
    "identity", "import", "iota", "join", "layernorm", "load", "log", "log1p", "logistic", "matmul", "max",
    "maximum", "maxpool", "mean", "min", "minimum", "mul", "multiply", "negate", "not",
    "or", "pad", "pool", "pow", "power", "reduce", "reduce-scatter", "reduce-window",
    "relu", "rem", "reshape", "reverse", "rng", "round", "rsqrt", "scatter", "select",
    "sigmoid", "sign", "sin", "sinh", "slice", "softmax", "sort", "splat", "split", "sqrt",
    "squeeze", "store", "sub", "subtract", "subview", "sum", "tan", "tanh", "transfer",
    "transpose", "tuple", "unsqueeze", "update", "view", "xor",
};

// Prefixes X of async pairs X-start / X-done.
constexpr std::array<std::string_view, 10> kAsyncPrefixes = {
    "all-gather", "all-reduce", "all-to-all", "async", "collective-permute", "copy",
    "recv", "reduce-scatter", "send", "transfer",
};

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool IsAsyncPrefix(std::string_view prefix) {
  return std::find(kAsyncPrefixes.begin(), kAsyncPrefixes.end(), prefix) != kAsyncPrefixes.end();
}

}  // namespace

std::optional<OpKind> ClassifyOpcode(std::string_view opcode) {
  if (opcode.empty()) return std::nullopt;
  if (opcode.find('.') != std::string_view::npos) return OpKind::kCompute;
  if (opcode == "constant") return OpKind::kConstant;
  if (opcode == "while") return OpKind::kWhile;
  if (opcode == "conditional") return OpKind::kConditional;
  if (opcode == "call") return OpKind::kCall;
  if (opcode == "execute") return OpKind::kExecute;
  if (auto prefix = AsyncPartnerPrefix(opcode)) {
    return EndsWith(opcode, "-start") ? OpKind::kAsyncStart : OpKind::kAsyncDone;
  }
  if (std::binary_search(kComputeOpcodes.begin(), kComputeOpcodes.end(), opcode)) {
    return OpKind::kCompute;
  }
  return std::nullopt;
}

std::optional<std::string_view> AsyncPartnerPrefix(std::string_view opcode) {
  for (std::string_view suffix : {std::string_view("-start"), std::string_view("-done")}) {
    if (EndsWith(opcode, suffix)) {
      std::string_view prefix = opcode.substr(0, opcode.size() - suffix.size());
      if (IsAsyncPrefix(prefix)) return prefix;
    }
  }
  return std::nullopt;
}

const std::vector<std::string_view>& KnownOpcodes() {
  static const std::vector<std::string_view> all = [] {
    std::vector<std::string_view> v(kComputeOpcodes.begin(), kComputeOpcodes.end());
    for (std::string_view s : {"call", "conditional", "constant", "execute", "while"}) v.push_back(s);
    std::sort(v.begin(), v.end());
    return v;
  }();
  return all;
}

}  // namespace memplan
