#include "io/hlo/cost.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "io/hlo/attr_text.h"
#include "io/hlo/shape.h"

namespace memplan {
namespace {

constexpr std::array<std::string_view, 23> kArithmetic = {
    "abs", "add", "and", "clamp", "compare", "divide", "maximum", "minimum", "multiply",
    "negate", "not", "or", "remainder", "select", "shift-left", "shift-right-arithmetic",
    "shift-right-logical", "sign", "subtract", "xor", "floor", "ceil", "round-nearest-afz",
};

constexpr std::array<std::string_view, 18> kTranscendental = {
    "atan2", "cbrt", "cosine", "erf", "exponential", "exponential-minus-one", "log",
    "log-plus-one", "logistic", "power", "rsqrt", "sine", "sqrt", "tan", "tanh",
    "cos", "exp", "sin",
};

template <std::size_t N>
bool In(const std::array<std::string_view, N>& set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

double Elements(const HloShape& shape) {
  if (shape.is_tuple) return 0;
  return static_cast<double>(HloElementCount(shape));
}

double DotFlops(const HloInstruction& instr, const HloOperandShapes& operands) {
  double contracted = 1;
  if (!operands.empty() && !operands[0]->is_tuple) {
    if (const HloAttribute* a = instr.Find("lhs_contracting_dims")) {
      for (std::int64_t d : IntList(a->value)) {
        if (d >= 0 && d < static_cast<std::int64_t>(operands[0]->dims.size())) {
          contracted *= static_cast<double>(operands[0]->dims[static_cast<std::size_t>(d)]);
        }
      }
    }
  }
  return 2 * Elements(instr.shape) * contracted;
}

double ConvolutionFlops(const HloInstruction& instr, const HloOperandShapes& operands) {
  if (operands.size() < 2 || operands[1]->is_tuple) return 0;
  const HloShape& kernel = *operands[1];
  double out_features = 1;
  if (const HloAttribute* a = instr.Find("dim_labels")) {
    // "b01f_01io->b01f": the kernel's labels sit between '_' and "->".
    const std::size_t underscore = a->value.find('_');
    const std::size_t arrow = a->value.find("->");
    if (underscore != std::string::npos && arrow != std::string::npos && arrow > underscore) {
      const std::string labels = a->value.substr(underscore + 1, arrow - underscore - 1);
      const std::size_t o = labels.find('o');
      if (o != std::string::npos && o < kernel.dims.size() && kernel.dims[o] > 0) {
        out_features = static_cast<double>(kernel.dims[o]);
      }
    }
  }
  return 2 * Elements(instr.shape) * Elements(kernel) / out_features;
}

double WindowElements(const HloInstruction& instr) {
  const HloAttribute* a = instr.Find("window");
  if (a == nullptr) return 1;
  // window={size=3x3 stride=2x2 pad=...}
  const std::size_t at = a->value.find("size=");
  if (at == std::string::npos) return 1;
  const std::size_t end = a->value.find_first_of(" }", at);
  double n = 1;
  for (const std::string& d : SplitAny(std::string_view(a->value).substr(at + 5, end - at - 5), "x")) {
    n *= static_cast<double>(ParseInt(d).value_or(1));
  }
  return n;
}

}  // namespace

OpCost HloInstructionCost(const HloInstruction& instr, const HloOperandShapes& operands,
                          const OpCost* fused) {
  OpCost cost;
  const std::string& op = instr.opcode;
  if (op == "tuple" || op == "get-tuple-element" || op == "bitcast" || op == "parameter") {
    cost.bytes_accessed = 0;
  } else if (op == "fusion" && fused != nullptr) {
    cost.flops = fused->flops;
    cost.transcendentals = fused->transcendentals;
  } else if (op == "dot") {
    cost.flops = DotFlops(instr, operands);
  } else if (op == "convolution") {
    cost.flops = ConvolutionFlops(instr, operands);
  } else if (op == "reduce") {
    cost.flops = operands.empty() ? 0 : Elements(*operands[0]);
  } else if (op == "reduce-window") {
    cost.flops = Elements(instr.shape) * WindowElements(instr);
  } else if (In(kArithmetic, op)) {
    cost.flops = Elements(instr.shape);
  } else if (In(kTranscendental, op)) {
    cost.transcendentals = Elements(instr.shape);
  }
  return cost;
}

}  // namespace memplan
