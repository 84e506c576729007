#include "io/hlo/importer.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "io/hlo/attr_text.h"
#include "io/hlo/checker.h"
#include "io/hlo/cost.h"
#include "io/hlo/parser.h"
#include "io/hlo/shape.h"
#include "io/hlo/space_copy.h"
#include "ir/diagnostic.h"
#include "ir/dtype.h"
#include "ir/program_builder.h"
#include "ir/validate.h"

namespace memplan {
namespace {

constexpr std::size_t kMaxOps = 1000000;

// One `{out}: (param, {in})` entry of input_output_alias or
// output_to_operand_aliasing.
struct AliasEntry {
  std::vector<std::int64_t> output;
  std::int64_t operand = 0;
  std::vector<std::int64_t> operand_index;
};

// Parses "{ {0}: (0, {}, may-alias), {1}: (1, {}) }"; nullopt when malformed.
std::optional<std::vector<AliasEntry>> ParseAliasEntries(std::string_view text) {
  std::vector<AliasEntry> out;
  std::size_t i = 0;
  const auto skip = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  const auto index = [&](std::vector<std::int64_t>& into) {
    skip();
    if (i >= text.size() || text[i] != '{') return false;
    const std::size_t end = text.find('}', i);
    if (end == std::string_view::npos) return false;
    std::string_view body = text.substr(i + 1, end - i - 1);
    i = end + 1;
    std::size_t p = 0;
    while (p < body.size()) {
      const std::size_t comma = std::min(body.find(',', p), body.size());
      std::string_view part = body.substr(p, comma - p);
      while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
      while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
      if (!part.empty()) {
        const std::optional<std::int64_t> v = ParseInt(part);
        if (!v) return false;
        into.push_back(*v);
      }
      p = comma + 1;
    }
    return true;
  };
  skip();
  if (i >= text.size() || text[i] != '{') return std::nullopt;
  ++i;
  while (true) {
    skip();
    if (i < text.size() && text[i] == '}') return out;
    AliasEntry e;
    if (!index(e.output)) return std::nullopt;
    skip();
    if (i >= text.size() || text[i] != ':') return std::nullopt;
    ++i;
    skip();
    if (i >= text.size() || text[i] != '(') return std::nullopt;
    ++i;
    skip();
    const std::size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    const std::optional<std::int64_t> operand = ParseInt(text.substr(start, i - start));
    if (!operand) return std::nullopt;
    e.operand = *operand;
    skip();
    if (i >= text.size() || text[i] != ',') return std::nullopt;
    ++i;
    if (!index(e.operand_index)) return std::nullopt;
    const std::size_t close = text.find(')', i);
    if (close == std::string_view::npos) return std::nullopt;
    i = close + 1;
    out.push_back(std::move(e));
    skip();
    if (i < text.size() && text[i] == ',') ++i;
  }
}

// "known_trip_count":{"n":"10"} in a while's backend_config: the count
// (nullopt without one); `error` is set to the malformed value's text when
// the count is not a whole number from 0 to 2^63-1.
std::optional<std::int64_t> KnownTripCount(const HloInstruction& instr, std::optional<std::string>& error) {
  const HloAttribute* a = instr.Find("backend_config");
  if (a == nullptr) return std::nullopt;
  const std::string_view v = a->value;
  const std::size_t at = v.find("known_trip_count");
  if (at == std::string::npos) return std::nullopt;
  std::size_t i = v.find("\"n\"", at);
  if (i == std::string::npos) return std::nullopt;
  i += 3;
  auto skip = [&] {
    while (i < v.size() && std::isspace(static_cast<unsigned char>(v[i]))) ++i;
  };
  skip();
  if (i < v.size() && v[i] == ':') ++i;
  skip();
  std::size_t end = i;
  if (i < v.size() && v[i] == '"') {
    end = v.find('"', i + 1);
    end = end == std::string_view::npos ? v.size() : end + 1;
  } else {
    while (end < v.size() && v[end] != ',' && v[end] != '}' && !std::isspace(static_cast<unsigned char>(v[end]))) ++end;
  }
  const std::string_view raw = v.substr(i, end - i);
  std::string_view digits = raw;
  if (digits.size() >= 2 && digits.front() == '"' && digits.back() == '"') digits = digits.substr(1, digits.size() - 2);
  const bool all_digits = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  const std::optional<std::int64_t> n = all_digits ? ParseInt(digits) : std::nullopt;
  if (!n) error = std::string(raw);
  return n;
}

bool IsAsyncStart(const std::string& op) {
  return op == "copy-start" || op == "async-start" || op == "all-gather-start" ||
         op == "all-reduce-start" || op == "collective-permute-start";
}
bool IsAsyncDone(const std::string& op) {
  return op == "copy-done" || op == "async-done" || op == "all-gather-done" ||
         op == "all-reduce-done" || op == "collective-permute-done";
}

// How a called computation's root leaves must relate to its parameters.
enum class RootRule {
  kEntry,     // anything goes
  kCarried,   // while body: fresh, or the parameter leaf at the same position
  kReturned,  // branch / call: fresh (not a parameter or constant)
};

// Where a parameter slot of an imported computation comes from.
struct ParamSlot {
  const HloShape* shape = nullptr;
  std::int64_t hlo_param = -1;  // -1: an unused parameter (other branches' operands)
  std::string unused_name;
};

class Importer {
 public:
  Importer(const HloModule& m, const std::string& path)
      : m_(m), path_(path), b_(m.name), instances_(m.computations.size(), 0),
        on_stack_(m.computations.size(), false), fused_cost_(m.computations.size()) {}

