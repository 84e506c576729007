#include "ir/validate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/diagnostic.h"
#include "ir/dims.h"
#include "ir/dtype.h"
#include "ir/opcodes.h"
#include "ir/plural.h"
#include "ir/text_syntax.h"

namespace memplan {
namespace {

// Attribute keys the text format maps to Op fields; never in Op::attributes.
constexpr std::array<std::string_view, 11> kTypedKeys = {
    "affinity", "body", "branches", "bytes_accessed", "callee", "cond",
    "flops", "scratch", "transcendentals", "trip_count", "wave",
};

// The size of `value` as an expression (a static size is a constant).
SizeExpr SizeOf(const Value& value) {
  return value.size_expr ? *value.size_expr : SizeExpr::Constant(value.size);
}

// "4096 bytes", "1 byte" or "4*%n bytes".
std::string BytesText(const SizeExpr& size, std::span<const std::string> names) {
  if (std::optional<Bytes> constant = size.ConstantValue()) return CountOf(*constant, "byte");
  return size.ToString(names) + " bytes";
}

int ListDepth(const AttrValue& value) {
  if (value.kind != AttrValue::Kind::kList) return 0;
  int deepest = 0;
  for (const AttrValue& element : value.list) {
    deepest = std::max(deepest, ListDepth(element));
    if (deepest > kMaxAttributeNesting) break;  // bounds recursion on hostile input
  }
  return deepest + 1;
}

class Validator {
 public:
  Validator(const Program& program, std::string_view path) : p_(program), path_(path) {}

  absl::Status Run() {
    if (absl::Status s = CheckIds(); !s.ok()) return s;
    if (absl::Status s = CheckNames(); !s.ok()) return s;
    if (absl::Status s = CheckDims(); !s.ok()) return s;
    names_ = DimNames(p_);
    box_ = DimRanges(p_);
    if (absl::Status s = CheckSizeExprs(); !s.ok()) return s;
    if (p_.entry == kNoId) {
      return Fail(p_.computations.empty() ? SourceLocation{} : p_.computations.front().loc,
                  "no entry computation; mark one computation 'entry'");
    }
    available_.assign(p_.values.size(), kNoId);
    done_of_start_.assign(p_.ops.size(), kNoId);
    overwritten_by_.assign(p_.values.size(), kNoId);
    for (ComputationId c = 0; c < NumComputations(); ++c) {
      if (absl::Status s = CheckComputation(c); !s.ok()) return s;
    }
    for (OpId o = 0; o < static_cast<OpId>(p_.ops.size()); ++o) {
      if (p_.ops[o].kind == OpKind::kAsyncStart && done_of_start_[o] == kNoId) {
        const std::string prefix(AsyncPartnerPrefix(p_.ops[o].opcode).value_or(""));
        return OpFail(o, p_.ops[o].opcode + " " + OpLabel(o) + " is never completed by a " + prefix +
                             "-done");
      }
    }
    return CheckCallGraph();
  }

 private:
  // --- Messages -------------------------------------------------------------
  absl::Status Fail(SourceLocation loc, const std::string& message) const {
    return LocatedError(path_, loc, message);
  }
  // Programs built in code have no locations: name the op instead.
  absl::Status OpFail(OpId o, const std::string& message) const {
    const Op& op = p_.ops[o];
    if (op.loc.line > 0) return Fail(op.loc, message);
    return Fail({}, "in " + CompName(op.computation) + ", op " + OpLabel(o) + ": " + message);
  }
  std::string Name(ValueId v) const { return SigilName('%', p_.values[v].name); }
  std::string CompName(ComputationId c) const { return SigilName('@', p_.computations[c].name); }
  std::string OpLabel(OpId o) const {
    const Op& op = p_.ops[o];
    if (!op.results.empty() && IsValue(op.results.front())) return Name(op.results.front());
    return op.opcode + "#" + std::to_string(o);
  }
  // "%x (16 bytes)", "%x (4*%n bytes)" or "%t (timepoint)".
  std::string Describe(ValueId v) const {
    const Value& value = p_.values[v];
    return Name(v) + (value.is_timepoint ? " (timepoint)" : " (" + BytesText(SizeOf(value), names_) + ")");
  }
  std::string WhereDefined(SourceLocation loc) const {
    return loc.line > 0 ? " (first defined at " + LineColumn(loc) + ")" : "";
  }

  ComputationId NumComputations() const { return static_cast<ComputationId>(p_.computations.size()); }
  bool IsValue(ValueId v) const { return v >= 0 && v < static_cast<ValueId>(p_.values.size()); }
  bool IsOp(OpId o) const { return o >= 0 && o < static_cast<OpId>(p_.ops.size()); }
  bool IsComputation(ComputationId c) const { return c >= 0 && c < NumComputations(); }

