#include "ir/program.h"

namespace memplan {

SizeExpr SizeExprOf(const Value& value) {
  return value.size_expr.value_or(SizeExpr::Constant(value.size));
}

SizeExpr ViewOffsetExprOf(const Value& value) {
  return value.view_offset_expr.value_or(SizeExpr::Constant(value.view_offset));
}

std::optional<std::string> StringAttribute(const Op& op, std::string_view key) {
  for (const Attribute& a : op.attributes) {
    if (a.key == key && a.value.kind == AttrValue::Kind::kString) return a.value.s;
  }
  return std::nullopt;
}

void CopyOpDetails(const Op& from, Op& to) {
  to.kind = from.kind;
  to.operand_ranges = from.operand_ranges;
  to.cost = from.cost;
  to.scratch_bytes = from.scratch_bytes;
  to.affinity = from.affinity;
  to.trip_count = from.trip_count;
  to.attributes = from.attributes;
}

void CopyStorageShape(const Value& from, Value& to) {
  to.size = from.size;
  to.size_expr = from.size_expr;
  to.type = from.type;
  to.is_timepoint = from.is_timepoint;
  to.lifetime = from.lifetime;
  to.space = from.space;
}

ComputationId Program::FindComputation(std::string_view name) const {
  for (ComputationId c = 0; c < static_cast<ComputationId>(computations.size()); ++c) {
    if (computations[c].name == name) return c;
  }
  return kNoId;
}

ValueId Program::FindValue(std::string_view name) const {
  for (ValueId v = 0; v < static_cast<ValueId>(values.size()); ++v) {
    if (values[v].name == name) return v;
  }
  return kNoId;
}

std::string Program::OpName(OpId op) const {
  const Op& o = ops[op];
  if (!o.results.empty()) return values[o.results.front()].name;
  return o.opcode + "#" + std::to_string(op);
}

}  // namespace memplan