  absl::StatusOr<Program> Run() {
    const HloComputation& entry = m_.computations[m_.entry];
    if (absl::Status s = Donated(entry); !s.ok()) return s;
    absl::StatusOr<ComputationId> id = Import(m_.entry, "", Slots(entry), RootRule::kEntry, entry.loc);
    if (!id.ok()) return id.status();
    b_.SetEntry(*id);
    if (absl::Status s = InputOutputAlias(*id); !s.ok()) return s;
    Program program = std::move(b_).Finish();
    program.source = path_;
    if (absl::Status s = ValidateProgram(program, path_); !s.ok()) return s;
    return program;
  }

 private:
  struct Leaves {
    std::vector<ValueId> ids;
    const HloShape* shape = nullptr;
    std::string opcode;     // of the HLO instruction (async-update: of its start)
  };
  // Per computation instance: HLO name -> leaves; per (instruction, leaf)
  // the HLO-level storage root through tuple / get-tuple-element / bitcast.
  struct Scope {
    const HloComputation* hc = nullptr;
    ComputationId id = kNoId;
    std::map<std::string, Leaves> env;
    std::map<std::string, std::size_t> index;
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> base;  // [instr][leaf]
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> last_read;
    bool is_loop_body = false;
    // Memory-space copy-starts folded into their source (io/hlo/space_copy.h).
    std::map<std::string, std::size_t> folded;
    // "" for a computation's first import; else the call sites leading to
    // this copy ("c2/s1"), which qualify the names of its values.
    std::string path;
  };

  // The qualifier a computation called by `in` gets when it is imported again.
  static std::string Site(const Scope& s, const HloInstruction& in) {
    return s.path.empty() ? in.name : s.path + "/" + in.name;
  }

  absl::Status Fail(SourceLocation loc, const std::string& message) const {
    return LocatedError(path_, loc, message);
  }

  std::vector<ParamSlot> Slots(const HloComputation& hc) const {
    std::vector<ParamSlot> slots;
    for (const HloInstruction& i : hc.instructions) {
      if (!i.parameter_number) continue;
      const auto n = static_cast<std::size_t>(*i.parameter_number);
      if (slots.size() <= n) slots.resize(n + 1);
      slots[n].shape = &i.shape;
      slots[n].hlo_param = *i.parameter_number;
    }
    return slots;
  }

  std::string UniqueName(const std::string& base, const std::string& qualifier) {
    std::string name = base;
    if (names_.contains(name)) name = qualifier + "/" + base;
    for (int k = 2; names_.contains(name); ++k) name = qualifier + "/" + base + "." + std::to_string(k);
    names_.insert(name);
    return name;
  }

  static void LeafNames(const std::string& base, const HloShape& shape, std::vector<std::string>& out) {
    if (!shape.is_tuple) {
      out.push_back(base);
      return;
    }
    for (std::size_t i = 0; i < shape.elements.size(); ++i) LeafNames(base + "/" + std::to_string(i), shape.elements[i], out);
  }

  absl::StatusOr<std::pair<Bytes, std::optional<TensorType>>> LeafStorage(const HloShape& leaf, SourceLocation loc) const {
    const std::optional<Bytes> bytes = HloArrayBytes(leaf);
    if (!bytes) return Fail(loc, "shape " + leaf.ToString() + " is 2^62 bytes or more");
    std::optional<TensorType> type;
    if (DtypeBits(leaf.element_type) && HloElementBits(leaf.element_type).value_or(0) > 0) {
      type = TensorType{leaf.element_type, leaf.dims};
    }
    return std::make_pair(*bytes, std::move(type));
  }

  // Fresh results of `op` for every leaf of `shape`, named after `name`.
  absl::StatusOr<std::vector<ValueId>> Results(OpId op, const std::string& name, const HloShape& shape,
                                               SourceLocation loc, const std::string& qualifier) {
    std::vector<const HloShape*> leaves;
    HloLeaves(shape, leaves);
    std::vector<std::string> names;
    LeafNames(name, shape, names);
    std::vector<ValueId> out;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      absl::StatusOr<std::pair<Bytes, std::optional<TensorType>>> storage = LeafStorage(*leaves[i], loc);
      if (!storage.ok()) return storage.status();
      const ValueId v = b_.AddResult(op, UniqueName(names[i], qualifier), storage->first, storage->second);
      b_.value(v).loc = loc;
      out.push_back(v);
    }
    return out;
  }

  absl::StatusOr<OpId> AddOp(ComputationId comp, const std::string& opcode, std::vector<ValueId> operands,
                             SourceLocation loc) {
    if (++op_count_ > kMaxOps) {
      return Fail(loc, "the module imports to more than 10^6 ops (called computations are imported once per call site)");
    }
    const OpId op = b_.AddOp(comp, opcode, std::move(operands));
    b_.op(op).loc = loc;
    return op;
  }

