#include "io/hlo/emitter.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "io/hlo/layout_text.h"
#include "io/hlo/space_copy.h"

namespace memplan {
namespace {

struct TextEdit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string text;
};

class HloEmitter {
 public:
  HloEmitter(std::string_view text, const HloModule& module, const Program& original,
             const Program& rewritten)
      : text_(text), m_(module), hc_(module.computations[module.entry]), in_(original),
        out_(rewritten) {}

  absl::StatusOr<std::string> Run();

 private:
  std::size_t Offset(SourceLocation loc) const {
    return line_starts_[static_cast<std::size_t>(loc.line) - 1] +
           static_cast<std::size_t>(loc.column) - 1;
  }
  std::size_t LineStart(std::size_t k) const {
    return line_starts_[static_cast<std::size_t>(hc_.instructions[k].loc.line) - 1];
  }
  std::size_t LineEnd(std::size_t k) const {
    const std::size_t nl = text_.find('\n', LineStart(k));
    return nl == std::string_view::npos ? text_.size() : nl + 1;
  }
  // Where the last instruction's text ends: at the line that closes the
  // entry computation (a line starting with '}'), as an instruction may run
  // over several lines.
  std::size_t LastInstructionEnd() const {
    std::size_t at = LineEnd(hc_.instructions.size() - 1);
    while (at < text_.size()) {
      const std::size_t first = text_.find_first_not_of(" \t", at);
      if (first == std::string_view::npos || text_[first] == '}') return at;
      const std::size_t nl = text_.find('\n', at);
      at = nl == std::string_view::npos ? text_.size() : nl + 1;
    }
    return at;
  }
  static absl::Status Refuse(const std::string& what) {
    return absl::FailedPreconditionError("--emit-hlo: " + what);
  }

  void IndexLines();
  absl::Status IndexOps();
  absl::Status NameCopies();
  MemorySpace SpaceOf(ValueId v) const;
  std::optional<std::string> NameOf(ValueId v) const;
  std::string Unique(const std::string& base);
  absl::Status ResolveRoot();
  absl::StatusOr<std::string> Instruction(std::size_t k);
  absl::StatusOr<std::string> CopyLine(OpId op);
  absl::Status OperandEdits(std::size_t k, std::vector<TextEdit>& edits);

