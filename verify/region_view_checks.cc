// Rule 2's last part (verify/region_checks.h): a subview at an offset given
// by dims (`view(%x, align(%n, 64))`) stays inside its slice for every
// binding of the dims, not only at the evaluation point the other checks
// use. Its offset is re-derived from the program alone: the chain of views
// and ties down to a value at a constant place (the plan's value_offsets).
#include <map>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "ir/dims.h"
#include "verify/region_internal.h"

namespace memplan::region_verify {
namespace {

// `v`'s bytes from its buffer's start as an expression: a view adds its
// offset to its operand's, a tied result keeps its operand's, any other
// value sits at its constant value_offsets entry. nullopt for a chain longer
// than the program (a cycle, which the parser rules out).
std::optional<SizeExpr> ChainOffset(const Program& program, const Plan& plan, ValueId v) {
  SizeExpr offset;
  const auto count = static_cast<ValueId>(program.values.size());
  for (ValueId steps = 0; steps <= count; ++steps) {
    if (v < 0 || v >= count) return std::nullopt;
    const Value& value = program.values[v];
    if (value.alias == AliasKind::kNone) {
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
    if (!offset) return RuleViolation(2, absl::StrCat("%", value.name, ": its chain of views loops"));
    const SizeExpr end = *offset + SizeExprOf(value);
    if (!end.ProvablyLessEqual(it->second->size, box)) {
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
