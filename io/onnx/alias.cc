#include "io/onnx/alias.h"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <string_view>
#include <vector>

namespace memplan {
namespace {

constexpr std::string_view kOnnxPrefix = "onnx.";

// Default-domain ops whose output only reinterprets the data input's dims.
constexpr std::array<std::string_view, 5> kViewOps = {
    "Flatten", "Identity", "Reshape", "Squeeze", "Unsqueeze",
};

// Default-domain elementwise ops whose output element i depends only on
// input element i (after broadcasting) and has the input's dtype, so the
// output may overwrite a same-size input. Sorted for binary search.
constexpr std::array<std::string_view, 54> kInPlaceOps = {
    "Abs",        "Acos",        "Acosh",     "Add",
    "And",        "Asin",        "Asinh",     "Atan",
    "Atanh",      "BitShift",    "Ceil",      "Celu",
    "Clip",       "Cos",         "Cosh",      "Div",
    "Dropout",    "Elu",         "Erf",       "Exp",
    "Floor",      "HardSigmoid", "HardSwish", "LeakyRelu",
    "Log",        "Max",         "Mean",      "Min",
    "Mish",       "Mod",         "Mul",       "Neg",
    "Not",        "Or",          "PRelu",     "Pow",
    "Reciprocal", "Relu",        "Round",     "Selu",
    "Sigmoid",    "Sign",        "Sin",       "Sinh",
    "Softplus",   "Softsign",    "Sqrt",      "Sub",
    "Sum",        "Tan",         "Tanh",      "ThresholdedRelu",
    "Where",      "Xor",
};
static_assert(std::is_sorted(kInPlaceOps.begin(), kInPlaceOps.end()));
static_assert(std::is_sorted(kViewOps.begin(), kViewOps.end()));

// The default-domain ONNX op type of `opcode` ("onnx.Relu" -> "Relu"); empty
// for other opcodes and custom domains ("onnx.com.microsoft.Gelu").
std::string_view OnnxOpType(std::string_view opcode) {
  if (!opcode.starts_with(kOnnxPrefix)) return {};
  std::string_view op = opcode.substr(kOnnxPrefix.size());
  return op.find('.') == std::string_view::npos ? op : std::string_view{};
}

bool IsTransient(const Value& v) {
  return !v.lifetime.has_value() || *v.lifetime == Lifetime::kTransient;
}
bool IsConstant(const Value& v) { return v.lifetime == Lifetime::kConstant; }

// Union-find over values; each root carries the last use of its whole set.
class AliasSets {
 public:
  explicit AliasSets(std::vector<std::int64_t> last_use)
      : parent_(last_use.size()), last_use_(std::move(last_use)) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  ValueId Find(ValueId v) {
    while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
    return v;
  }
  std::int64_t LastUse(ValueId v) { return last_use_[Find(v)]; }
  void Join(ValueId member, ValueId into) {
    const ValueId a = Find(member);
    const ValueId b = Find(into);
    if (a == b) return;
    parent_[a] = b;
    last_use_[b] = std::max(last_use_[a], last_use_[b]);
  }

 private:
  std::vector<ValueId> parent_;
  std::vector<std::int64_t> last_use_;
};

}  // namespace

void AssignOnnxAliases(Program& program) {
  if (program.entry == kNoId) return;
  const Computation& entry = program.computations[program.entry];
  // Last schedule position reading each value; returned values live forever.
  std::vector<std::int64_t> last_use(program.values.size(), -1);
  for (size_t pos = 0; pos < entry.ops.size(); ++pos) {
    for (ValueId v : program.ops[entry.ops[pos]].operands) {
      last_use[v] = static_cast<std::int64_t>(pos);
    }
  }
  for (ValueId v : entry.results) last_use[v] = std::numeric_limits<std::int64_t>::max();
  AliasSets sets(std::move(last_use));

  for (size_t pos = 0; pos < entry.ops.size(); ++pos) {
    Op& op = program.ops[entry.ops[pos]];
    const std::string_view type = OnnxOpType(op.opcode);
    if (type.empty() || op.results.empty() || op.operands.empty()) continue;
    const ValueId result = op.results[0];
    Value& out = program.values[result];
    if (std::binary_search(kViewOps.begin(), kViewOps.end(), type)) {
      const ValueId data = op.operands[0];
      const Value& in = program.values[data];
      const bool same_class =
          (IsTransient(in) && IsTransient(out)) || (IsConstant(in) && IsConstant(out));
      if (!same_class || in.size != out.size) continue;
      out.alias = AliasKind::kView;
      out.alias_of = data;
      out.view_offset = 0;
      op.cost.bytes_accessed = 0;
      sets.Join(result, data);
    } else if (std::binary_search(kInPlaceOps.begin(), kInPlaceOps.end(), type) &&
               IsTransient(out)) {
      for (ValueId operand : op.operands) {
        const Value& in = program.values[operand];
        if (!IsTransient(in) || in.size != out.size ||
            sets.LastUse(operand) != static_cast<std::int64_t>(pos)) {
          continue;
        }
        out.alias = AliasKind::kTied;
        out.alias_of = operand;
        sets.Join(result, operand);
        break;
      }
    }
  }
}

}  // namespace memplan