  // --- Ids and ownership (only programs built in code can break these) ------
  absl::Status CheckIds() const {
    if (p_.entry != kNoId && !IsComputation(p_.entry)) {
      return Fail({}, "entry computation id " + std::to_string(p_.entry) + " is out of range");
    }
    std::vector<char> defined(p_.values.size(), 0);
    std::vector<char> scheduled(p_.ops.size(), 0);
    const auto define = [&](ValueId v) -> absl::Status {
      if (defined[v]) return Fail({}, "value " + Name(v) + " is defined twice");
      defined[v] = 1;
      return absl::OkStatus();
    };
    for (ComputationId c = 0; c < NumComputations(); ++c) {
      const Computation& comp = p_.computations[c];
      for (ValueId v : comp.params) {
        if (!IsValue(v)) return Fail({}, CompName(c) + ": parameter id " + std::to_string(v) + " is out of range");
        if (p_.values[v].computation != c || p_.values[v].defining_op != kNoId) {
          return Fail({}, "parameter " + Name(v) + " of " + CompName(c) +
                              " does not record that computation as its definition");
        }
        if (absl::Status s = define(v); !s.ok()) return s;
      }
      for (OpId o : comp.ops) {
        if (!IsOp(o)) return Fail({}, CompName(c) + ": op id " + std::to_string(o) + " is out of range");
        if (p_.ops[o].computation != c) {
          return Fail({}, "op #" + std::to_string(o) + " is scheduled in " + CompName(c) +
                              " but records another computation");
        }
        if (scheduled[o]) return Fail({}, "op #" + std::to_string(o) + " is scheduled twice");
        scheduled[o] = 1;
        for (ValueId v : p_.ops[o].results) {
          if (!IsValue(v)) return Fail({}, "op #" + std::to_string(o) + ": result id " + std::to_string(v) + " is out of range");
          if (p_.values[v].computation != c || p_.values[v].defining_op != o) {
            return Fail({}, "result " + Name(v) + " of op #" + std::to_string(o) +
                                " does not record that op as its definition");
          }
          if (absl::Status s = define(v); !s.ok()) return s;
        }
      }
      for (ValueId v : comp.results) {
        if (!IsValue(v)) return Fail({}, CompName(c) + ": returned value id " + std::to_string(v) + " is out of range");
      }
    }
    for (OpId o = 0; o < static_cast<OpId>(p_.ops.size()); ++o) {
      if (!scheduled[o]) return Fail({}, "op #" + std::to_string(o) + " (" + p_.ops[o].opcode + ") is in no computation's schedule");
      for (ValueId v : p_.ops[o].operands) {
        if (!IsValue(v)) return Fail({}, "op #" + std::to_string(o) + ": operand id " + std::to_string(v) + " is out of range");
      }
      for (ComputationId c : p_.ops[o].callees) {
        if (!IsComputation(c)) return Fail({}, "op #" + std::to_string(o) + ": callee id " + std::to_string(c) + " is out of range");
      }
    }
    for (ValueId v = 0; v < static_cast<ValueId>(p_.values.size()); ++v) {
      if (!defined[v]) return Fail({}, "value " + Name(v) + " is neither a parameter nor an op result");
      const Value& value = p_.values[v];
      if (value.alias != AliasKind::kNone && !IsValue(value.alias_of)) {
        return Fail({}, "value " + Name(v) + " aliases value id " + std::to_string(value.alias_of) + ", which is out of range");
      }
      for (const GatheredOperand& g : value.gathers) {
        if (!IsValue(g.operand)) {
          return Fail({}, "value " + Name(v) + " gathers value id " + std::to_string(g.operand) +
                              ", which is out of range");
        }
      }
    }
    return absl::OkStatus();
  }

  // --- Names and text -------------------------------------------------------
  // Why `text` cannot appear in the text format, or nullopt.
  static std::optional<std::string> TextProblem(std::string_view text) {
    if (text.find('\0') != std::string_view::npos) return "contains a NUL byte";
    if (FirstInvalidUtf8(text)) return "is not valid UTF-8";
    return std::nullopt;
  }
  absl::Status CheckText(SourceLocation loc, std::string_view text, const std::string& what) const {
    if (std::optional<std::string> problem = TextProblem(text)) return Fail(loc, what + " " + *problem);
    return absl::OkStatus();
  }
  absl::Status CheckOpText(OpId o, std::string_view text, const std::string& what) const {
    if (std::optional<std::string> problem = TextProblem(text)) return OpFail(o, what + " " + *problem);
    return absl::OkStatus();
  }

  absl::Status CheckNames() const {
    if (absl::Status s = CheckText({}, p_.name, "the program name"); !s.ok()) return s;
    std::unordered_map<std::string_view, ValueId> values;
    for (ValueId v = 0; v < static_cast<ValueId>(p_.values.size()); ++v) {
      const Value& value = p_.values[v];
      if (value.name.empty()) return Fail(value.loc, "value #" + std::to_string(v) + " has an empty name");
      if (absl::Status s = CheckText(value.loc, value.name, "value name #" + std::to_string(v)); !s.ok()) {
        return s;
      }
      const auto [it, inserted] = values.emplace(value.name, v);
      if (!inserted) {
        return Fail(value.loc, "duplicate value name " + Name(v) + WhereDefined(p_.values[it->second].loc));
      }
    }
    std::unordered_map<std::string_view, DimId> dims;
    for (DimId d = 0; d < static_cast<DimId>(p_.dims.size()); ++d) {
      const DimDecl& dim = p_.dims[d];
      if (dim.name.empty()) return Fail(dim.loc, "dim #" + std::to_string(d) + " has an empty name");
      if (absl::Status s = CheckText(dim.loc, dim.name, "dim name #" + std::to_string(d)); !s.ok()) return s;
      const auto [it, inserted] = dims.emplace(dim.name, d);
      if (!inserted) {
        return Fail(dim.loc, "duplicate dim " + SigilName('%', dim.name) + WhereDefined(p_.dims[it->second].loc));
      }
      if (const auto value = values.find(dim.name); value != values.end()) {
        return Fail(p_.values[value->second].loc, "value " + Name(value->second) + " reuses the name of dim " +
                                                      SigilName('%', dim.name) + "; dims and values share one namespace");
      }
    }
    std::unordered_map<std::string_view, ComputationId> computations;
    for (ComputationId c = 0; c < NumComputations(); ++c) {
      const Computation& comp = p_.computations[c];
      if (comp.name.empty()) return Fail(comp.loc, "computation #" + std::to_string(c) + " has an empty name");
      if (absl::Status s = CheckText(comp.loc, comp.name, "computation name #" + std::to_string(c)); !s.ok()) {
        return s;
      }
      const auto [it, inserted] = computations.emplace(comp.name, c);
      if (!inserted) {
        return Fail(comp.loc, "duplicate computation " + CompName(c) +
                                  WhereDefined(p_.computations[it->second].loc));
      }
    }
    return absl::OkStatus();
  }

  // --- Dims and size expressions ------------------------------------------------
  // Bounds >= 1 and bindings within them.
  absl::Status CheckDims() const {
    for (const DimDecl& dim : p_.dims) {
      const std::string name = SigilName('%', dim.name);
      if (dim.bound && *dim.bound < 1) {
        return Fail(dim.loc, "dim " + name + " has bound " + std::to_string(*dim.bound) + "; a bound must be >= 1");
      }
      if (dim.binding && (*dim.binding < 1 || (dim.bound && *dim.binding > *dim.bound))) {
        return Fail(dim.loc, "dim " + name + " is bound to " + std::to_string(*dim.binding) + ", outside [1, " +
                                 (dim.bound ? std::to_string(*dim.bound) : "unbounded") + "]");
      }
    }
    return absl::OkStatus();
  }

  // Why `size` cannot be used in this program (a dim id out of range or
  // overflow), or nullopt; messages may print it only when it passes.
  std::optional<std::string> ExprProblem(const SizeExpr& size) const {
    for (DimId d : size.Dims()) {
      if (d < 0 || d >= static_cast<DimId>(p_.dims.size())) {
        return "mentions dim #" + std::to_string(d) + ", but the program declares " + CountOf(p_.dims.size(), "dim");
      }
    }
    if (size.Overflowed()) return std::string("overflows int64");
    return std::nullopt;
  }

