#include "io/onnx/alias.h"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <optional>
#include <string_view>
#include <vector>

#include "io/onnx/alias_profile.h"
#include "io/onnx/slice_view.h"

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
// A graph output some node produces (not a returned graph input or
// initializer): the caller's buffer, which its producer may write directly.
bool IsProducedOutput(const Value& v) {
  return v.lifetime == Lifetime::kExternal && v.defining_op != kNoId;
}

// Union-find over values; each root carries the last use of its whole set,
// its first definition, its extent — the bytes the set spans, which lie at
// offset 0 of the value that created the set (a Concat's result, a Split's
// or Slice's input, or the first value) — and whether a Slice view is in it
// (then two members may overlap partly).
// Join(member, into) is only called when `member`'s whole set lies inside
// `into`'s bytes, so the merged set keeps `into`'s extent.
class AliasSets {
 public:
  AliasSets(std::vector<std::int64_t> last_use, std::vector<std::int64_t> first_def,
            const Program& program)
      : parent_(last_use.size()),
        last_use_(std::move(last_use)),
        first_def_(std::move(first_def)),
        extent_(last_use_.size()),
        has_slice_view_(last_use_.size(), false),
        has_output_(last_use_.size(), false) {
    std::iota(parent_.begin(), parent_.end(), 0);
    for (std::size_t v = 0; v < extent_.size(); ++v) {
      extent_[v] = program.values[v].size;
      has_output_[v] = IsProducedOutput(program.values[v]);
    }
  }
  ValueId Find(ValueId v) {
    while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
    return v;
  }
  std::int64_t LastUse(ValueId v) { return last_use_[Find(v)]; }
  Bytes Extent(ValueId v) { return extent_[Find(v)]; }
  bool HasSliceView(ValueId v) { return has_slice_view_[Find(v)]; }
  void MarkSliceView(ValueId v) { has_slice_view_[Find(v)] = true; }
  // Whether a graph output is in the set: then the whole set lives in the
  // caller's buffer, outside the transient pool.
  bool HasOutput(ValueId v) { return has_output_[Find(v)]; }
  // Where the set of `v` counts in the live profile: its extent from its
  // first definition to its last use (the definition when never read).
  AliasInterval Interval(ValueId v) {
    const ValueId r = Find(v);
    return AliasInterval{first_def_[r], std::max(last_use_[r], first_def_[r]), extent_[r]};
  }
  void Join(ValueId member, ValueId into) {
    const ValueId a = Find(member);
    const ValueId b = Find(into);
    if (a == b) return;
    parent_[a] = b;
    last_use_[b] = std::max(last_use_[a], last_use_[b]);
    first_def_[b] = std::min(first_def_[a], first_def_[b]);
    has_slice_view_[b] = has_slice_view_[a] || has_slice_view_[b];
    has_output_[b] = has_output_[a] || has_output_[b];
  }

 private:
  std::vector<ValueId> parent_;
  std::vector<std::int64_t> last_use_;
  std::vector<std::int64_t> first_def_;
  std::vector<Bytes> extent_;
  std::vector<bool> has_slice_view_;
  std::vector<bool> has_output_;
};

// Per value, the last schedule position at which it or a value that may come
// to share its bytes through this pass (a view, a tie, a Split piece or a
// Slice window of it, and recursively) is read: an upper bound on how long a
// view of the value could keep its alias set alive. Returned values count as
// read forever. One backward pass: O(ops + operands).
std::vector<std::int64_t> ReachOfValues(const Program& program, const Computation& entry,
                                        const std::vector<std::int64_t>& last_use) {
  std::vector<std::int64_t> reach = last_use;
  for (std::size_t pos = entry.ops.size(); pos-- > 0;) {
    const Op& op = program.ops[entry.ops[pos]];
    const std::string_view type = OnnxOpType(op.opcode);
    if (type.empty() || op.operands.empty() || op.results.empty()) continue;
    const auto extend = [&](ValueId operand, ValueId result) {
      if (IsTransient(program.values[result])) {
        reach[operand] = std::max(reach[operand], reach[result]);
      }
    };
    if (std::binary_search(kViewOps.begin(), kViewOps.end(), type) || type == "Slice") {
      extend(op.operands[0], op.results[0]);
    } else if (type == "Split") {
      for (ValueId r : op.results) extend(op.operands[0], r);
    } else if (std::binary_search(kInPlaceOps.begin(), kInPlaceOps.end(), type)) {
      for (ValueId operand : op.operands) {
        if (program.values[operand].size == program.values[op.results[0]].size) {
          extend(operand, op.results[0]);
        }
      }
    }
  }
  return reach;
}