  // A copy of `v` (as XLA's copy insertion adds), appended to `comp`.
  absl::StatusOr<ValueId> Copy(ComputationId comp, ValueId v, SourceLocation loc) {
    absl::StatusOr<OpId> op = AddOp(comp, "hlo.copy", {v}, loc);
    if (!op.ok()) return op.status();
    b_.op(*op).attributes.push_back(Attribute{"inserted", AttrValue{AttrValue::Kind::kString, 0, 0, "copy-insertion", {}}});
    const Value& from = b_.program().values[static_cast<std::size_t>(v)];
    const std::optional<TensorType> type = from.type;
    const Bytes size = from.size;
    const std::string name = UniqueName(from.name + ".copy", b_.program().computations[static_cast<std::size_t>(comp)].name);
    const ValueId r = b_.AddResult(*op, name, size, type);
    b_.value(r).loc = loc;
    return r;
  }

  // Storage root (instruction, leaf) of leaf `leaf` of operand `name` in `s`.
  std::pair<std::size_t, std::size_t> Base(const Scope& s, const std::string& name, std::size_t leaf) const {
    return s.base[s.index.at(name)][leaf];
  }

  void ComputeBases(Scope& s) const {
    const auto& instrs = s.hc->instructions;
    s.base.resize(instrs.size());
    for (std::size_t k = 0; k < instrs.size(); ++k) {
      const HloInstruction& in = instrs[k];
      const std::size_t n = in.shape.LeafCount();
      std::vector<std::pair<std::size_t, std::size_t>>& out = s.base[k];
      if (in.opcode == "tuple") {
        for (const HloOperand& o : in.operands) {
          const auto& b = s.base[s.index.at(o.name)];
          out.insert(out.end(), b.begin(), b.end());
        }
      } else if (s.folded.contains(in.name)) {
        // A folded copy's destination and source are its operand's storage.
        const auto& b = s.base[s.index.at(in.operands[0].name)];
        out = {b[0], b[0], {k, 2}};
      } else if (in.opcode == "copy-done" && in.operands.size() == 1 &&
                 s.folded.contains(in.operands[0].name)) {
        out = {s.base[s.index.at(in.operands[0].name)][0]};
      } else if (in.opcode == "get-tuple-element" || in.opcode == "bitcast") {
        const HloInstruction& src = instrs[s.index.at(in.operands[0].name)];
        std::size_t first = 0;
        if (in.opcode == "get-tuple-element") {
          first = LeafRangeAt(src.shape, {ParseInt(in.Find("index")->value).value_or(0)})->first;
        }
        const auto& b = s.base[s.index.at(in.operands[0].name)];
        out.assign(b.begin() + static_cast<std::ptrdiff_t>(first), b.begin() + static_cast<std::ptrdiff_t>(first + n));
      } else {
        for (std::size_t l = 0; l < n; ++l) out.emplace_back(k, l);
      }
      for (const HloOperand& o : in.operands) {
        for (const auto& b : s.base[s.index.at(o.name)]) s.last_read[b] = k;
      }
    }
    for (const auto& b : s.base[s.hc->root]) s.last_read[b] = instrs.size();
  }

  // Whether `base` is a constant, or (with `params`) a parameter leaf the
  // computation may not write: any but an entry parameter leaf donated by
  // input_output_alias.
  bool IsParamOrConstant(const Scope& s, std::pair<std::size_t, std::size_t> base, bool params) const {
    const HloInstruction& in = s.hc->instructions[base.first];
    if (in.opcode == "constant") return true;
    if (!params || in.opcode != "parameter") return false;
    return !(s.hc == &m_.computations[m_.entry] && donated_.contains({*in.parameter_number, base.second}));
  }

  // The loop-carried leaves a while body passes through unchanged (its root
  // leaf i is its parameter's leaf i): the loop never writes them.
  std::vector<bool> PassedThrough(std::size_t body) const {
    Scope s;
    s.hc = &m_.computations[body];
    for (std::size_t k = 0; k < s.hc->instructions.size(); ++k) s.index.emplace(s.hc->instructions[k].name, k);
    s.folded = FoldedSpaceCopies(*s.hc);
    ComputeBases(s);
    const auto& root = s.base[s.hc->root];
    std::vector<bool> out(root.size(), false);
    for (std::size_t i = 0; i < root.size(); ++i) {
      const HloInstruction& def = s.hc->instructions[root[i].first];
      out[i] = def.parameter_number == 0 && root[i].second == i;
    }
    return out;
  }

  // Whether leaf `leaf` of operand `name`, read by instruction `k`, may be
  // overwritten in place by it.
  bool CanWriteInPlace(const Scope& s, const std::string& name, std::size_t leaf, std::size_t k) const {
    const auto base = Base(s, name, leaf);
    if (IsParamOrConstant(s, base, !s.is_loop_body)) return false;
    const auto it = s.last_read.find(base);
    return it == s.last_read.end() || it->second <= k;
  }