  // Symbolic sizes and operand ranges are well-formed before any message
  // prints one; a value's size is its size_expr at the evaluation point.
  absl::Status CheckSizeExprs() const {
    const std::vector<std::int64_t> point = EvaluationPoint(p_);
    for (ValueId v = 0; v < static_cast<ValueId>(p_.values.size()); ++v) {
      const Value& value = p_.values[v];
      if (!value.size_expr) continue;
      if (value.is_timepoint || value.type) {
        return Fail(value.loc, Name(v) + " has a symbolic size but is a " +
                                   (value.is_timepoint ? "timepoint" : "tensor") + " (only byte sizes are symbolic)");
      }
      if (std::optional<std::string> problem = ExprProblem(*value.size_expr)) {
        return Fail(value.loc, "the size of " + Name(v) + " " + *problem);
      }
      absl::StatusOr<Bytes> bytes = SizeAtPoint(*value.size_expr, point, names_);
      if (!bytes.ok()) return Fail(value.loc, Name(v) + ": " + std::string(bytes.status().message()));
      if (*bytes != value.size) {
        return Fail(value.loc, Name(v) + " has size " + std::to_string(value.size) + " but its size " +
                                   value.size_expr->ToString(names_) + " is " + std::to_string(*bytes) +
                                   " at the evaluation point");
      }
    }
    for (OpId o = 0; o < static_cast<OpId>(p_.ops.size()); ++o) {
      const Op& op = p_.ops[o];
      if (!op.operand_ranges.empty() && op.operand_ranges.size() != op.operands.size()) {
        return OpFail(o, "has " + CountOf(op.operand_ranges.size(), "operand range") + " for " +
                             CountOf(op.operands.size(), "operand") + " (empty or one per operand)");
      }
      for (std::size_t i = 0; i < op.operand_ranges.size(); ++i) {
        if (!op.operand_ranges[i]) continue;
        for (const SizeExpr* part : {&op.operand_ranges[i]->offset, &op.operand_ranges[i]->length}) {
          if (std::optional<std::string> problem = ExprProblem(*part)) {
            return OpFail(o, "the range of operand " + std::to_string(i + 1) + " " + *problem);
          }
        }
      }
    }
    return absl::OkStatus();
  }

  // --- Values ---------------------------------------------------------------
  absl::Status CheckValue(ValueId v) const {
    const Value& value = p_.values[v];
    if (value.is_timepoint) {
      if (value.size != 0 || value.type) {
        return Fail(value.loc, "timepoint " + Name(v) + " must have size 0 and no tensor type");
      }
      if (value.alias != AliasKind::kNone || value.space || value.lifetime) {
        return Fail(value.loc, "timepoint " + Name(v) +
                                   " cannot be tied, a view, pinned to a space or given a lifetime");
      }
      return absl::OkStatus();
    }
    if (value.size < 0) return Fail(value.loc, Name(v) + " has a negative size (" + std::to_string(value.size) + ")");
    if (value.type) {
      absl::StatusOr<Bytes> bytes = TensorBytes(*value.type);
      if (!bytes.ok()) return Fail(value.loc, Name(v) + ": " + std::string(bytes.status().message()));
      if (*bytes != value.size) {
        return Fail(value.loc, Name(v) + " has size " + std::to_string(value.size) + " but its type " +
                                   value.type->dtype + "[...] needs " + CountOf(*bytes, "byte"));
      }
    }
    if (value.space && *value.space < 0) {
      return Fail(value.loc, Name(v) + " is pinned to negative memory space " + std::to_string(*value.space));
    }
    if (value.alias != AliasKind::kView && (value.view_offset != 0 || value.view_offset_expr)) {
      return Fail(value.loc, Name(v) + " has a view offset but is not a view");
    }
    if (value.view_offset_expr && value.computation >= 0 && value.computation < NumComputations() &&
        p_.computations[value.computation].kind != ComputationKind::kRegion) {
      return Fail(value.loc, "view " + Name(v) + " at offset " + value.view_offset_expr->ToString(names_) +
                                 ": a subview at an offset given by dims must be defined in an execution "
                                 "region (`region @r`), whose slices keep symbolic offsets; buffers outside "
                                 "regions are laid out at constant byte offsets");
    }
    return absl::OkStatus();
  }

  // Aliasing of a result `v` with alias != kNone; `sorted_operands` are its
  // op's operands, sorted.
  absl::Status CheckAlias(ValueId v, const std::vector<ValueId>& sorted_operands) const {
    const Value& value = p_.values[v];
    const char* keyword = value.alias == AliasKind::kTied ? "tied" : "view";
    const ValueId base = value.alias_of;
    if (!std::binary_search(sorted_operands.begin(), sorted_operands.end(), base)) {
      return Fail(value.loc, Name(v) + " is " + keyword + " to " + Name(base) +
                                 ", which is not an operand of its op");
    }
    const Value& operand = p_.values[base];
    if (operand.is_timepoint) return Fail(value.loc, Name(v) + " cannot alias timepoint " + Name(base));
    if (value.alias == AliasKind::kTied && SizeOf(value) != SizeOf(operand)) {
      return Fail(value.loc, "tied result " + Describe(v) + " must have the size of operand " + Describe(base));
    }
    if (value.alias == AliasKind::kView &&
        (value.view_offset < 0 ||
         !(ViewOffsetExprOf(value) + SizeOf(value)).ProvablyLessEqual(SizeOf(operand), box_))) {
      const std::string offset = value.view_offset_expr ? value.view_offset_expr->ToString(names_)
                                                        : std::to_string(value.view_offset);
      // A dynamic view that fits at the dims' evaluation point may still pass
      // the operand's end at another binding.
      const std::string why = value.view_offset_expr && value.view_offset + value.size <= operand.size
                                  ? " for some binding of the dims within their bounds (not provably "
                                    "inside it: bound the dims or align the sizes)"
                                  : "";
      return Fail(value.loc, "view " + Name(v) + " (" + BytesText(SizeOf(value), names_) + " at offset " +
                                 offset + ") exceeds operand " + Describe(base) + why);
    }
    return absl::OkStatus();
  }