// Whether an operand of `op` other than `operand` shares `operand`'s alias
// set that holds a Slice view: writing the result in place into `operand`
// could then overwrite bytes the op still reads (y = x[0:1] read by Mul(x, y)).
bool ReadsOverlappingMember(AliasSets& sets, const Op& op, ValueId operand) {
  if (!sets.HasSliceView(operand)) return false;
  for (ValueId other : op.operands) {
    if (other != operand && sets.Find(other) == sets.Find(operand)) return true;
  }
  return false;
}

// Whether `out`, a graph output, may hold `operand`'s whole alias set: the
// set is made by this run and spans exactly the output's bytes, so its
// producers write straight into the caller's buffer.
bool WritesOutput(AliasSets& sets, const Value& out, ValueId operand) {
  return IsProducedOutput(out) && !sets.HasOutput(operand) && sets.Extent(operand) == out.size;
}

// The axis along which `part` is a piece of `whole` (every other dim equal),
// if exactly one dim differs; nullopt otherwise.
std::optional<std::size_t> PieceAxis(const TensorType& part, const TensorType& whole) {
  if (part.dims.size() != whole.dims.size() || part.dtype != whole.dtype) return std::nullopt;
  std::optional<std::size_t> axis;
  for (std::size_t d = 0; d < whole.dims.size(); ++d) {
    if (part.dims[d] == whole.dims[d]) continue;
    if (axis) return std::nullopt;
    axis = d;
  }
  return axis;
}

// True if the pieces `parts` of `whole` (in order) are consecutive byte
// ranges of it: they split it along one axis before which every dim is 1
// (an outer axis), and their sizes add up to it.
bool OuterAxisPieces(const Program& program, const std::vector<ValueId>& parts, ValueId whole) {
  const Value& w = program.values[whole];
  if (!w.type || parts.size() < 2) return false;
  std::optional<std::size_t> axis;
  Bytes total = 0;
  for (ValueId p : parts) {
    const Value& part = program.values[p];
    if (!part.type) return false;
    std::optional<std::size_t> a = PieceAxis(*part.type, *w.type);
    if (!a || (axis && *a != *axis)) return false;
    axis = a;
    total += part.size;
  }
  for (std::size_t d = 0; d < *axis; ++d) {
    if (w.type->dims[d] != 1) return false;
  }
  return total == w.size;
}

// The alias sets chosen so far and their live profile: Merge joins sets
// only where the profile's peak does not rise.
class AliasChoice {
 public:
  AliasChoice(const Program& program, AliasSets& sets, std::int64_t positions,
              const std::vector<std::int64_t>& first_def)
      : program_(program), sets_(sets), profile_(positions) {
    for (std::size_t v = 0; v < first_def.size(); ++v) {
      const auto id = static_cast<ValueId>(v);
      if (Counted(id)) profile_.Add(sets_.Interval(id));
    }
  }

  // Joins every member's set into `into`'s when the merged set does not
  // raise the peak live bytes; returns whether it did.
  bool Merge(const std::vector<ValueId>& members, ValueId into) {
    std::vector<ValueId> roots = {sets_.Find(into)};
    for (ValueId m : members) roots.push_back(sets_.Find(m));
    std::sort(roots.begin() + 1, roots.end());
    roots.erase(std::unique(roots.begin() + 1, roots.end()), roots.end());
    // One caller's buffer per set: two graph outputs never share bytes.
    const auto outputs = std::count_if(roots.begin(), roots.end(),
                                       [&](ValueId r) { return sets_.HasOutput(r); });
    if (outputs > 1) return false;
    std::vector<AliasInterval> before;
    AliasInterval after = sets_.Interval(into);
    for (ValueId r : roots) {
      const AliasInterval i = sets_.Interval(r);
      after.first = std::min(after.first, i.first);
      after.last = std::max(after.last, i.last);
      if (Counted(r)) before.push_back(i);
    }
    // Constants and sets written into a graph output are not in the profile.
    if (!Counted(into) || outputs == 1) after.bytes = 0;
    if (!profile_.MergeUnlessPeakRises(before, after)) return false;
    for (ValueId m : members) sets_.Join(m, into);
    return true;
  }

 private:
  bool Counted(ValueId v) {
    const Value& value = program_.values[sets_.Find(v)];
    return IsTransient(value) && !sets_.HasOutput(v) && sets_.Interval(v).first >= 0;
  }

  const Program& program_;
  AliasSets& sets_;
  AliasStepProfile profile_;
};

}  // namespace