  // `call_loc`: the instruction that calls computation `c` (the entry's own
  // location for the entry), where a too-deep nesting is reported.
  absl::StatusOr<ComputationId> Import(std::size_t c, const std::string& site, const std::vector<ParamSlot>& slots,
                                       RootRule rule, const SourceLocation& call_loc) {
    const HloComputation& hc = m_.computations[c];
    if (on_stack_[c]) return Fail(hc.loc, "computation %" + hc.name + " calls itself");
    // The entry is depth 0 and each while, conditional or call adds one, as
    // in the text IR (ir/validate.cc): depth 256 is accepted, 257 refused.
    if (depth_ > kMaxNestingDepth) {
      return Fail(call_loc, "computation %" + hc.name + " is nested " + std::to_string(depth_) +
                                " calls deep (each while, conditional or call adds one); the limit is " +
                                std::to_string(kMaxNestingDepth));
    }
    on_stack_[c] = true;
    ++depth_;
    const bool first = instances_[c]++ == 0;
    const std::string qualifier = first ? hc.name : site;
    std::string comp_name = first ? hc.name : site + "/" + hc.name;
    for (int k = 2; comp_names_.contains(comp_name); ++k) comp_name = site + "/" + hc.name + "." + std::to_string(k);
    comp_names_.insert(comp_name);
    Scope s;
    s.hc = &hc;
    s.path = first ? "" : site;
    s.id = b_.AddComputation(comp_name);
    b_.computation(s.id).loc = hc.loc;
    s.is_loop_body = rule == RootRule::kCarried;
    for (std::size_t k = 0; k < hc.instructions.size(); ++k) s.index.emplace(hc.instructions[k].name, k);
    s.folded = FoldedSpaceCopies(hc);
    ComputeBases(s);
    std::vector<ValueId> param_leaves;
    for (const ParamSlot& slot : slots) {
      const HloInstruction* param = nullptr;
      for (const HloInstruction& i : hc.instructions) {
        if (i.parameter_number == slot.hlo_param && slot.hlo_param >= 0) param = &i;
      }
      std::vector<const HloShape*> leaves;
      HloLeaves(*slot.shape, leaves);
      std::vector<std::string> names;
      LeafNames(param ? param->name : slot.unused_name, *slot.shape, names);
      const SourceLocation loc = param ? param->loc : hc.loc;
      Leaves out{{}, slot.shape, "parameter"};
      for (std::size_t i = 0; i < leaves.size(); ++i) {
        absl::StatusOr<std::pair<Bytes, std::optional<TensorType>>> storage = LeafStorage(*leaves[i], loc);
        if (!storage.ok()) return storage.status();
        const ValueId v = b_.AddParam(s.id, UniqueName(names[i], qualifier), storage->first, storage->second);
        b_.value(v).loc = loc;
        out.ids.push_back(v);
        param_leaves.push_back(v);
      }
      if (param) s.env[param->name] = std::move(out);
    }
    for (std::size_t k = 0; k < hc.instructions.size(); ++k) {
      if (absl::Status st = Instruction(s, k, qualifier); !st.ok()) return st;
    }
    absl::StatusOr<std::vector<ValueId>> results = RootLeaves(s, rule, param_leaves);
    if (!results.ok()) return results.status();
    b_.SetReturn(s.id, *std::move(results));
    on_stack_[c] = false;
    --depth_;
    return s.id;
  }

  // The computation's results: its ROOT's leaves, copied where `rule` needs:
  // a leaf passed twice, a constant, or a parameter (for a loop body, one
  // at another position than its own).
  absl::StatusOr<std::vector<ValueId>> RootLeaves(Scope& s, RootRule rule, const std::vector<ValueId>& params) {
    const HloInstruction& root = s.hc->instructions[s.hc->root];
    std::vector<ValueId> leaves = s.env.at(root.name).ids;
    if (rule == RootRule::kEntry) return leaves;
    std::set<ValueId> seen;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      const ValueId r = Root(leaves[i]);
      const bool is_param = std::find(params.begin(), params.end(), r) != params.end();
      const bool own_slot = rule == RootRule::kCarried && i < params.size() && r == params[i];
      const bool copy = !seen.insert(r).second || IsConstant(r) || (is_param && !own_slot);
      if (!copy) continue;
      absl::StatusOr<ValueId> c = Copy(s.id, leaves[i], root.loc);
      if (!c.ok()) return c.status();
      leaves[i] = *c;
    }
    return leaves;
  }

  bool IsConstant(ValueId v) const {
    const OpId def = b_.program().values[static_cast<std::size_t>(v)].defining_op;
    return def != kNoId && b_.program().ops[static_cast<std::size_t>(def)].kind == OpKind::kConstant;
  }

  // Follows views, ties and while results (which share their loop-carried
  // operand's storage) to the value whose storage `v` is.
  ValueId Root(ValueId v) const {
    const Program& p = b_.program();
    while (true) {
      const Value& value = p.values[static_cast<std::size_t>(v)];
      if (value.alias != AliasKind::kNone) {
        v = value.alias_of;
        continue;
      }
      if (value.defining_op == kNoId) return v;
      const Op& op = p.ops[static_cast<std::size_t>(value.defining_op)];
      if (op.kind != OpKind::kWhile) return v;
      const auto at = std::find(op.results.begin(), op.results.end(), v) - op.results.begin();
      v = op.operands[static_cast<std::size_t>(at)];
    }
  }

  std::vector<ValueId> OperandLeaves(const Scope& s, const HloInstruction& in) const {
    std::vector<ValueId> out;
    for (const HloOperand& o : in.operands) {
      const auto& ids = s.env.at(o.name).ids;
      out.insert(out.end(), ids.begin(), ids.end());
    }
    return out;
  }

