#include "io/onnx/hoist_constants.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

namespace memplan {
namespace {

// Ops that only reinterpret their input's dims (as io/onnx/alias.cc).
constexpr std::array<std::string_view, 5> kViewOps = {
    "onnx.Flatten", "onnx.Identity", "onnx.Reshape", "onnx.Squeeze", "onnx.Unsqueeze",
};

bool IsConstant(const Value& v) { return v.lifetime == Lifetime::kConstant; }

// A default-domain ONNX compute op whose results are all plain constants.
bool Foldable(const Program& program, const Op& op) {
  if (op.kind != OpKind::kCompute || !op.callees.empty() || op.results.empty()) return false;
  const std::string_view opcode = op.opcode;
  if (!opcode.starts_with("onnx.") || opcode.substr(5).find('.') != std::string_view::npos) {
    return false;
  }
  return std::all_of(op.results.begin(), op.results.end(), [&](ValueId r) {
    const Value& v = program.values[r];
    return IsConstant(v) && v.alias == AliasKind::kNone && v.gathers.empty();
  });
}

// Removes the ops and values not kept, renumbering every reference.
void Compact(Program& program, const std::vector<bool>& keep_value, const std::vector<bool>& keep_op) {
  std::vector<ValueId> new_value(program.values.size(), kNoId);
  std::vector<OpId> new_op(program.ops.size(), kNoId);
  std::vector<Value> values;
  std::vector<Op> ops;
  for (std::size_t v = 0; v < program.values.size(); ++v) {
    if (!keep_value[v]) continue;
    new_value[v] = static_cast<ValueId>(values.size());
    values.push_back(std::move(program.values[v]));
  }
  for (std::size_t o = 0; o < program.ops.size(); ++o) {
    if (!keep_op[o]) continue;
    new_op[o] = static_cast<OpId>(ops.size());
    ops.push_back(std::move(program.ops[o]));
  }
  const auto remap = [&](std::vector<ValueId>& ids) {
    for (ValueId& v : ids) v = new_value[v];
  };
  for (Value& value : values) {
    if (value.alias != AliasKind::kNone) value.alias_of = new_value[value.alias_of];
    for (GatheredOperand& g : value.gathers) g.operand = new_value[g.operand];
    if (value.defining_op != kNoId) value.defining_op = new_op[value.defining_op];
  }
  for (Op& op : ops) {
    remap(op.operands);
    remap(op.results);
  }
  for (Computation& c : program.computations) {
    remap(c.params);
    remap(c.results);
    std::vector<OpId> kept;
    for (OpId o : c.ops) {
      if (new_op[o] != kNoId) kept.push_back(new_op[o]);
    }
    c.ops = std::move(kept);
  }
  program.values = std::move(values);
  program.ops = std::move(ops);
}

}  // namespace

void HoistConstantOps(Program& program, bool alias) {
  if (program.entry == kNoId) return;
  Computation& entry = program.computations[program.entry];
  const std::size_t n = program.values.size();
  std::vector<bool> keep_value(n, true);
  std::vector<bool> keep_op(program.ops.size(), true);
  std::vector<ValueId> replacement(n);
  for (std::size_t v = 0; v < n; ++v) replacement[v] = static_cast<ValueId>(v);
  // Per constant value: read by a folded op / by any op that stays (or returned).
  std::vector<bool> read_by_folded(n, false);
  std::vector<bool> read_by_kept(n, false);
  for (ValueId v : entry.results) read_by_kept[v] = true;
  std::vector<ValueId> new_params;

  for (OpId o : entry.ops) {
    Op& op = program.ops[o];
    for (ValueId& v : op.operands) v = replacement[v];
    if (!Foldable(program, op)) {
      for (ValueId v : op.operands) read_by_kept[v] = true;
      continue;
    }
    keep_op[o] = false;
    for (ValueId v : op.operands) read_by_folded[v] = true;
    const bool view = alias && op.results.size() == 1 && !op.operands.empty() &&
                      std::find(kViewOps.begin(), kViewOps.end(), op.opcode) != kViewOps.end() &&
                      IsConstant(program.values[op.operands[0]]) &&
                      program.values[op.operands[0]].size == program.values[op.results[0]].size;
    if (view) {
      replacement[op.results[0]] = op.operands[0];
      keep_value[op.results[0]] = false;
      continue;
    }
    for (ValueId r : op.results) {
      program.values[r].defining_op = kNoId;
      new_params.push_back(r);
    }
  }
  // Operands of called computations' ops cannot name entry values (values
  // reach callees as operands), but entry results can be folded views.
  for (ValueId& v : entry.results) v = replacement[v];
  for (std::size_t v = 0; v < n; ++v) {
    const Value& value = program.values[v];
    const bool entry_constant = value.computation == program.entry && IsConstant(value) &&
                                value.defining_op == kNoId && keep_value[v];
    if (entry_constant && read_by_folded[v] && !read_by_kept[v]) keep_value[v] = false;
  }
  std::erase_if(entry.params, [&](ValueId v) { return !keep_value[v]; });
  for (ValueId r : new_params) {
    if (keep_value[r]) entry.params.push_back(r);
  }
  Compact(program, keep_value, keep_op);
}

}  // namespace memplan