void AssignOnnxAliases(Program& program) {
  if (program.entry == kNoId) return;
  const Computation& entry = program.computations[program.entry];
  // Last schedule position reading each value (returned values live
  // forever) and the position defining it (-1 outside the schedule).
  std::vector<std::int64_t> last_use(program.values.size(), -1);
  std::vector<std::int64_t> first_def(program.values.size(), -1);
  for (size_t pos = 0; pos < entry.ops.size(); ++pos) {
    const Op& op = program.ops[entry.ops[pos]];
    for (ValueId v : op.operands) last_use[v] = static_cast<std::int64_t>(pos);
    for (ValueId v : op.results) first_def[v] = static_cast<std::int64_t>(pos);
  }
  for (ValueId v : entry.results) last_use[v] = std::numeric_limits<std::int64_t>::max();
  const std::vector<std::int64_t> reach = ReachOfValues(program, entry, last_use);
  AliasSets sets(std::move(last_use), first_def, program);
  AliasChoice choice(program, sets, static_cast<std::int64_t>(entry.ops.size()), first_def);

  for (size_t pos = 0; pos < entry.ops.size(); ++pos) {
    Op& op = program.ops[entry.ops[pos]];
    const std::string_view type = OnnxOpType(op.opcode);
    if (type.empty() || op.results.empty() || op.operands.empty()) continue;
    const auto here = static_cast<std::int64_t>(pos);
    const ValueId result = op.results[0];
    Value& out = program.values[result];
    if (std::binary_search(kViewOps.begin(), kViewOps.end(), type)) {
      const ValueId data = op.operands[0];
      const Value& in = program.values[data];
      const bool same_class = (IsTransient(in) && IsTransient(out)) ||
                              (IsConstant(in) && IsConstant(out)) ||
                              (IsTransient(in) && WritesOutput(sets, out, data));
      if (!same_class || in.size != out.size || !choice.Merge({result}, data)) {
        continue;
      }
      out.alias = AliasKind::kView;
      out.alias_of = data;
      out.view_offset = 0;
      op.cost.bytes_accessed = 0;
    } else if (type == "Concat") {
      if (!(IsTransient(out) || IsProducedOutput(out)) ||
          !OuterAxisPieces(program, op.operands, result)) {
        continue;
      }
      std::vector<ValueId> roots;
      bool eligible = true;
      for (ValueId operand : op.operands) {
        const Value& in = program.values[operand];
        // Dead after the concat, produced in this run, inside no larger set.
        eligible = eligible && IsTransient(in) && in.defining_op != kNoId &&
                   sets.LastUse(operand) == here && sets.Extent(operand) == in.size;
        roots.push_back(sets.Find(operand));
      }
      std::sort(roots.begin(), roots.end());
      if (!eligible || std::adjacent_find(roots.begin(), roots.end()) != roots.end() ||
          !choice.Merge(op.operands, result)) {
        continue;
      }
      Bytes offset = 0;
      for (ValueId operand : op.operands) {
        out.gathers.push_back(GatheredOperand{operand, offset});
        offset += program.values[operand].size;
      }
      op.cost.bytes_accessed = 0;
    } else if (type == "Split") {
      const ValueId data = op.operands[0];
      const Value& in = program.values[data];
      bool eligible = IsTransient(in) && sets.LastUse(data) == here;
      for (ValueId r : op.results) eligible = eligible && IsTransient(program.values[r]);
      if (!eligible || !OuterAxisPieces(program, op.results, data) ||
          !choice.Merge(op.results, data)) {
        continue;
      }
      Bytes offset = 0;
      for (ValueId r : op.results) {
        Value& piece = program.values[r];
        piece.alias = AliasKind::kView;
        piece.alias_of = data;
        piece.view_offset = offset;
        offset += piece.size;
      }
      op.cost.bytes_accessed = 0;
    } else if (type == "Slice") {
      const ValueId data = op.operands[0];
      const Value& in = program.values[data];
      if (!IsTransient(in) || !IsTransient(out) || out.size == 0) continue;
      const std::optional<Bytes> offset = ContiguousSliceOffset(op, in, out);
      // It pays when no step holds more bytes than with the copy: the
      // input's set outlives every reader of the window, or the window is
      // the set's every byte.
      if (!offset || (sets.LastUse(data) < reach[result] && sets.Extent(data) != out.size)) {
        continue;
      }
      if (!choice.Merge({result}, data)) continue;
      out.alias = AliasKind::kView;
      out.alias_of = data;
      out.view_offset = *offset;
      op.cost.bytes_accessed = 0;
      if (out.size != sets.Extent(data)) sets.MarkSliceView(data);
    } else if (std::binary_search(kInPlaceOps.begin(), kInPlaceOps.end(), type) &&
               (IsTransient(out) || IsProducedOutput(out))) {
      for (ValueId operand : op.operands) {
        const Value& in = program.values[operand];
        if (!IsTransient(in) || in.size != out.size || sets.LastUse(operand) != here ||
            (IsProducedOutput(out) && !WritesOutput(sets, out, operand)) ||
            ReadsOverlappingMember(sets, op, operand) || !choice.Merge({result}, operand)) {
          continue;
        }
        out.alias = AliasKind::kTied;
        out.alias_of = operand;
        break;
      }
    }
  }
}

}  // namespace memplan