  // The summed cost of fused computation `c` (memoized). Fusions nested
  // deeper than kMaxNestingDepth count as nothing rather than recurse on.
  const OpCost& FusedCost(std::size_t c, int depth = 0) {
    if (fused_cost_[c]) return *fused_cost_[c];
    fused_cost_[c] = OpCost{};  // guards against a fusion calling itself
    if (depth > kMaxNestingDepth) return *fused_cost_[c];
    OpCost total;
    const HloComputation& hc = m_.computations[c];
    std::map<std::string, const HloShape*> shapes;
    for (const HloInstruction& in : hc.instructions) {
      HloOperandShapes operands;
      for (const HloOperand& o : in.operands) operands.push_back(shapes.at(o.name));
      const OpCost* nested = nullptr;
      if (const HloCallees callees = CalleesOf(in); in.opcode == "fusion" && !callees.other.empty()) {
        nested = &FusedCost(static_cast<std::size_t>(FindHloComputation(m_, callees.other[0])), depth + 1);
      }
      const OpCost cost = HloInstructionCost(in, operands, nested);
      total.flops += cost.flops;
      total.transcendentals += cost.transcendentals;
      shapes[in.name] = &in.shape;
    }
    fused_cost_[c] = total;
    return *fused_cost_[c];
  }

  void Tie(ValueId result, ValueId operand) {
    b_.value(result).alias = AliasKind::kTied;
    b_.value(result).alias_of = operand;
  }

  void View(ValueId result, ValueId operand) {
    b_.value(result).alias = AliasKind::kView;
    b_.value(result).alias_of = operand;
  }

  absl::Status Instruction(Scope& s, std::size_t k, const std::string& qualifier) {
    const HloInstruction& in = s.hc->instructions[k];
    const std::string& op = in.opcode;
    if (op == "parameter") return absl::OkStatus();
    if (op == "while") return While(s, k, qualifier);
    if (op == "conditional") return Conditional(s, k, qualifier);
    if (op == "call") return Call(s, k, qualifier);
    if (IsAsyncDone(op)) return AsyncDone(s, k, qualifier);
    if (s.folded.contains(in.name)) {
      // Memory-space copy: no op; its copy-done reads the source's storage.
      s.env[in.name] = Leaves{s.env.at(in.operands[0].name).ids, &in.shape, op};
      return absl::OkStatus();
    }
    std::vector<ValueId> operands = OperandLeaves(s, in);
    if (op == "get-tuple-element") {
      // Reads only the selected element, so the others' live ranges do not
      // stretch to it (XLA's live ranges count a use of the element only).
      const HloLeafRange range =
          *LeafRangeAt(*s.env.at(in.operands[0].name).shape, {ParseInt(in.Find("index")->value).value_or(0)});
      operands = std::vector<ValueId>(operands.begin() + static_cast<std::ptrdiff_t>(range.first),
                                      operands.begin() + static_cast<std::ptrdiff_t>(range.first + range.count));
    }
    if (op == "async-update") {
      absl::StatusOr<OpId> id = AddOp(s.id, "hlo.async-update", operands, in.loc);
      if (!id.ok()) return id.status();
      const Leaves& start = s.env.at(in.operands[0].name);
      s.env[in.name] = Leaves{start.ids, &in.shape, start.opcode};
      return absl::OkStatus();
    }
    const std::string opcode = op == "constant" ? "constant" : IsAsyncStart(op) ? op : "hlo." + op;
    absl::StatusOr<OpId> id = AddOp(s.id, opcode, operands, in.loc);
    if (!id.ok()) return id.status();
    absl::StatusOr<std::vector<ValueId>> results = Results(*id, in.name, in.shape, in.loc, qualifier);
    if (!results.ok()) return results.status();
    HloOperandShapes shapes;
    for (const HloOperand& o : in.operands) shapes.push_back(s.env.at(o.name).shape);
    const HloCallees callees = CalleesOf(in);
    const OpCost* fused = nullptr;
    if (op == "fusion" && !callees.other.empty()) {
      fused = &FusedCost(static_cast<std::size_t>(FindHloComputation(m_, callees.other[0])));
    }
    b_.op(*id).cost = HloInstructionCost(in, shapes, fused);
    if (op == "tuple") {
      for (std::size_t i = 0; i < results->size(); ++i) View((*results)[i], operands[i]);
    } else if (op == "get-tuple-element") {
      for (std::size_t i = 0; i < results->size(); ++i) View((*results)[i], operands[i]);
    } else if (op == "bitcast") {
      View((*results)[0], operands[0]);
    } else if (IsAsyncStart(op)) {
      AsyncSourceViews(in, shapes, operands, *results);
    } else if (absl::Status st = InPlace(s, k, operands, *results); !st.ok()) {
      return st;
    }
    s.env[in.name] = Leaves{*std::move(results), &in.shape, op};
    return absl::OkStatus();
  }

  // The start's copy of its operands (copy-start's element {1}, the other
  // starts' element {0}) is the operands' storage. A generic async-start's
  // element {0} is always the tuple of its operands, even of one operand, so
  // {0,i} is operand i.
  void AsyncSourceViews(const HloInstruction& in, const HloOperandShapes& shapes, const std::vector<ValueId>& operands,
                        const std::vector<ValueId>& results) {
    if (!in.shape.is_tuple || in.shape.elements.size() < 2 || in.opcode == "all-reduce-start") return;
    const std::int64_t source = in.opcode == "copy-start" ? 1 : 0;
    const HloLeafRange range = *LeafRangeAt(in.shape, {source});
    HloShape operand_shape;
    if (shapes.size() == 1 && in.opcode != "async-start") {
      operand_shape = *shapes[0];
    } else {
      operand_shape.is_tuple = true;
      for (const HloShape* sh : shapes) operand_shape.elements.push_back(*sh);
    }
    if (!range.shape->SameAs(operand_shape) || range.count != operands.size()) return;
    for (std::size_t i = 0; i < range.count; ++i) View(results[range.first + i], operands[i]);
  }