  // gathers(...) of result `v` of op `o`: operands of a compute op in a
  // func, each gathered once in the whole program, not a timepoint and not
  // aliased by another result of the op; slices within the result and
  // pairwise disjoint (for every value of the dims). O(k log k) for k
  // gathered operands.
  absl::Status CheckGathers(OpId o, ValueId v) {
    const Value& value = p_.values[v];
    if (value.gathers.empty()) return absl::OkStatus();
    const Op& op = p_.ops[o];
    if (value.alias != AliasKind::kNone) {
      return Fail(value.loc, Name(v) + " cannot both gather operands and be " +
                                 (value.alias == AliasKind::kTied ? "tied" : "a view"));
    }
    if (op.kind != OpKind::kCompute || p_.computations[op.computation].kind != ComputationKind::kFunction) {
      return Fail(value.loc, "gathers(...) is only allowed on results of compute ops in a func, not on " +
                                 op.opcode);
    }
    if (value.is_timepoint) return Fail(value.loc, "timepoint " + Name(v) + " cannot gather operands");
    std::vector<const GatheredOperand*> slices;
    for (const GatheredOperand& g : value.gathers) {
      const Value& operand = p_.values[g.operand];
      if (std::find(op.operands.begin(), op.operands.end(), g.operand) == op.operands.end()) {
        return Fail(value.loc, Name(v) + " gathers " + Name(g.operand) + ", which is not an operand of its op");
      }
      if (operand.is_timepoint) return Fail(value.loc, Name(v) + " cannot gather timepoint " + Name(g.operand));
      if (g.offset < 0 ||
          !(SizeExpr::Constant(g.offset) + SizeOf(operand)).ProvablyLessEqual(SizeOf(value), box_)) {
        return Fail(value.loc, "gathered operand " + Name(g.operand) + " (" + BytesText(SizeOf(operand), names_) +
                                   " at offset " + std::to_string(g.offset) + ") exceeds result " + Describe(v));
      }
      for (ValueId r : op.results) {
        if (r != v && p_.values[r].alias != AliasKind::kNone && p_.values[r].alias_of == g.operand) {
          return Fail(value.loc, Name(v) + " gathers " + Name(g.operand) + ", which result " + Name(r) +
                                     " of the same op also aliases");
        }
      }
      auto [it, fresh] = gathered_by_.emplace(g.operand, v);
      if (!fresh) {
        return Fail(value.loc, Name(v) + " gathers " + Name(g.operand) + ", which " + Name(it->second) +
                                   " already gathers; a value has one place");
      }
      slices.push_back(&g);
    }
    std::sort(slices.begin(), slices.end(), [](const GatheredOperand* a, const GatheredOperand* b) {
      return a->offset < b->offset || (a->offset == b->offset && a->operand < b->operand);
    });
    for (std::size_t i = 1; i < slices.size(); ++i) {
      const GatheredOperand& lo = *slices[i - 1];
      const GatheredOperand& hi = *slices[i];
      if (!(SizeExpr::Constant(lo.offset) + SizeOf(p_.values[lo.operand]))
               .ProvablyLessEqual(SizeExpr::Constant(hi.offset), box_)) {
        return Fail(value.loc, "gathered operands " + Name(lo.operand) + " (" +
                                   BytesText(SizeOf(p_.values[lo.operand]), names_) + " at offset " +
                                   std::to_string(lo.offset) + ") and " + Name(hi.operand) + " (at offset " +
                                   std::to_string(hi.offset) + ") of " + Name(v) + " overlap");
      }
    }
    return absl::OkStatus();
  }

