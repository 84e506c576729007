// Rule 2's last part (verify/region_checks.h): a subview at an offset given
// by dims (`view(%x, align(%n, 64))`) stays inside its slice for every
// binding of the dims, not only at the evaluation point the other checks
// use. Its offset is re-derived from the program alone: the chain of views,
// ties, parameters and call results down to a value at a constant place (the
// plan's value_offsets).
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "ir/dims.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {
namespace {

// The value that shares storage with `v` at the same byte, one link up
// across a computation boundary: a parameter's argument at its first call or
// execute site, a call or execute result's returned value in the callee; else
// kNoId (a value of the entry, a loop's or branch's value, a gathered
// operand: its place is the plan's constant one).
ValueId AcrossCall(const Program& program, ValueId v) {
  const Value& value = program.values[v];
  if (value.defining_op == kNoId) {
    if (value.computation < 0 || value.computation >= static_cast<ComputationId>(program.computations.size())) {
      return kNoId;
    }
    const std::vector<ValueId>& params = program.computations[value.computation].params;
    const auto at = std::find(params.begin(), params.end(), v);
    if (at == params.end()) return kNoId;
    const std::size_t index = static_cast<std::size_t>(at - params.begin());
    for (const Op& op : program.ops) {
      if ((op.kind == OpKind::kCall || op.kind == OpKind::kExecute) && op.callees.size() == 1 &&
          op.callees[0] == value.computation && index < op.operands.size()) {
        return op.operands[index];
      }
    }
    return kNoId;
  }
  if (value.defining_op < 0 || value.defining_op >= static_cast<OpId>(program.ops.size())) return kNoId;
  const Op& op = program.ops[value.defining_op];
  if ((op.kind != OpKind::kCall && op.kind != OpKind::kExecute) || op.callees.size() != 1 ||
      op.callees[0] < 0 || op.callees[0] >= static_cast<ComputationId>(program.computations.size())) {
    return kNoId;
  }
  const auto at = std::find(op.results.begin(), op.results.end(), v);
  const std::vector<ValueId>& returned = program.computations[op.callees[0]].results;
  const std::size_t index = static_cast<std::size_t>(at - op.results.begin());
  return at != op.results.end() && index < returned.size() ? returned[index] : kNoId;
}

// `v`'s bytes from its buffer's start as an expression: a view adds its
// offset to its operand's, a tied result keeps its operand's, a parameter
// its argument's and a call or execute result its callee's returned value's
// (so a region that views a captured value another region placed at an
// offset given by dims sees that offset), any other value sits at its
// symbolic_value_offsets entry when the plan has one (a loop's or branch's
// value), else at its constant value_offsets entry. nullopt for a chain longer than the program
// (a cycle, which the parser rules out).
std::optional<SizeExpr> ChainOffset(const Program& program, const Plan& plan, ValueId v) {
  SizeExpr offset;
  const auto count = static_cast<ValueId>(program.values.size());
  for (ValueId steps = 0; steps <= count; ++steps) {
    if (v < 0 || v >= count) return std::nullopt;
    const Value& value = program.values[v];
    if (value.alias == AliasKind::kNone) {
      if (const ValueId across = AcrossCall(program, v); across != kNoId) {
        v = across;
        continue;
      }
      // A loop's or branch's value the chain does not follow: the plan's
      // symbolic place when it states one, else its constant one.
      if (auto it = plan.symbolic_value_offsets.find(v); it != plan.symbolic_value_offsets.end()) {
        return offset + it->second;
      }
      const bool listed = v < static_cast<ValueId>(plan.value_offsets.size());
      return offset + SizeExpr::Constant(listed ? plan.value_offsets[v] : 0);
    }
    if (value.alias == AliasKind::kView) offset += ViewOffsetExprOf(value);
    v = value.alias_of;
  }
  return std::nullopt;
}

}  // namespace

absl::Status CheckDynamicViews(const RegionContext& ctx) {
  const Program& program = ctx.program;
  std::map<BufferId, const Slice*> slice_of;
  for (const Resource& r : ctx.regions.resources) {
    if (r.kind == ResourceKind::kPool) continue;  // program pools: planned at the evaluation point
    for (const Slice& s : r.slices) slice_of.emplace(s.buffer, &s);
  }
  const DimBox box = DimRanges(program);
  const std::vector<std::string> names = DimNames(program);
  for (ValueId v = 0; v < static_cast<ValueId>(program.values.size()); ++v) {
    const Value& value = program.values[v];
    if (!value.view_offset_expr || v >= static_cast<ValueId>(ctx.buffer_of.size())) continue;
    auto it = slice_of.find(ctx.buffer_of[v]);
    if (it == slice_of.end()) continue;  // a program pool's buffer: planned at the evaluation point
    const std::optional<SizeExpr> offset = ChainOffset(program, ctx.plan, v);
    if (!offset) {
      if (ctx.site) ctx.site->value = v;
      return RuleViolation(2, absl::StrCat("%", value.name, ": its chain of views loops"));
    }
    const SizeExpr end = *offset + SizeExprOf(value);
    if (!end.ProvablyLessEqual(it->second->size, box)) {
      if (ctx.site) ctx.site->value = v;
      return RuleViolation(
          2, absl::StrCat("%", value.name, ", a view at offset ", offset->ToString(names),
                          " of its buffer, ends at ", end.ToString(names),
                          ", not provably inside its slice of size ",
                          it->second->size.ToString(names), " for every binding of the dims"));
    }
  }
  return absl::OkStatus();
}

}  // namespace memplan::region_verify