  // dynamic-update-slice, a fusion whose root is one, and
  // output_to_operand_aliasing write into an operand.
  absl::Status InPlace(const Scope& s, std::size_t k, const std::vector<ValueId>& operands,
                       const std::vector<ValueId>& results) {
    const HloInstruction& in = s.hc->instructions[k];
    std::vector<AliasEntry> entries;
    if (const HloAttribute* a = in.Find("output_to_operand_aliasing")) {
      std::optional<std::vector<AliasEntry>> parsed = ParseAliasEntries(a->value);
      if (!parsed) return Fail(a->loc, "malformed output_to_operand_aliasing (expected {{OUT}: (OPERAND, {IN}), ...})");
      entries = *std::move(parsed);
    } else if (in.opcode == "dynamic-update-slice") {
      entries.push_back(AliasEntry{{}, 0, {}});
    } else if (in.opcode == "fusion") {
      const HloCallees callees = CalleesOf(in);
      if (callees.other.empty()) return absl::OkStatus();
      const HloComputation& fused = m_.computations[static_cast<std::size_t>(FindHloComputation(m_, callees.other[0]))];
      const HloInstruction& root = fused.instructions[fused.root];
      if (root.opcode != "dynamic-update-slice" || root.operands.empty()) return absl::OkStatus();
      for (const HloInstruction& p : fused.instructions) {
        if (p.name == root.operands[0].name && p.parameter_number) {
          entries.push_back(AliasEntry{{}, *p.parameter_number, {}});
        }
      }
    }
    for (const AliasEntry& e : entries) {
      const std::optional<HloLeafRange> out = LeafRangeAt(in.shape, e.output);
      if (e.operand < 0 || static_cast<std::size_t>(e.operand) >= in.operands.size() || !out || out->count != 1) {
        return Fail(in.loc, "in-place alias of %" + in.name + " names an output or operand that does not exist");
      }
      const HloOperand& operand = in.operands[static_cast<std::size_t>(e.operand)];
      const Leaves& leaves = s.env.at(operand.name);
      const std::optional<HloLeafRange> from = LeafRangeAt(*leaves.shape, e.operand_index);
      if (!from || from->count != 1 || !from->shape->SameAs(*out->shape)) {
        return Fail(in.loc, "in-place alias of %" + in.name + " pairs output " + (out->shape->ToString()) +
                                " with a different part of operand %" + operand.name + " " + leaves.shape->ToString());
      }
      if (!CanWriteInPlace(s, operand.name, from->first, k)) continue;
      std::size_t first_leaf = 0;
      for (std::size_t o = 0; o < static_cast<std::size_t>(e.operand); ++o) {
        first_leaf += s.env.at(in.operands[o].name).ids.size();
      }
      Tie(results[out->first], operands[first_leaf + from->first]);
    }
    return absl::OkStatus();
  }

  absl::Status While(Scope& s, std::size_t k, const std::string& qualifier) {
    const HloInstruction& in = s.hc->instructions[k];
    const HloCallees callees = CalleesOf(in);
    const auto cond = static_cast<std::size_t>(FindHloComputation(m_, callees.control[0]));
    const auto body = static_cast<std::size_t>(FindHloComputation(m_, callees.control[1]));
    std::vector<ValueId> init = OperandLeaves(s, in);
    const std::vector<bool> passed_through = PassedThrough(body);
    std::set<ValueId> seen;
    for (std::size_t i = 0; i < init.size(); ++i) {
      const auto base = Base(s, in.operands[0].name, i);
      const auto last = s.last_read.find(base);
      const bool read_later = last != s.last_read.end() && last->second > k;
      const bool duplicate = !seen.insert(Root(init[i])).second;
      const bool written = !passed_through[i] && (read_later || IsParamOrConstant(s, base, !s.is_loop_body));
      if (duplicate || written) {
        absl::StatusOr<ValueId> c = Copy(s.id, init[i], in.loc);
        if (!c.ok()) return c.status();
        init[i] = *c;
      }
    }
    absl::StatusOr<ComputationId> c = Import(cond, Site(s, in), Slots(m_.computations[cond]), RootRule::kEntry, in.loc);
    if (!c.ok()) return c.status();
    absl::StatusOr<ComputationId> b = Import(body, Site(s, in), Slots(m_.computations[body]), RootRule::kCarried, in.loc);
    if (!b.ok()) return b.status();
    return Structured(s, k, "while", std::move(init), {*c, *b}, qualifier);
  }