  // --- Computations and ops -------------------------------------------------
  absl::Status CheckComputation(ComputationId c) {
    const Computation& comp = p_.computations[c];
    if (comp.affinity) {
      if (comp.kind != ComputationKind::kRegion) {
        return Fail(comp.loc, CompName(c) + ": affinity is only valid on a region");
      }
      if (absl::Status s = CheckText(comp.loc, *comp.affinity, "the affinity of " + CompName(c)); !s.ok()) {
        return s;
      }
    }
    if (absl::Status s = CheckInitializer(c); !s.ok()) return s;
    for (ValueId v : comp.params) {
      if (absl::Status s = CheckValue(v); !s.ok()) return s;
      if (p_.values[v].alias != AliasKind::kNone) {
        return Fail(p_.values[v].loc, "parameter " + Name(v) + " cannot be tied or a view");
      }
      available_[v] = c;
    }
    // Waves are >= 0 (checked below); -1 stands for none. (Plain integers:
    // GCC 12 -O2 warns that optional ones may be used uninitialized.)
    std::int64_t previous_wave = -1;  // wave of the op just before
    std::int64_t highest_wave = -1;
    for (OpId o : comp.ops) {
      if (absl::Status s = CheckOp(o); !s.ok()) return s;
      const Op& op = p_.ops[o];
      if (op.wave) {
        if (comp.kind != ComputationKind::kRegion) {
          return OpFail(o, "wave is only valid on ops of an execution region");
        }
        if (*op.wave < 0) return OpFail(o, "wave must be >= 0");
        if (previous_wave != *op.wave && highest_wave >= 0 && *op.wave <= highest_wave) {
          return OpFail(o, "wave " + std::to_string(*op.wave) + " after wave " + std::to_string(highest_wave) +
                               ": ops of one wave must be adjacent and waves must increase along the schedule");
        }
        highest_wave = std::max(highest_wave, *op.wave);
      }
      previous_wave = op.wave.value_or(-1);
      for (ValueId v : op.results) available_[v] = c;
    }
    for (ValueId v : comp.results) {
      if (available_[v] != c) {
        return Fail(comp.loc, CompName(c) + " returns " + Name(v) + ", which is not defined in " + CompName(c));
      }
      if (absl::Status s = CheckNotOverwritten(v, "the return of " + CompName(c), comp.loc); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // An initializer is a func other than the entry and takes no parameters
  // (nothing calls it; CheckCallGraph).
  absl::Status CheckInitializer(ComputationId c) const {
    const Computation& comp = p_.computations[c];
    if (!comp.initializer) return absl::OkStatus();
    if (comp.kind != ComputationKind::kFunction) {
      return Fail(comp.loc, "initializer " + CompName(c) + " must be a func, not a region");
    }
    if (c == p_.entry) return Fail(comp.loc, "the entry computation " + CompName(c) + " cannot be an initializer");
    if (!comp.params.empty()) {
      return Fail(comp.loc, "initializer " + CompName(c) + " takes " + CountOf(comp.params.size(), "parameter") +
                                "; an initializer takes none (it runs once, before the entry)");
    }
    return absl::OkStatus();
  }

  absl::Status CheckOp(OpId o) {
    const Op& op = p_.ops[o];
    const ComputationId c = op.computation;
    if (!IsIdentifier(op.opcode)) {
      return OpFail(o, "opcode '" + op.opcode + "' is not an identifier ([A-Za-z_][A-Za-z0-9_.-]*)");
    }
    const std::optional<OpKind> kind = ClassifyOpcode(op.opcode);
    if (!kind) {
      return OpFail(o, "unknown opcode '" + op.opcode + "' (custom ops must be namespaced with a '.', e.g. custom." +
                           op.opcode + ")");
    }
    if (*kind != op.kind) return OpFail(o, "op kind does not match opcode '" + op.opcode + "'");
    for (std::size_t i = 0; i < op.operands.size(); ++i) {
      const ValueId v = op.operands[i];
      if (available_[v] == c) continue;
      const std::string which = "operand " + std::to_string(i + 1) + " " + Name(v);
      if (p_.values[v].computation != c) {
        return OpFail(o, which + " belongs to computation " + CompName(p_.values[v].computation) +
                             "; pass values to other computations as operands");
      }
      if (p_.values[v].is_timepoint) {
        return OpFail(o, "timepoint " + Name(v) + " (operand " + std::to_string(i + 1) +
                             ") is awaited before it is produced");
      }
      return OpFail(o, which + " is used before its definition");
    }
    for (ValueId v : op.operands) {
      if (absl::Status s = CheckNotOverwritten(v, OpLabel(o), op.loc); !s.ok()) return s;
    }
    if (absl::Status s = CheckRanges(o); !s.ok()) return s;
    if (absl::Status s = CheckCallees(o); !s.ok()) return s;
    if (absl::Status s = CheckSignature(o); !s.ok()) return s;
    if (op.kind == OpKind::kAsyncDone) {
      if (absl::Status s = CheckAsyncDone(o); !s.ok()) return s;
    }
    if (absl::Status s = CheckOpFields(o); !s.ok()) return s;
    if (absl::Status s = CheckHostResourceOp(o); !s.ok()) return s;
    std::vector<ValueId> sorted_operands;  // filled for the first aliasing result
    for (ValueId v : op.results) {
      if (absl::Status s = CheckValue(v); !s.ok()) return s;
      if (absl::Status s = CheckGathers(o, v); !s.ok()) return s;
      if (p_.values[v].alias == AliasKind::kNone) continue;
      if (sorted_operands.empty()) {
        sorted_operands = op.operands;
        std::sort(sorted_operands.begin(), sorted_operands.end());
      }
      if (absl::Status s = CheckAlias(v, sorted_operands); !s.ok()) return s;
      if (absl::Status s = MarkOverwritten(o, v); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // Why typed value `v` cannot select a branch or end a loop (a predicate or
  // a branch index: one element of pred, bool or an integer type), or
  // nullopt when it can or has no declared type.
  std::optional<std::string> SelectorProblem(ValueId v) const {
    const std::optional<TensorType>& type = p_.values[v].type;
    if (!type) return std::nullopt;
    const std::string_view d = type->dtype;
    const bool integer = d == "pred" || d == "bool" ||
                         ((d.starts_with('i') || d.starts_with('u') || d.starts_with('s')) && d.size() > 1 &&
                          std::all_of(d.begin() + 1, d.end(), [](char ch) { return ch >= '0' && ch <= '9'; }));
    const bool one_element = std::all_of(type->dims.begin(), type->dims.end(), [](std::int64_t x) { return x == 1; });
    if (integer && one_element) return std::nullopt;
    std::string dims;
    for (std::int64_t x : type->dims) dims += (dims.empty() ? "" : ",") + std::to_string(x);
    return "is " + type->dtype + "[" + dims +
           "]; a predicate or branch index is one element of pred, bool or an integer type";
  }

  // A tied result `v` of op `o` is written over its operand: that operand,
  // and the values it is a view of, hold other bytes from `o` on. Two
  // results of `o` tied to one operand would both be written there.
  absl::Status MarkOverwritten(OpId o, ValueId v) {
    const Value& value = p_.values[v];
    if (value.alias != AliasKind::kTied) return absl::OkStatus();
    const ValueId earlier = overwritten_by_[value.alias_of];
    if (earlier != kNoId && p_.values[earlier].defining_op == o) {
      return Fail(value.loc, Name(v) + " is tied to " + Name(value.alias_of) + ", which " + Name(earlier) +
                                 " of the same op is tied to already; each result needs storage of its own");
    }
    for (ValueId x = value.alias_of;; x = p_.values[x].alias_of) {
      overwritten_by_[x] = v;
      if (p_.values[x].alias != AliasKind::kView) break;
    }
    return absl::OkStatus();
  }

  // `v` (or a value it is a view of) read by `reader` (at `loc`) after a
  // tied result wrote over it: the read would see the tied result's bytes.
  // O(view depth).
  absl::Status CheckNotOverwritten(ValueId v, const std::string& reader, SourceLocation loc) const {
    for (ValueId x = v;; x = p_.values[x].alias_of) {
      const ValueId tied = overwritten_by_[x];
      if (tied != kNoId) {
        const SourceLocation at = p_.values[tied].loc;
        const std::string where = at.line > 0 ? " at " + LineColumn(at) : "";
        const std::string message =
            reader + " reads " + Name(v) + " after " + Name(tied) + " was written in place over " +
            Name(x) + where + "; a result may be tied to an operand only at that operand's last use";
        return loc.line > 0 ? Fail(loc, message)
                            : Fail({}, "in " + CompName(p_.values[v].computation) + ": " + message);
      }
      if (p_.values[x].alias != AliasKind::kView) break;
    }
    return absl::OkStatus();
  }

  // Each operand range lies within its operand (sizes checked by CheckSizeExprs).
  absl::Status CheckRanges(OpId o) const {
    const Op& op = p_.ops[o];
    for (std::size_t i = 0; i < op.operand_ranges.size(); ++i) {
      if (!op.operand_ranges[i]) continue;
      if (std::optional<std::string> problem = OperandRangeProblem(p_, op.operands[i], *op.operand_ranges[i])) {
        return OpFail(o, *problem);
      }
    }
    return absl::OkStatus();
  }

  absl::Status CheckOpFields(OpId o) const {
    const Op& op = p_.ops[o];
    if (!std::isfinite(op.cost.flops) || op.cost.flops < 0) return OpFail(o, "flops must be a finite number >= 0");
    if (!std::isfinite(op.cost.transcendentals) || op.cost.transcendentals < 0) {
      return OpFail(o, "transcendentals must be a finite number >= 0");
    }
    if (op.cost.bytes_accessed && *op.cost.bytes_accessed < 0) return OpFail(o, "bytes_accessed must be >= 0");
    if (op.scratch_bytes < 0) return OpFail(o, "scratch must be >= 0");
    if (op.trip_count) {
      if (op.kind != OpKind::kWhile) return OpFail(o, "trip_count is only valid on while");
      if (*op.trip_count < 0) return OpFail(o, "trip_count must be >= 0");
    }
    if (op.affinity) {
      if (absl::Status s = CheckOpText(o, *op.affinity, "affinity"); !s.ok()) return s;
    }
    std::unordered_set<std::string_view> keys;
    for (const Attribute& attr : op.attributes) {
      if (!IsIdentifier(attr.key)) {
        return OpFail(o, "attribute key '" + attr.key + "' is not an identifier ([A-Za-z_][A-Za-z0-9_.-]*)");
      }
      if (std::find(kTypedKeys.begin(), kTypedKeys.end(), attr.key) != kTypedKeys.end()) {
        return OpFail(o, "attribute '" + attr.key + "' is a typed field of Op, not a generic attribute");
      }
      if (!keys.insert(attr.key).second) return OpFail(o, "duplicate attribute '" + attr.key + "'");
      if (ListDepth(attr.value) > kMaxAttributeNesting) {
        return OpFail(o, "attribute '" + attr.key + "' nests lists deeper than " +
                             std::to_string(kMaxAttributeNesting));
      }
      if (absl::Status s = CheckAttrValue(o, attr.key, attr.value); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  absl::Status CheckAttrValue(OpId o, const std::string& key, const AttrValue& value) const {
    const std::string what = "attribute '" + key + "'";
    switch (value.kind) {
      case AttrValue::Kind::kFloat:
        if (!std::isfinite(value.f)) return OpFail(o, what + " is not a finite number");
        break;
      case AttrValue::Kind::kString:
        return CheckOpText(o, value.s, what);
      case AttrValue::Kind::kSymbol:
        if (value.s.empty()) return OpFail(o, what + " has an empty @name");
        return CheckOpText(o, value.s, what);
      case AttrValue::Kind::kList:
        for (const AttrValue& element : value.list) {
          if (absl::Status s = CheckAttrValue(o, key, element); !s.ok()) return s;
        }
        break;
      case AttrValue::Kind::kInt:
      case AttrValue::Kind::kBool:
        break;
    }
    return absl::OkStatus();
  }

  // Number and kind (func or region) of an op's callees.
  absl::Status CheckCallees(OpId o) const {
    const Op& op = p_.ops[o];
    const std::size_t n = op.callees.size();
    switch (op.kind) {
      case OpKind::kWhile:
        if (n != 2) return OpFail(o, "while must have 2 callees (cond, body), has " + std::to_string(n));
        break;
      case OpKind::kConditional:
        if (n == 0) return OpFail(o, "conditional must have at least one branch");
        break;
      case OpKind::kCall:
      case OpKind::kExecute:
        if (n != 1) return OpFail(o, op.opcode + " must have exactly 1 callee, has " + std::to_string(n));
        break;
      default:
        if (n != 0) return OpFail(o, "'" + op.opcode + "' cannot have callees");
        return absl::OkStatus();
    }
    for (std::size_t i = 0; i < n; ++i) {
      const ComputationId callee = op.callees[i];
      const bool is_region = p_.computations[callee].kind == ComputationKind::kRegion;
      if (op.kind == OpKind::kExecute && !is_region) {
        return OpFail(o, "execute: " + CompName(callee) + " is a func; execute runs regions (call funcs with call)");
      }
      if (op.kind != OpKind::kExecute && is_region) {
        return OpFail(o, op.opcode + ": " + CompName(callee) + " is a region; run regions with execute");
      }
    }
    return absl::OkStatus();
  }

  // Equal kinds and equal sizes (as expressions).
  bool SameStorage(ValueId a, ValueId b) const {
    return p_.values[a].is_timepoint == p_.values[b].is_timepoint && SizeOf(p_.values[a]) == SizeOf(p_.values[b]);
  }

  // "<what> i %a (..) does not match <other> i %b (..)<suffix>" for the first
  // position where `a` and `b` differ (both lists have equal length here).
  absl::Status MatchPositions(OpId o, const std::vector<ValueId>& a, const std::string& what,
                              const std::vector<ValueId>& b, const std::string& other,
                              const std::string& suffix, std::size_t a_offset = 0) const {
    for (std::size_t i = 0; i < b.size(); ++i) {
      const ValueId x = a[i + a_offset];
      if (SameStorage(x, b[i])) continue;
      const std::string pos = std::to_string(i + 1);
      return OpFail(o, what + " " + pos + " " + Describe(x) + " does not match " + other + " " + pos + " " +
                           Describe(b[i]) + suffix);
    }
    return absl::OkStatus();
  }

  // The host's resource ops (IREE's stream.resource.alloc and
  // stream.tensor.import/export): `alloc()` allocates fresh, uninitialised
  // storage outside any region; `import(%x)` / `export(%r)` hand a buffer to
  // a device or back, {affinity = "..."}, moving no data: the result is a
  // view of the operand at offset 0 with its size.
  absl::Status CheckHostResourceOp(OpId o) const {
    const Op& op = p_.ops[o];
    const bool alloc = op.opcode == "alloc";
    if (!alloc && op.opcode != "import" && op.opcode != "export") return absl::OkStatus();
    if (p_.computations[op.computation].kind == ComputationKind::kRegion) {
      return OpFail(o, op.opcode + " is a host op; inside a region " +
                           (alloc ? std::string("use alloca") : "capture the buffer as a parameter"));
    }
    if (alloc) {
      if (!op.operands.empty() || op.results.size() != 1 ||
          p_.values[op.results[0]].alias != AliasKind::kNone || p_.values[op.results[0]].is_timepoint) {
        return OpFail(o, "alloc takes no operands and has one fresh result (not tied, not a view)");
      }
      return absl::OkStatus();
    }
    if (op.operands.size() != 1 || op.results.size() != 1) {
      return OpFail(o, op.opcode + " takes one buffer and has one result");
    }
    const Value& result = p_.values[op.results[0]];
    if (result.alias != AliasKind::kView || result.alias_of != op.operands[0] || result.view_offset != 0 ||
        !(SizeExprOf(result) == SizeExprOf(p_.values[op.operands[0]]))) {
      return OpFail(o, op.opcode + " moves no data: its result must be view(" + Name(op.operands[0]) +
                           ", 0) with the operand's size");
    }
    if (!op.affinity) return OpFail(o, op.opcode + " needs the device it " +
                                           (op.opcode == "import" ? "hands the buffer to" : "takes the buffer from") +
                                           ": {affinity = \"...\"}");
    return absl::OkStatus();
  }

  // Arity and sizes of while/conditional/call/execute against their callees.
  absl::Status CheckSignature(OpId o) const {
    const Op& op = p_.ops[o];
    const auto& comps = p_.computations;
    switch (op.kind) {
      case OpKind::kWhile: {
        const std::size_t n = op.operands.size();
        const Computation& cond = comps[op.callees[0]];
        const Computation& body = comps[op.callees[1]];
        const std::string of_cond = " of cond " + CompName(op.callees[0]);
        const std::string of_body = " of body " + CompName(op.callees[1]);
        if (op.results.size() != n) {
          return OpFail(o, "while has " + CountOf(n, "operand") + " but " + CountOf(op.results.size(), "result") +
                               "; loop-carried values correspond position-wise");
        }
        if (cond.params.size() != n) {
          return OpFail(o, "while cond " + CompName(op.callees[0]) + " takes " + CountOf(cond.params.size(), "parameter") +
                               " but the while has " + CountOf(n, "operand"));
        }
        if (cond.results.size() != 1) {
          return OpFail(o, "while cond " + CompName(op.callees[0]) + " must return 1 value (the predicate), returns " +
                               std::to_string(cond.results.size()));
        }
        if (std::optional<std::string> problem = SelectorProblem(cond.results[0])) {
          return OpFail(o, "while cond " + CompName(op.callees[0]) + " returns " + Name(cond.results[0]) +
                               ", which " + *problem);
        }
        if (body.params.size() != n) {
          return OpFail(o, "while body " + CompName(op.callees[1]) + " takes " + CountOf(body.params.size(), "parameter") +
                               " but the while has " + CountOf(n, "operand"));
        }
        if (body.results.size() != n) {
          return OpFail(o, "while body " + CompName(op.callees[1]) + " returns " + CountOf(body.results.size(), "value") +
                               " but the while has " + CountOf(n, "operand"));
        }
        for (auto [list, other, suffix] : {std::tuple{&op.results, "result", std::string()},
                                           std::tuple{&cond.params, "parameter", of_cond},
                                           std::tuple{&body.params, "parameter", of_body},
                                           std::tuple{&body.results, "result", of_body}}) {
          if (absl::Status s = MatchPositions(o, op.operands, "while operand", *list, other, suffix); !s.ok()) {
            return s;
          }
        }
        return absl::OkStatus();
      }
      case OpKind::kConditional: {
        if (op.operands.empty()) return OpFail(o, "conditional needs a predicate operand");
        if (std::optional<std::string> problem = SelectorProblem(op.operands[0])) {
          return OpFail(o, "the conditional's predicate " + Name(op.operands[0]) + " " + *problem);
        }
        const std::size_t args = op.operands.size() - 1;
        for (std::size_t j = 0; j < op.callees.size(); ++j) {
          const Computation& branch = comps[op.callees[j]];
          const std::string label = "branch " + std::to_string(j + 1) + " " + CompName(op.callees[j]);
          if (branch.params.size() != args) {
            return OpFail(o, "conditional " + label + " takes " + CountOf(branch.params.size(), "parameter") +
                                 " but the conditional passes " + CountOf(args, "argument") +
                                 " (operands after the predicate)");
          }
          if (branch.results.size() != op.results.size()) {
            return OpFail(o, "conditional " + label + " returns " + CountOf(branch.results.size(), "value") +
                                 " but the conditional has " + CountOf(op.results.size(), "result"));
          }
          if (absl::Status s = MatchPositions(o, op.operands, "conditional argument", branch.params, "parameter",
                                              " of " + label, 1);
              !s.ok()) {
            return s;
          }
          if (absl::Status s = MatchPositions(o, op.results, "conditional result", branch.results, "result",
                                              " of " + label);
              !s.ok()) {
            return s;
          }
        }
        return absl::OkStatus();
      }
      case OpKind::kCall:
      case OpKind::kExecute: {
        const Computation& callee = comps[op.callees[0]];
        const std::string name = CompName(op.callees[0]);
        if (callee.params.size() != op.operands.size()) {
          return OpFail(o, op.opcode + " " + name + " takes " + CountOf(callee.params.size(), "parameter") +
                               " but is given " + CountOf(op.operands.size(), "operand"));
        }
        // An execute's results past the region's are completion timepoints,
        // signalled when the region completes (a region need not take a
        // timepoint to give one).
        std::size_t matched = op.results.size();
        if (op.kind == OpKind::kExecute && matched > callee.results.size()) {
          const bool completions = std::all_of(op.results.begin() + callee.results.size(), op.results.end(),
                                               [&](ValueId r) { return p_.values[r].is_timepoint; });
          if (completions) matched = callee.results.size();
        }
        if (callee.results.size() != matched) {
          return OpFail(o, op.opcode + " " + name + " returns " + CountOf(callee.results.size(), "value") + " but the " +
                               op.opcode + " has " + CountOf(op.results.size(), "result") +
                               (op.kind == OpKind::kExecute ? " (results past the region's must be timepoints)" : ""));
        }
        if (absl::Status s = MatchPositions(o, op.operands, op.opcode + " operand", callee.params, "parameter",
                                            " of " + name);
            !s.ok()) {
          return s;
        }
        const std::vector<ValueId> results(op.results.begin(), op.results.begin() + matched);
        return MatchPositions(o, results, op.opcode + " result", callee.results, "result", " of " + name);
      }
      default:
        return absl::OkStatus();
    }
  }

  // X-done: operands are results of one X-start, result i matches operand i,
  // and each X-start is completed once.
  absl::Status CheckAsyncDone(OpId o) {
    const Op& op = p_.ops[o];
    const std::string prefix(AsyncPartnerPrefix(op.opcode).value_or(""));
    const std::string start_opcode = prefix + "-start";
    if (op.operands.empty()) return OpFail(o, op.opcode + " needs the results of a " + start_opcode + " as operands");
    OpId start = kNoId;
    for (std::size_t i = 0; i < op.operands.size(); ++i) {
      const ValueId v = op.operands[i];
      const OpId producer = p_.values[v].defining_op;
      const std::string which = op.opcode + " operand " + std::to_string(i + 1) + " " + Name(v);
      if (producer == kNoId || p_.ops[producer].opcode != start_opcode) {
        return OpFail(o, which + " is not a result of a " + start_opcode);
      }
      if (start != kNoId && producer != start) {
        return OpFail(o, which + " comes from a different " + start_opcode + " than operand 1");
      }
      start = producer;
    }
    if (op.results.size() > op.operands.size()) {
      return OpFail(o, op.opcode + " has " + CountOf(op.results.size(), "result") + " but " +
                           CountOf(op.operands.size(), "operand") + " (result i shares storage with operand i)");
    }
    for (std::size_t i = 0; i < op.results.size(); ++i) {
      if (SameStorage(op.results[i], op.operands[i])) continue;
      const std::string pos = std::to_string(i + 1);
      return OpFail(o, op.opcode + " result " + pos + " " + Describe(op.results[i]) + " does not match operand " +
                           pos + " " + Describe(op.operands[i]));
    }
    if (const OpId first = done_of_start_[start]; first != kNoId) {
      const std::string where = p_.ops[first].loc.line > 0 ? "at " + LineColumn(p_.ops[first].loc) : OpLabel(first);
      return OpFail(o, start_opcode + " " + OpLabel(start) + " is already completed by the " + op.opcode + " " + where);
    }
    done_of_start_[start] = o;
    return absl::OkStatus();
  }

  // --- Call graph -------------------------------------------------------------
  // Every computation but the entry and the initializers has exactly one call
  // site, and calls form trees under those roots (no recursion).
  absl::Status CheckCallGraph() const {
    std::vector<OpId> call_site(p_.computations.size(), kNoId);
    for (const Computation& comp : p_.computations) {
      for (OpId o : comp.ops) {
        for (ComputationId callee : p_.ops[o].callees) {
          if (callee == p_.entry) {
            return OpFail(o, "the entry computation " + CompName(callee) + " cannot be called");
          }
          if (p_.computations[callee].initializer) {
            return OpFail(o, "initializer " + CompName(callee) + " cannot be called; it runs once, before the entry");
          }
          if (const OpId first = call_site[callee]; first != kNoId) {
            const std::string where = p_.ops[first].loc.line > 0 ? "at " + LineColumn(p_.ops[first].loc) : "by " + OpLabel(first);
            return OpFail(o, "computation " + CompName(callee) + " is called a second time (first " + where +
                                 "); every computation except the entry and the initializers has exactly one "
                                 "call site");
          }
          call_site[callee] = o;
        }
      }
    }
    for (ComputationId c = 0; c < NumComputations(); ++c) {
      if (c != p_.entry && !p_.computations[c].initializer && call_site[c] == kNoId) {
        return Fail(p_.computations[c].loc, "computation " + CompName(c) +
                                                " is never called; every computation except the entry and the "
                                                "initializers is called from exactly one op");
      }
    }
    std::vector<char> reached(p_.computations.size(), 0);
    std::vector<ComputationId> stack;
    for (ComputationId c = 0; c < NumComputations(); ++c) {
      if (c == p_.entry || p_.computations[c].initializer) {
        reached[c] = 1;
        stack.push_back(c);
      }
    }
    while (!stack.empty()) {
      const ComputationId c = stack.back();
      stack.pop_back();
      for (OpId o : p_.computations[c].ops) {
        for (ComputationId callee : p_.ops[o].callees) {
          if (!reached[callee]) {
            reached[callee] = 1;
            stack.push_back(callee);
          }
        }
      }
    }
    for (ComputationId c = 0; c < NumComputations(); ++c) {
      if (!reached[c]) return RecursionError(c, call_site);
    }
    return CheckNestingDepth(call_site);
  }

  // Calls form trees (checked above), so a computation's depth is its
  // caller's plus one; computations are defined in any order, so the depths
  // are found walking callers, each computation's once.
  absl::Status CheckNestingDepth(const std::vector<OpId>& call_site) const {
    std::vector<int> depth(p_.computations.size(), -1);
    std::vector<ComputationId> chain;
    for (ComputationId c = 0; c < NumComputations(); ++c) {
      ComputationId x = c;
      while (depth[x] < 0 && call_site[x] != kNoId) {
        chain.push_back(x);
        x = p_.ops[call_site[x]].computation;
      }
      if (depth[x] < 0) depth[x] = 0;  // a root: the entry or an initializer
      for (int d = depth[x] + 1; !chain.empty(); ++d) {  // the nearest to the root is last
        depth[chain.back()] = d;
        chain.pop_back();
      }
    }
    for (ComputationId c = 0; c < NumComputations(); ++c) {
      if (depth[c] > kMaxNestingDepth) {
        return OpFail(call_site[c], "computation " + CompName(c) + " is nested " + std::to_string(depth[c]) +
                                        " calls deep (each call, while, conditional or execute adds one); "
                                        "the limit is " + std::to_string(kMaxNestingDepth));
      }
    }
    return absl::OkStatus();
  }

  // `start` is unreachable from the entry although every computation has one
  // caller: following callers from it must run into a cycle.
  absl::Status RecursionError(ComputationId start, const std::vector<OpId>& call_site) const {
    const auto caller = [&](ComputationId c) { return p_.ops[call_site[c]].computation; };
    std::vector<char> seen(p_.computations.size(), 0);
    ComputationId x = start;
    while (!seen[x]) {
      seen[x] = 1;
      x = caller(x);
    }
    // x is on the cycle; callers from x walk it backwards.
    std::vector<ComputationId> backwards = {x};
    for (ComputationId y = caller(x); y != x; y = caller(y)) backwards.push_back(y);
    std::string path = CompName(x);
    for (auto it = backwards.rbegin(); it != backwards.rend(); ++it) path += " -> " + CompName(*it);
    return OpFail(call_site[x], "recursive call: " + path +
                                    "; computations may not call themselves, directly or indirectly");
  }

  const Program& p_;
  std::string_view path_;
  std::vector<std::string> names_;        // dim names, for messages
  DimBox box_;                            // the range of the dims, for proofs
  std::vector<ComputationId> available_;  // computation of each value defined so far
  std::vector<OpId> done_of_start_;       // the X-done completing each X-start
  std::vector<ValueId> overwritten_by_;   // the tied result written over each value
  std::unordered_map<ValueId, ValueId> gathered_by_;  // gathered operand -> the result gathering it
};

}  // namespace

absl::Status ValidateProgram(const Program& program, std::string_view path) {
  return Validator(program, path).Run();
}

std::optional<std::string> OperandRangeProblem(const Program& program, ValueId operand, const OperandRange& range) {
  const std::vector<std::string> names = DimNames(program);
  const Value& value = program.values[operand];
  const std::string text = "range [" + range.offset.ToString(names) + " for " + range.length.ToString(names) + "]";
  if (value.is_timepoint) return text + " of timepoint " + SigilName('%', value.name) + ": a timepoint has no bytes";
  const SizeExpr size = SizeOf(value);
  if ((range.offset + range.length).ProvablyLessEqual(size, DimRanges(program))) return std::nullopt;
  return text + " of " + SigilName('%', value.name) + " exceeds its " + BytesText(size, names);
}

}  // namespace memplan