  std::string_view text_;
  const HloModule& m_;
  const HloComputation& hc_;
  const Program& in_;
  const Program& out_;
  std::vector<std::size_t> line_starts_;
  std::map<std::string, std::size_t> folded_;          // dropped copy-starts
  std::set<std::string> dropped_;                      // their lines and their copy-dones'
  std::map<std::string, std::string> source_of_;       // dropped copy-done -> copied value
  std::map<std::string, const HloShape*> shape_of_;    // entry instruction -> shape
  std::map<std::size_t, OpId> op_of_;                  // entry instruction -> its op
  std::map<ValueId, std::string> name_of_;             // array value -> instruction name
  std::map<std::size_t, std::vector<OpId>> copies_before_;  // instruction -> copies
  std::map<std::size_t, std::vector<OpId>> copies_after_;   // copies of a gte's element
  std::map<ValueId, std::size_t> gte_of_;              // tuple element -> its gte instruction
  std::vector<OpId> trailing_;                         // copies after the last instruction
  std::map<std::string, std::string> shape_text_;      // emitted name -> its shape text
  std::set<std::string> names_;
  std::string root_name_;
  std::string indent_ = "  ";
  bool operand_shapes_ = false;                        // the module prints them
};

void HloEmitter::IndexLines() {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
  for (const HloComputation& c : m_.computations) {
    for (const HloInstruction& i : c.instructions) names_.insert(i.name);
  }
}

absl::Status HloEmitter::IndexOps() {
  folded_ = FoldedSpaceCopies(hc_);
  for (const HloInstruction& in : hc_.instructions) {
    shape_of_[in.name] = &in.shape;
    if (folded_.contains(in.name)) dropped_.insert(in.name);
    if (in.opcode == "copy-done" && in.operands.size() == 1 &&
        folded_.contains(in.operands[0].name)) {
      dropped_.insert(in.name);
      const HloInstruction& start = hc_.instructions[folded_.at(in.operands[0].name)];
      const auto source = source_of_.find(start.operands[0].name);
      source_of_[in.name] = source == source_of_.end() ? start.operands[0].name : source->second;
    }
    for (const HloOperand& o : in.operands) operand_shapes_ = operand_shapes_ || o.shape;
  }
  for (std::size_t k = 0; k + 1 < hc_.instructions.size(); ++k) {
    if (hc_.instructions[k + 1].loc.line <= hc_.instructions[k].loc.line) {
      return Refuse("instruction %" + hc_.instructions[k + 1].name +
                    " shares its line with another; write one instruction per line");
    }
  }
  const std::size_t first = LineStart(0);
  std::size_t end = first;
  while (end < text_.size() && (text_[end] == ' ' || text_[end] == '\t')) ++end;
  indent_ = std::string(text_.substr(first, end - first));

  std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> at;
  for (std::size_t k = 0; k < hc_.instructions.size(); ++k) {
    at.emplace(std::pair(hc_.instructions[k].loc.line, hc_.instructions[k].loc.column), k);
  }
  const Computation& entry = in_.computations[in_.entry];
  for (OpId op : entry.ops) {
    const Op& o = in_.ops[op];
    const bool inserted = std::any_of(o.attributes.begin(), o.attributes.end(),
                                      [](const Attribute& a) { return a.key == "inserted"; });
    const auto it = at.find(std::pair(o.loc.line, o.loc.column));
    if (inserted || it == at.end() || op_of_.contains(it->second)) continue;
    op_of_[it->second] = op;
    const HloInstruction& in = hc_.instructions[it->second];
    if (!in.shape.is_tuple && o.results.size() == 1) name_of_[o.results[0]] = in.name;
  }
  // An element of a tuple is copied from the get-tuple-element that names it.
  for (const auto& [k, op] : op_of_) {
    const HloInstruction& in = hc_.instructions[k];
    const Value& r = in_.values[in_.ops[op].results.at(0)];
    if (in.opcode != "get-tuple-element" || in.shape.is_tuple || r.alias_of == kNoId) continue;
    if (!name_of_.contains(r.alias_of)) {
      name_of_[r.alias_of] = in.name;
      gte_of_[r.alias_of] = k;
    }
  }
  for (ValueId v : entry.params) {
    const auto it = at.find(std::pair(in_.values[v].loc.line, in_.values[v].loc.column));
    if (it == at.end()) continue;
    const HloInstruction& in = hc_.instructions[it->second];
    if (!in.shape.is_tuple) name_of_[v] = in.name;
  }
  return absl::OkStatus();
}

// Copies in schedule order, each before the next instruction the schedule
// runs after it; names for their results.
absl::Status HloEmitter::NameCopies() {
  std::vector<OpId> pending;
  std::map<OpId, std::size_t> instr_of;
  for (const auto& [k, op] : op_of_) instr_of[op] = k;
  std::set<std::size_t> reached;
  std::map<ValueId, std::size_t> deferred;  // copy-start result -> after gte instruction
  for (OpId op : out_.computations[out_.entry].ops) {
    if (static_cast<std::size_t>(op) >= in_.ops.size()) {
      const Op& o = out_.ops[op];
      if (o.opcode != "copy-start" && o.opcode != "copy-done") {
        return Refuse("the plan reads part of a buffer (" + o.opcode + " %" +
                      out_.values[o.results.at(0)].name + "), which HLO cannot express");
      }
      name_of_[o.results.at(0)] = Unique(out_.values[o.results[0]].name);
      // A copy of a tuple element waits for the get-tuple-element naming it
      // (a view: no bytes move, the plan is the same).
      const ValueId source = o.operands.at(0);
      std::optional<std::size_t> after;
      if (const auto g = gte_of_.find(source); o.opcode == "copy-start" && g != gte_of_.end()) {
        after = g->second;
      } else if (const auto d = deferred.find(source); d != deferred.end()) {
        after = d->second;
      }
      if (after && !reached.contains(*after)) {
        deferred[o.results[0]] = *after;
        copies_after_[*after].push_back(op);
      } else {
        pending.push_back(op);
      }
    } else if (const auto it = instr_of.find(op); it != instr_of.end()) {
      reached.insert(it->second);
      copies_before_[it->second] = std::move(pending);
      pending.clear();
    }
  }
  trailing_ = std::move(pending);
  return absl::OkStatus();
}

std::string HloEmitter::Unique(const std::string& base) {
  std::string clean = base;  // "%t/1" (element 1 of %t) is no HLO name
  std::replace(clean.begin(), clean.end(), '/', '.');
  std::string name = clean;
  for (int k = 1; names_.contains(name); ++k) name = clean + "." + std::to_string(k);
  names_.insert(name);
  return name;
}

// Where a value's bytes live: its own pinned space, else its aliased value's.
MemorySpace HloEmitter::SpaceOf(ValueId v) const {
  for (int guard = 0; guard < 1 << 20; ++guard) {
    const Value& value = out_.values[v];
    if (value.space) return *value.space;
    // A view, or a result written in place, lives where its operand does.
    if (value.alias == AliasKind::kNone || value.alias_of == kNoId) return kDefaultSpace;
    v = value.alias_of;
  }
  return kDefaultSpace;
}

std::optional<std::string> HloEmitter::NameOf(ValueId v) const {
  const auto it = name_of_.find(v);
  if (it == name_of_.end()) return std::nullopt;
  return it->second;
}

// The entry's result: the ROOT as read, unless the plan returns an array
// output's eviction copy-done, or the ROOT is a dropped copy.
absl::Status HloEmitter::ResolveRoot() {
  const HloInstruction& root = hc_.instructions[hc_.root];
  root_name_ = root.name;
  const std::vector<ValueId>& before = in_.computations[in_.entry].results;
  const std::vector<ValueId>& after = out_.computations[out_.entry].results;
  if (root.shape.is_tuple) return absl::OkStatus();
  if (!dropped_.contains(root.name) && (before.empty() || before == after)) {
    return absl::OkStatus();
  }
  const std::optional<std::string> name = after.size() == 1 ? NameOf(after[0]) : std::nullopt;
  if (!name) return Refuse("the result of %" + root.name + " has no instruction to return");
  root_name_ = *name;
  return absl::OkStatus();
}

absl::Status HloEmitter::OperandEdits(std::size_t k, std::vector<TextEdit>& edits) {
  const HloInstruction& in = hc_.instructions[k];
  const auto op_it = op_of_.find(k);
  const Op* before = op_it == op_of_.end() ? nullptr : &in_.ops[op_it->second];
  const Op* after = op_it == op_of_.end() ? nullptr : &out_.ops[op_it->second];
  std::vector<ValueId> wanted = after ? after->operands : std::vector<ValueId>{};
  // The root tuple returns each output's default-memory value.
  const std::vector<ValueId>& returned = out_.computations[out_.entry].results;
  const std::vector<ValueId>& returned_before = in_.computations[in_.entry].results;
  if (k == hc_.root && in.opcode == "tuple" && returned.size() == wanted.size() &&
      returned_before.size() == wanted.size()) {
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      if (returned[i] != returned_before[i]) wanted[i] = returned[i];
    }
  }
  std::size_t p = 0;
  for (std::size_t j = 0; j < in.operands.size(); ++j) {
    const HloOperand& o = in.operands[j];
    const auto shape = shape_of_.find(o.name);
    const std::size_t n = shape == shape_of_.end() ? 1 : shape->second->LeafCount();
    std::string name = o.name;
    // A dropped copy-done reads as the value it copied.
    if (const auto source = source_of_.find(o.name); source != source_of_.end()) {
      name = source->second;
    }
    const bool whole = in.opcode != "get-tuple-element" && before && p + n <= wanted.size() &&
                       p + n <= before->operands.size();
    bool changed = false;
    for (std::size_t i = 0; whole && i < n; ++i) {
      changed = changed || wanted[p + i] != before->operands[p + i];
    }
    if (changed) {
      const std::optional<std::string> to = n == 1 ? NameOf(wanted[p]) : std::nullopt;
      if (!to) {
        return Refuse("%" + in.name + " would read a copy of one element of the tuple %" + o.name +
                      ", which HLO cannot express without a new tuple");
      }
      name = *to;
    }
    if (in.opcode == "get-tuple-element" && before && after && before->operands != after->operands) {
      return Refuse("%" + in.name + " would read a copy of an element of the tuple %" + o.name);
    }
    p += n;
    const std::size_t at = Offset(o.loc);
    const std::size_t sigil = text_[at] == '%' ? 1 : 0;
    if (name != o.name) edits.push_back({at + sigil, at + sigil + o.name.size(), name});
    if (o.shape && shape_text_.contains(name)) {
      std::size_t end = at;
      while (end > 0 && std::isspace(static_cast<unsigned char>(text_[end - 1]))) --end;
      edits.push_back({Offset(o.shape_loc), end, shape_text_.at(name)});
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> HloEmitter::Instruction(std::size_t k) {
  const HloInstruction& in = hc_.instructions[k];
  const std::size_t begin = LineStart(k);
  const std::size_t end = k + 1 < hc_.instructions.size() ? LineStart(k + 1) : LastInstructionEnd();
  std::vector<TextEdit> edits;
  // The ROOT marker follows the entry's result.
  const std::size_t name_at = Offset(in.loc);
  const std::size_t root_at = text_.find("ROOT", begin);
  if (in.is_root && in.name != root_name_ && root_at < name_at) {
    std::size_t after = root_at + 4;
    while (after < name_at && std::isspace(static_cast<unsigned char>(text_[after]))) ++after;
    edits.push_back({root_at, after, ""});
  } else if (!in.is_root && in.name == root_name_) {
    edits.push_back({name_at, name_at, "ROOT "});
  }
  // The result's layouts: S(n) where the plan keeps each leaf.
  std::vector<ValueId> leaves;
  const std::vector<ValueId>& returned = out_.computations[out_.entry].results;
  if (k == hc_.root && in.name == root_name_ && returned.size() == in.shape.LeafCount()) {
    leaves = returned;  // the entry's result as returned (default memory copies)
  } else if (const auto it = op_of_.find(k); it != op_of_.end()) {
    leaves = out_.ops[it->second].results;
  } else if (in.opcode == "parameter") {
    for (ValueId v : in_.computations[in_.entry].params) {
      if (in_.values[v].loc == in.loc) leaves.push_back(v);
    }
  }
  std::size_t shape_begin = text_.find('=', name_at) + 1;
  while (std::isspace(static_cast<unsigned char>(text_[shape_begin]))) ++shape_begin;
  std::size_t shape_end = Offset(in.opcode_loc);
  while (shape_end > shape_begin && std::isspace(static_cast<unsigned char>(text_[shape_end - 1]))) {
    --shape_end;
  }
  std::string shape_text(text_.substr(shape_begin, shape_end - shape_begin));
  if (!leaves.empty() && leaves.size() == in.shape.LeafCount()) {
    std::vector<std::int64_t> spaces;
    for (ValueId v : leaves) spaces.push_back(SpaceOf(v));
    if (std::optional<std::string> s = WithMemorySpaces(shape_text, spaces)) shape_text = *s;
    edits.push_back({shape_begin, shape_end, shape_text});
  }
  shape_text_[in.name] = shape_text;
  if (absl::Status s = OperandEdits(k, edits); !s.ok()) return s;
  std::sort(edits.begin(), edits.end(),
            [](const TextEdit& a, const TextEdit& b) { return a.begin < b.begin; });
  std::string out;
  std::size_t at = begin;
  for (const TextEdit& e : edits) {
    out.append(text_.substr(at, e.begin - at));
    out += e.text;
    at = e.end;
  }
  out.append(text_.substr(at, end - at));
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

absl::StatusOr<std::string> HloEmitter::CopyLine(OpId op) {
  const Op& o = out_.ops[op];
  const std::string name = name_of_.at(o.results[0]);
  const std::string root = name == root_name_ ? "ROOT " : "";
  if (o.opcode == "copy-start") {
    const std::optional<std::string> source = NameOf(o.operands.at(0));
    if (!source || !shape_text_.contains(*source)) {
      return Refuse("the plan copies %" + out_.values[o.operands[0]].name +
                    ", which is not an array instruction of the entry computation");
    }
    const std::string& src = shape_text_.at(*source);
    const std::optional<std::string> dst = WithMemorySpaces(src, {SpaceOf(o.results[0])});
    if (!dst) return Refuse("cannot read the shape of %" + *source);
    const std::string tuple = "(" + *dst + ", " + src + ", u32[])";
    shape_text_[name] = tuple;
    shape_text_[name + "/dst"] = *dst;
    return indent_ + root + "%" + name + " = " + tuple + " copy-start(" +
           (operand_shapes_ ? src + " " : "") + "%" + *source + ")\n";
  }
  const std::string start = name_of_.at(o.operands.at(0));
  const std::string dst = shape_text_.at(start + "/dst");
  shape_text_[name] = dst;
  return indent_ + root + "%" + name + " = " + dst + " copy-done(" +
         (operand_shapes_ ? shape_text_.at(start) + " " : "") + "%" + start + ")\n";
}

absl::StatusOr<std::string> HloEmitter::Run() {
  IndexLines();
  if (absl::Status s = IndexOps(); !s.ok()) return s;
  for (const std::string& name : dropped_) names_.erase(name);  // free for the new copies
  if (absl::Status s = NameCopies(); !s.ok()) return s;
  if (absl::Status s = ResolveRoot(); !s.ok()) return s;
  std::string out(text_.substr(0, LineStart(0)));
  for (std::size_t k = 0; k < hc_.instructions.size(); ++k) {
    for (OpId op : copies_before_[k]) {
      absl::StatusOr<std::string> line = CopyLine(op);
      if (!line.ok()) return line.status();
      out += *line;
    }
    if (dropped_.contains(hc_.instructions[k].name)) continue;
    absl::StatusOr<std::string> line = Instruction(k);
    if (!line.ok()) return line.status();
    out += *line;
    for (OpId op : copies_after_[k]) {
      absl::StatusOr<std::string> copy = CopyLine(op);
      if (!copy.ok()) return copy.status();
      out += *copy;
    }
  }
  for (OpId op : trailing_) {
    absl::StatusOr<std::string> line = CopyLine(op);
    if (!line.ok()) return line.status();
    out += *line;
  }
  out.append(text_.substr(LastInstructionEnd()));
  return out;
}

}  // namespace

absl::StatusOr<std::string> EmitHloWithMemorySpaces(std::string_view text,
                                                    const HloModule& module,
                                                    const Program& original,
                                                    const Program& rewritten) {
  return HloEmitter(text, module, original, rewritten).Run();
}

}  // namespace memplan