  absl::Status Structured(Scope& s, std::size_t k, const std::string& opcode, std::vector<ValueId> operands,
                          std::vector<ComputationId> callees, const std::string& qualifier) {
    const HloInstruction& in = s.hc->instructions[k];
    absl::StatusOr<OpId> id = AddOp(s.id, opcode, std::move(operands), in.loc);
    if (!id.ok()) return id.status();
    b_.op(*id).callees = std::move(callees);
    if (opcode == "while") {
      std::optional<std::string> bad;
      b_.op(*id).trip_count = KnownTripCount(in, bad);
      if (bad) {
        return Fail(in.Find("backend_config")->loc, "while %" + in.name + " has a malformed known_trip_count " + *bad +
                                                        " (expected {\"n\":\"N\"}, N a whole number from 0 to " +
                                                        "9223372036854775807)");
      }
    }
    absl::StatusOr<std::vector<ValueId>> results = Results(*id, in.name, in.shape, in.loc, qualifier);
    if (!results.ok()) return results.status();
    s.env[in.name] = Leaves{*std::move(results), &in.shape, in.opcode};
    return absl::OkStatus();
  }

  absl::Status Conditional(Scope& s, std::size_t k, const std::string& qualifier) {
    const HloInstruction& in = s.hc->instructions[k];
    const HloCallees callees = CalleesOf(in);
    std::vector<ValueId> operands = {s.env.at(in.operands[0].name).ids[0]};
    std::vector<ValueId> args;
    for (std::size_t o = 1; o < in.operands.size(); ++o) {
      const auto& ids = s.env.at(in.operands[o].name).ids;
      args.insert(args.end(), ids.begin(), ids.end());
    }
    operands.insert(operands.end(), args.begin(), args.end());
    std::vector<ComputationId> branches;
    for (std::size_t b = 0; b < callees.control.size(); ++b) {
      const auto c = static_cast<std::size_t>(FindHloComputation(m_, callees.control[b]));
      std::vector<ParamSlot> slots;
      for (std::size_t o = 1; o < in.operands.size(); ++o) {
        ParamSlot slot;
        slot.shape = s.env.at(in.operands[o].name).shape;
        if (o == b + 1) {
          slot.hlo_param = 0;
        } else {
          slot.unused_name = in.name + "/" + callees.control[b] + "/unused" + std::to_string(o);
        }
        slots.push_back(std::move(slot));
      }
      absl::StatusOr<ComputationId> id = Import(c, Site(s, in), slots, RootRule::kReturned, in.loc);
      if (!id.ok()) return id.status();
      branches.push_back(*id);
    }
    return Structured(s, k, "conditional", std::move(operands), std::move(branches), qualifier);
  }

  absl::Status Call(Scope& s, std::size_t k, const std::string& qualifier) {
    const HloInstruction& in = s.hc->instructions[k];
    const auto c = static_cast<std::size_t>(FindHloComputation(m_, CalleesOf(in).control[0]));
    absl::StatusOr<ComputationId> id = Import(c, Site(s, in), Slots(m_.computations[c]), RootRule::kReturned, in.loc);
    if (!id.ok()) return id.status();
    return Structured(s, k, "call", OperandLeaves(s, in), {*id}, qualifier);
  }

  // X-done reads the part of its X-start that it returns: copy-start's
  // element {0}, all-reduce-start's whole result, the others' element {1}.
  absl::Status AsyncDone(Scope& s, std::size_t k, const std::string& qualifier) {
    const HloInstruction& in = s.hc->instructions[k];
    const std::string start_opcode = in.opcode.substr(0, in.opcode.size() - 5) + "-start";
    if (in.operands.size() != 1) return Fail(in.opcode_loc, in.opcode + " takes one operand, the " + start_opcode);
    const Leaves& start = s.env.at(in.operands[0].name);
    if (start.opcode != start_opcode) {
      return Fail(in.operands[0].loc, in.opcode + " operand %" + in.operands[0].name + " is not a " + start_opcode);
    }
    if (s.folded.contains(in.operands[0].name) && start.shape->elements[0].SameAs(in.shape)) {
      s.env[in.name] = Leaves{start.ids, &in.shape, in.opcode};
      return absl::OkStatus();
    }
    std::optional<HloLeafRange> part;
    if (start.shape->SameAs(in.shape)) {
      part = HloLeafRange{0, start.ids.size(), start.shape};
    } else {
      part = LeafRangeAt(*start.shape, {in.opcode == "copy-done" ? 0 : 1});
    }
    if (!part || !part->shape->SameAs(in.shape)) {
      return Fail(in.loc, in.opcode + " %" + in.name + " is " + in.shape.ToString() + " but its " + start_opcode +
                              " %" + in.operands[0].name + " is " + start.shape->ToString());
    }
    std::vector<ValueId> operands(start.ids.begin() + static_cast<std::ptrdiff_t>(part->first),
                                  start.ids.begin() + static_cast<std::ptrdiff_t>(part->first + part->count));
    absl::StatusOr<OpId> id = AddOp(s.id, in.opcode, std::move(operands), in.loc);
    if (!id.ok()) return id.status();
    absl::StatusOr<std::vector<ValueId>> results = Results(*id, in.name, in.shape, in.loc, qualifier);
    if (!results.ok()) return results.status();
    s.env[in.name] = Leaves{*std::move(results), &in.shape, in.opcode};
    return absl::OkStatus();
  }

  // input_output_alias: each output leaf is written into its parameter leaf.
  absl::Status InputOutputAlias(ComputationId entry) {
    const HloAttribute* a = m_.Find("input_output_alias");
    if (a == nullptr) return absl::OkStatus();
    std::optional<std::vector<AliasEntry>> entries = ParseAliasEntries(a->value);
    if (!entries) return Fail(a->loc, "malformed input_output_alias (expected { {OUT}: (PARAM, {IN}, may-alias), ... })");
    const HloComputation& hc = m_.computations[m_.entry];
    const std::vector<ParamSlot> slots = Slots(hc);
    std::vector<ValueId>& results = b_.computation(entry).results;
    const std::vector<ValueId> params = b_.program().computations[static_cast<std::size_t>(entry)].params;
    for (const AliasEntry& e : *entries) {
      const std::optional<HloLeafRange> out = LeafRangeAt(hc.instructions[hc.root].shape, e.output);
      if (!out) return Fail(a->loc, "input_output_alias names output " + IndexText(e.output) + ", which the result " + hc.instructions[hc.root].shape.ToString() + " does not have");
      if (e.operand < 0 || static_cast<std::size_t>(e.operand) >= slots.size()) {
        return Fail(a->loc, "input_output_alias names parameter " + std::to_string(e.operand) + "; the entry has " + std::to_string(slots.size()));
      }
      const std::optional<HloLeafRange> in = LeafRangeAt(*slots[static_cast<std::size_t>(e.operand)].shape, e.operand_index);
      if (!in || !in->shape->SameAs(*out->shape)) {
        return Fail(a->loc, "input_output_alias pairs output " + IndexText(e.output) + " " + out->shape->ToString() +
                                " with parameter " + std::to_string(e.operand) + " " + IndexText(e.operand_index) + " " +
                                (in ? in->shape->ToString() : std::string("(no such element)")));
      }
      std::size_t param_first = 0;
      for (std::size_t p = 0; p < static_cast<std::size_t>(e.operand); ++p) param_first += slots[p].shape->LeafCount();
      for (std::size_t i = 0; i < out->count; ++i) {
        const ValueId param = params[param_first + in->first + i];
        ValueId& result = results[out->first + i];
        // The value that holds the output's storage (through tuple views).
        const ValueId storage = Root(result);
        if (storage == param) continue;
        const OpId def = b_.program().values[static_cast<std::size_t>(storage)].defining_op;
        if (def != kNoId && b_.op(def).kind == OpKind::kCompute && b_.op(def).opcode.starts_with("hlo.") &&
            b_.op(def).computation == entry) {
          std::vector<ValueId>& ops = b_.op(def).operands;
          if (std::find(ops.begin(), ops.end(), param) == ops.end()) ops.push_back(param);
          Tie(storage, param);
          continue;
        }
        absl::StatusOr<OpId> copy = AddOp(entry, "hlo.copy", {result, param}, a->loc);
        if (!copy.ok()) return copy.status();
        b_.op(*copy).attributes.push_back(Attribute{"inserted", AttrValue{AttrValue::Kind::kString, 0, 0, "input-output-alias", {}}});
        const ValueId r = b_.AddResult(*copy, UniqueName(b_.program().values[static_cast<std::size_t>(param)].name + ".out", hc.name),
                                       b_.program().values[static_cast<std::size_t>(param)].size,
                                       b_.program().values[static_cast<std::size_t>(param)].type);
        b_.value(r).loc = a->loc;
        Tie(r, param);
        b_.computation(entry).results[out->first + i] = r;
      }
    }
    return absl::OkStatus();
  }

  // The entry parameter leaves input_output_alias donates to outputs.
  absl::Status Donated(const HloComputation& entry) {
    const HloAttribute* a = m_.Find("input_output_alias");
    if (a == nullptr) return absl::OkStatus();
    const std::optional<std::vector<AliasEntry>> entries = ParseAliasEntries(a->value);
    if (!entries) return Fail(a->loc, "malformed input_output_alias (expected { {OUT}: (PARAM, {IN}, may-alias), ... })");
    const std::vector<ParamSlot> slots = Slots(entry);
    for (const AliasEntry& e : *entries) {
      if (e.operand < 0 || static_cast<std::size_t>(e.operand) >= slots.size()) continue;  // reported later
      const std::optional<HloLeafRange> in = LeafRangeAt(*slots[static_cast<std::size_t>(e.operand)].shape, e.operand_index);
      if (!in) continue;
      for (std::size_t i = 0; i < in->count; ++i) donated_.insert({e.operand, in->first + i});
    }
    return absl::OkStatus();
  }

  static std::string IndexText(const std::vector<std::int64_t>& index) {
    std::string text = "{";
    for (std::size_t i = 0; i < index.size(); ++i) text += (i ? "," : "") + std::to_string(index[i]);
    return text + "}";
  }

  const HloModule& m_;
  const std::string& path_;
  ProgramBuilder b_;
  std::set<std::string> names_;
  std::set<std::string> comp_names_;
  int depth_ = 0;  // computations being imported (the call stack)
  std::vector<int> instances_;
  std::vector<bool> on_stack_;
  std::vector<std::optional<OpCost>> fused_cost_;
  std::set<std::pair<std::int64_t, std::size_t>> donated_;  // entry (parameter, leaf)
  std::size_t op_count_ = 0;
};

}  // namespace

absl::StatusOr<Program> ImportHloModule(const HloModule& module, const std::string& path) {
  return Importer(module, path).Run();
}

absl::StatusOr<Program> ImportHloText(std::string_view text, const std::string& path) {
  absl::StatusOr<HloModule> module = ParseHloModule(text, path);
  if (!module.ok()) return module.status();
  if (absl::Status s = CheckHloModule(*module, path); !s.ok()) return s;
  return ImportHloModule(*module, path);
}

}  // namespace memplan
