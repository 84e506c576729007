#include "io/hlo/emitter.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "io/hlo/checker.h"
#include "io/hlo/emitter_state.h"
#include "io/hlo/layout_text.h"
#include "io/hlo/parser.h"
#include "io/hlo/space_copy.h"

namespace memplan {
namespace hlo_emit {

void HloEmitter::IndexLines() {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
  for (const HloComputation& c : m_.computations) {
    computation_names_.insert(c.name);
    for (const HloInstruction& i : c.instructions) names_.insert(i.name);
  }
}

// The spaces XLA's aliasing rule fixes, from the plan's: a while carries each
// element in its body parameter's space (the space the body's reads see),
// so its operand, condition parameter and result take it and the body root
// returns into it; a call's or conditional's callee parameters fix their
// operands' spaces, its results its callees' roots'.
void HloEmitter::IndexAliasEdges() {
  for (std::size_t id = 0; id < in_.ops.size(); ++id) {
    const Op& op = out_.ops[id];
    const auto o = static_cast<OpId>(id);
    std::vector<std::optional<MemorySpace>> need(op.operands.size());
    if (op.kind == OpKind::kWhile && op.callees.size() == 2) {
      const Computation& cond = out_.computations[op.callees[0]];
      const Computation& body = out_.computations[op.callees[1]];
      std::vector<MemorySpace> carried;
      for (ValueId p : body.params) carried.push_back(StoredSpace(p));
      for (std::size_t i = 0; i < carried.size(); ++i) {
        if (i < cond.params.size()) forced_[cond.params[i]] = carried[i];
        if (i < op.results.size()) forced_[op.results[i]] = carried[i];
        if (i < need.size()) need[i] = carried[i];
      }
      root_need_[op.callees[1]] = carried;
    } else if (op.kind == OpKind::kCall || op.kind == OpKind::kConditional) {
      // A conditional's operand 0 is the branch index; every branch takes
      // the other operands, and its own are read by a parameter instruction.
      const std::size_t first = op.kind == OpKind::kConditional ? 1 : 0;
      for (ComputationId c : op.callees) {
        const Computation& callee = out_.computations[c];
        for (std::size_t i = 0; i < callee.params.size() && first + i < need.size(); ++i) {
          const Value& param = out_.values[callee.params[i]];
          if (op.kind == OpKind::kCall || !(param.loc == callee.loc)) {
            need[first + i] = StoredSpace(callee.params[i]);
          }
        }
        std::vector<MemorySpace> results;
        for (ValueId r : op.results) results.push_back(StoredSpace(r));
        root_need_[c] = results;
      }
    } else {
      continue;
    }
    operand_need_[o] = std::move(need);
  }
}

absl::Status HloEmitter::IndexOps(bool clone) {
  folded_ = FoldedSpaceCopies(*hc_);
  for (const HloInstruction& in : hc_->instructions) {
    shape_of_[in.name] = &in.shape;
    if (folded_.contains(in.name)) dropped_.insert(in.name);
    if (in.opcode == "copy-done" && in.operands.size() == 1 &&
        folded_.contains(in.operands[0].name)) {
      dropped_.insert(in.name);
      const HloInstruction& start = hc_->instructions[folded_.at(in.operands[0].name)];
      const auto source = source_of_.find(start.operands[0].name);
      source_of_[in.name] = source == source_of_.end() ? start.operands[0].name : source->second;
    }
    for (const HloOperand& o : in.operands) operand_shapes_ = operand_shapes_ || o.shape;
  }
  if (clone) {
    // As XLA names a cloned computation's instructions.
    for (const HloInstruction& in : hc_->instructions) {
      if (!dropped_.contains(in.name)) rename_[in.name] = Unique(in.name + ".clone");
    }
  }
  for (std::size_t k = 0; k + 1 < hc_->instructions.size(); ++k) {
    if (hc_->instructions[k + 1].loc.line <= hc_->instructions[k].loc.line) {
      return Refuse("instruction %" + hc_->instructions[k + 1].name +
                    " shares its line with another; write one instruction per line");
    }
  }
  const std::size_t first = LineStart(0);
  std::size_t end = first;
  while (end < text_.size() && (text_[end] == ' ' || text_[end] == '\t')) ++end;
  indent_ = std::string(text_.substr(first, end - first));

  std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> at;
  for (std::size_t k = 0; k < hc_->instructions.size(); ++k) {
    at.emplace(std::pair(hc_->instructions[k].loc.line, hc_->instructions[k].loc.column), k);
  }
  const Computation& comp = in_.computations[pc_];
  for (OpId op : comp.ops) {
    const Op& o = in_.ops[op];
    const bool inserted = std::any_of(o.attributes.begin(), o.attributes.end(),
                                      [](const Attribute& a) { return a.key == "inserted"; });
    const auto it = at.find(std::pair(o.loc.line, o.loc.column));
    if (inserted || it == at.end() || op_of_.contains(it->second)) continue;
    op_of_[it->second] = op;
    const HloInstruction& in = hc_->instructions[it->second];
    if (!in.shape.is_tuple && o.results.size() == 1) name_of_[o.results[0]] = Named(in.name);
  }
  // An element of a tuple is copied from the get-tuple-element that names it.
  for (const auto& [k, op] : op_of_) {
    const HloInstruction& in = hc_->instructions[k];
    const Value& r = in_.values[in_.ops[op].results.at(0)];
    if (in.opcode != "get-tuple-element" || in.shape.is_tuple || r.alias_of == kNoId) continue;
    if (!name_of_.contains(r.alias_of)) {
      name_of_[r.alias_of] = Named(in.name);
      gte_of_[r.alias_of] = k;
    }
  }
  for (ValueId v : comp.params) {
    const auto it = at.find(std::pair(in_.values[v].loc.line, in_.values[v].loc.column));
    if (it == at.end()) continue;
    const HloInstruction& in = hc_->instructions[it->second];
    if (!in.shape.is_tuple) name_of_[v] = Named(in.name);
  }
  return absl::OkStatus();
}

// Where this computation's aliasing edges need a space: on an array operand
// of a while, call or conditional itself, on the operands of the tuple
// instruction that builds a tuple operand, and on the root's.
void HloEmitter::IndexNeeds() {
  std::map<std::string, std::size_t> index;
  for (std::size_t k = 0; k < hc_->instructions.size(); ++k) index[hc_->instructions[k].name] = k;
  const auto tuple_of_arrays = [&](const HloInstruction& in) {
    return in.opcode == "tuple" &&
           std::none_of(in.operands.begin(), in.operands.end(),
                        [&](const HloOperand& o) { return shape_of_.at(o.name)->is_tuple; });
  };
  const auto need_on = [&](std::size_t k, const std::vector<std::optional<MemorySpace>>& need) {
    std::size_t p = 0;
    for (const HloOperand& o : hc_->instructions[k].operands) {
      const std::size_t def = index.at(o.name);
      const HloInstruction& in = hc_->instructions[def];
      const std::size_t n = in.shape.LeafCount();
      for (std::size_t i = 0; i < n && p + i < need.size(); ++i) {
        if (!need[p + i]) continue;
        if (!in.shape.is_tuple) need_[{k, p}] = *need[p];
        if (tuple_of_arrays(in)) need_[{def, i}] = *need[p + i];
      }
      p += n;
    }
  };
  for (const auto& [k, op] : op_of_) {
    if (const auto it = operand_need_.find(op); it != operand_need_.end()) need_on(k, it->second);
  }
  const HloInstruction& root = hc_->instructions[hc_->root];
  const auto it = root_need_.find(pc_);
  if (it == root_need_.end() || !tuple_of_arrays(root) || root.operands.size() != it->second.size()) {
    return;
  }
  for (std::size_t i = 0; i < it->second.size(); ++i) need_[{hc_->root, i}] = it->second[i];
}

// Copies in schedule order, each before the next instruction the schedule
// runs after it; names for their results, after the instruction they copy
// (the same in every instance of a computation).
absl::Status HloEmitter::NameCopies() {
  std::vector<OpId> pending;
  std::map<OpId, std::size_t> instr_of;
  for (const auto& [k, op] : op_of_) instr_of[op] = k;
  std::set<std::size_t> reached;
  std::map<ValueId, std::size_t> deferred;  // copy-start result -> after gte instruction
  for (OpId op : out_.computations[pc_].ops) {
    if (static_cast<std::size_t>(op) >= in_.ops.size()) {
      const Op& o = out_.ops[op];
      if (o.opcode != "copy-start" && o.opcode != "copy-done") {
        return Refuse("the plan reads part of a buffer (" + o.opcode + " %" +
                      out_.values[o.results.at(0)].name + "), which HLO cannot express");
      }
      const ValueId source = o.operands.at(0);
      const bool evict = StoredSpace(o.results[0]) == kDefaultSpace;
      if (o.opcode == "copy-start") {
        const std::string base = NameOf(source).value_or(out_.values[source].name);
        name_of_[o.results[0]] = Unique(base + (evict ? ".evict" : ".prefetch"));
        copy_base_[name_of_[o.results[0]]] = base;
      } else {
        const std::string& base = copy_base_[name_of_.at(source)];
        name_of_[o.results[0]] = Unique(base + (evict ? ".evicted" : ".prefetched"));
      }
      // A copy of a tuple element waits for the get-tuple-element naming it
      // (a view: no bytes move, the plan is the same).
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

// Where the plan keeps a value's bytes: its own pinned space, else its
// aliased value's (a view, or a result written in place, lives where its
// operand does).
MemorySpace HloEmitter::StoredSpace(ValueId v) const {
  for (int guard = 0; guard < 1 << 20; ++guard) {
    const Value& value = out_.values[v];
    if (value.space) return *value.space;
    if (value.alias == AliasKind::kNone || value.alias_of == kNoId) return kDefaultSpace;
    v = value.alias_of;
  }
  return kDefaultSpace;
}

// The space written on a value's layout: StoredSpace, except where an
// aliasing edge fixes it (a while's condition parameters and results take
// its body parameters' spaces).
MemorySpace HloEmitter::SpaceOf(ValueId v) const {
  for (int guard = 0; guard < 1 << 20; ++guard) {
    if (const auto f = forced_.find(v); f != forced_.end()) return f->second;
    const Value& value = out_.values[v];
    if (value.space) return *value.space;
    if (value.alias == AliasKind::kNone || value.alias_of == kNoId) return kDefaultSpace;
    v = value.alias_of;
  }
  return kDefaultSpace;
}

// The value whose storage `v` holds data of: through views, ties and the
// plan's copies.
ValueId HloEmitter::Origin(ValueId v) const {
  for (int guard = 0; guard < 1 << 20; ++guard) {
    const Value& value = out_.values[v];
    if (value.alias != AliasKind::kNone && value.alias_of != kNoId) {
      v = value.alias_of;
    } else if (value.defining_op != kNoId && static_cast<std::size_t>(value.defining_op) >= in_.ops.size() &&
               !out_.ops[value.defining_op].operands.empty()) {
      v = out_.ops[value.defining_op].operands[0];  // a copy-start or copy-done
    } else {
      return v;
    }
  }
  return v;
}

// The instruction naming `v`, or the one naming the whole value `v` views
// (the rewrite may pass an element of a tuple on as the value to read).
std::optional<std::string> HloEmitter::NameOf(ValueId v) const {
  for (int guard = 0; guard < 1 << 20; ++guard) {
    if (const auto it = name_of_.find(v); it != name_of_.end()) return it->second;
    const Value& value = out_.values[v];
    if (value.alias != AliasKind::kView || value.alias_of == kNoId || value.view_offset != 0 ||
        value.size != out_.values[value.alias_of].size) {
      return std::nullopt;
    }
    v = value.alias_of;
  }
  return std::nullopt;
}

// The computation's result: the ROOT as read, unless the plan returns an
// array output's copy-done, or the ROOT is a dropped copy; then copied into
// the space an aliasing edge needs when it is in another.
absl::Status HloEmitter::ResolveRoot() {
  const HloInstruction& root = hc_->instructions[hc_->root];
  root_name_ = Named(root.name);
  const std::vector<ValueId>& before = in_.computations[pc_].results;
  const std::vector<ValueId>& after = out_.computations[pc_].results;
  if (root.shape.is_tuple) return absl::OkStatus();
  if (dropped_.contains(root.name) || (!before.empty() && before != after)) {
    const std::optional<std::string> name = after.size() == 1 ? NameOf(after[0]) : std::nullopt;
    if (!name) return Refuse("the result of %" + root.name + " has no instruction to return");
    root_name_ = *name;
  }
  const auto need = root_need_.find(pc_);
  if (need == root_need_.end() || need->second.size() != 1 || after.size() != 1 ||
      SpaceOf(after[0]) == need->second[0]) {
    return absl::OkStatus();
  }
  root_convert_ = need->second[0];
  root_source_ = root_name_;
  const bool evict = *root_convert_ == kDefaultSpace;
  root_start_ = Unique(root_source_ + (evict ? ".evict" : ".prefetch"));
  root_name_ = Unique(root_source_ + (evict ? ".evicted" : ".prefetched"));
  return absl::OkStatus();
}

// `%start = (dst, src, u32[]) copy-start(%source)`, dst in space `to`.
std::string HloEmitter::StartLine(const std::string& start, const std::string& source, MemorySpace to) {
  const std::string& src = shape_text_.at(source);
  const std::string dst = WithMemorySpaces(src, {to}).value_or(src);
  const std::string tuple = "(" + dst + ", " + src + ", u32[])";
  shape_text_[start] = tuple;
  shape_text_[start + "/dst"] = dst;
  return indent_ + (start == root_name_ ? "ROOT " : "") + "%" + start + " = " + tuple +
         " copy-start(" + (operand_shapes_ ? src + " " : "") + "%" + source + ")\n";
}

// `%done = dst copy-done(%start)`.
std::string HloEmitter::DoneLine(const std::string& done, const std::string& start) {
  const std::string dst = shape_text_.at(start + "/dst");
  shape_text_[done] = dst;
  return indent_ + (done == root_name_ ? "ROOT " : "") + "%" + done + " = " + dst + " copy-done(" +
         (operand_shapes_ ? shape_text_.at(start) + " " : "") + "%" + start + ")\n";
}

absl::StatusOr<std::string> HloEmitter::CopyLine(OpId op) {
  const Op& o = out_.ops[op];
  const std::string name = name_of_.at(o.results[0]);
  if (o.opcode == "copy-start") {
    const std::optional<std::string> source = NameOf(o.operands.at(0));
    if (!source || !shape_text_.contains(*source) || !WithMemorySpaces(shape_text_.at(*source), {0})) {
      return Refuse("the plan copies %" + out_.values[o.operands[0]].name +
                    ", which is not an array instruction of computation %" + hc_->name);
    }
    return StartLine(name, *source, StoredSpace(o.results[0]));
  }
  const std::string line = DoneLine(name, name_of_.at(o.operands.at(0)));
  Record(name, o.results[0]);
  return line;
}

// The name of a value holding `v`'s data (`name`) in `space` where the
// current instruction runs: `name` itself, the latest copy of its storage
// written there, or a new copy written before the instruction (as XLA's pass
// adds where an aliasing edge needs the value in another space).
std::string HloEmitter::InSpace(const std::string& name, ValueId v, MemorySpace space) {
  if (SpaceOf(v) == space) return name;
  std::map<MemorySpace, std::string>& latest = latest_[Origin(v)];
  if (const auto it = latest.find(space); it != latest.end()) return it->second;
  if (!shape_text_.contains(name) || !WithMemorySpaces(shape_text_.at(name), {0})) return name;
  const bool evict = space == kDefaultSpace;
  const std::string start = Unique(name + (evict ? ".evict" : ".prefetch"));
  const std::string done = Unique(name + (evict ? ".evicted" : ".prefetched"));
  prefix_ += StartLine(start, name, space);
  prefix_ += DoneLine(done, start);
  latest[space] = done;
  return done;
}

// Notes that `name` now holds `v`'s data in its space; a value written in
// place makes the copies of its storage in other spaces stale.
void HloEmitter::Record(const std::string& name, ValueId v) {
  std::map<MemorySpace, std::string>& latest = latest_[Origin(v)];
  if (out_.values[v].alias == AliasKind::kTied) latest.clear();
  latest[SpaceOf(v)] = name;
}

absl::Status HloEmitter::OperandEdits(std::size_t k, std::vector<TextEdit>& edits) {
  const HloInstruction& in = hc_->instructions[k];
  const auto op_it = op_of_.find(k);
  const Op* before = op_it == op_of_.end() ? nullptr : &in_.ops[op_it->second];
  const Op* after = op_it == op_of_.end() ? nullptr : &out_.ops[op_it->second];
  std::vector<ValueId> wanted = after ? after->operands : std::vector<ValueId>{};
  // The root tuple returns the computation's results as the plan leaves them.
  const std::vector<ValueId>& returned = out_.computations[pc_].results;
  const std::vector<ValueId>& returned_before = in_.computations[pc_].results;
  if (k == hc_->root && in.opcode == "tuple" && returned.size() == wanted.size() &&
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
    std::string name = Named(o.name);
    // A dropped copy-done reads as the value it copied.
    if (const auto source = source_of_.find(o.name); source != source_of_.end()) {
      name = Named(source->second);
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
    if (const auto need = need_.find({k, p}); whole && n == 1 && need != need_.end()) {
      name = InSpace(name, wanted[p], need->second);
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

// The leaf values whose spaces instruction k's layouts show.
std::vector<ValueId> HloEmitter::LeavesOf(std::size_t k) const {
  const HloInstruction& in = hc_->instructions[k];
  const std::vector<ValueId>& returned = out_.computations[pc_].results;
  if (k == hc_->root && Named(in.name) == root_name_ && returned.size() == in.shape.LeafCount()) {
    return returned;  // the result as returned (e.g. the entry's default-memory copies)
  }
  if (const auto it = op_of_.find(k); it != op_of_.end()) return out_.ops[it->second].results;
  std::vector<ValueId> leaves;
  if (in.opcode == "parameter") {
    for (ValueId v : in_.computations[pc_].params) {
      if (in_.values[v].loc == in.loc) leaves.push_back(v);
    }
  }
  return leaves;
}

absl::StatusOr<std::string> HloEmitter::Instruction(std::size_t k) {
  const HloInstruction& in = hc_->instructions[k];
  const std::size_t begin = LineStart(k);
  const std::size_t end = k + 1 < hc_->instructions.size() ? LineStart(k + 1) : LastInstructionEnd();
  std::vector<TextEdit> edits;
  // The ROOT marker follows the computation's result.
  const std::size_t name_at = Offset(in.loc);
  const std::string name = Named(in.name);
  // Only between the line's start and the name: a search to the end of the
  // text would make writing a module quadratic in its instructions.
  const std::size_t root_in_line = text_.substr(begin, name_at - begin).find("ROOT");
  const std::size_t root_at = root_in_line == std::string_view::npos ? name_at : begin + root_in_line;
  if (in.is_root && name != root_name_ && root_at < name_at) {
    std::size_t after = root_at + 4;
    while (after < name_at && std::isspace(static_cast<unsigned char>(text_[after]))) ++after;
    edits.push_back({root_at, after, ""});
  } else if (!in.is_root && name == root_name_) {
    edits.push_back({name_at, name_at, "ROOT "});
  }
  if (name != in.name) {
    const std::size_t sigil = text_[name_at] == '%' ? 1 : 0;
    edits.push_back({name_at + sigil, name_at + sigil + in.name.size(), name});
  }
  // The result's layouts: S(n) where the plan keeps each leaf (a tuple
  // operand of an aliasing edge: the space the edge needs).
  const std::vector<ValueId> leaves = LeavesOf(k);
  std::size_t shape_begin = text_.find('=', name_at) + 1;
  while (std::isspace(static_cast<unsigned char>(text_[shape_begin]))) ++shape_begin;
  std::size_t shape_end = Offset(in.opcode_loc);
  while (shape_end > shape_begin && std::isspace(static_cast<unsigned char>(text_[shape_end - 1]))) {
    --shape_end;
  }
  std::string shape_text(text_.substr(shape_begin, shape_end - shape_begin));
  if (!leaves.empty() && leaves.size() == in.shape.LeafCount()) {
    std::vector<std::int64_t> spaces;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
      const auto need = need_.find({k, i});
      spaces.push_back(in.opcode == "tuple" && need != need_.end() ? need->second : SpaceOf(leaves[i]));
    }
    if (std::optional<std::string> s = WithMemorySpaces(shape_text, spaces)) shape_text = *s;
    edits.push_back({shape_begin, shape_end, shape_text});
    if (!in.shape.is_tuple) Record(name, leaves[0]);
  }
  shape_text_[name] = shape_text;
  if (absl::Status s = OperandEdits(k, edits); !s.ok()) return s;
  CalleeEdits(k, edits);
  FusionEdits(k, edits);
  // Stable: "ROOT " is inserted before a renamed name at the same offset.
  std::stable_sort(edits.begin(), edits.end(),
                   [](const TextEdit& a, const TextEdit& b) { return a.begin < b.begin; });
  std::string out = std::move(prefix_);
  prefix_.clear();
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

// One program instance of the current HLO computation: its instructions'
// text (from the first instruction's line to the closing brace's), with
// clone names when `clone`.
absl::StatusOr<std::string> HloEmitter::WriteInstance(ComputationId pc, bool clone) {
  pc_ = pc;
  folded_.clear();
  rename_.clear();
  fused_clones_.clear();
  dropped_.clear();
  source_of_.clear();
  shape_of_.clear();
  op_of_.clear();
  copies_before_.clear();
  copies_after_.clear();
  gte_of_.clear();
  trailing_.clear();
  shape_text_.clear();
  copy_base_.clear();
  need_.clear();
  latest_.clear();
  prefix_.clear();
  root_convert_.reset();
  operand_shapes_ = false;
  if (absl::Status s = IndexOps(clone); !s.ok()) return s;
  for (const std::string& name : dropped_) names_.erase(name);  // free for the new copies
  if (absl::Status s = NameCopies(); !s.ok()) return s;
  IndexNeeds();
  if (absl::Status s = ResolveRoot(); !s.ok()) return s;
  std::string out;
  const auto copies = [&](const std::vector<OpId>& ops) -> absl::Status {
    for (OpId op : ops) {
      absl::StatusOr<std::string> line = CopyLine(op);
      if (!line.ok()) return line.status();
      out += *line;
    }
    return absl::OkStatus();
  };
  for (std::size_t k = 0; k < hc_->instructions.size(); ++k) {
    if (absl::Status s = copies(copies_before_[k]); !s.ok()) return s;
    if (dropped_.contains(hc_->instructions[k].name)) continue;
    absl::StatusOr<std::string> line = Instruction(k);
    if (!line.ok()) return line.status();
    out += *line;
    if (absl::Status s = copies(copies_after_[k]); !s.ok()) return s;
  }
  if (absl::Status s = copies(trailing_); !s.ok()) return s;
  if (root_convert_ && shape_text_.contains(root_source_)) {
    out += StartLine(root_start_, root_source_, *root_convert_);
    out += DoneLine(root_name_, root_start_);
  }
  return out;
}

absl::StatusOr<std::string> HloEmitter::Run() {
  IndexLines();
  IndexAliasEdges();
  // Each HLO computation the schedule covers, with its program instances.
  std::map<std::size_t, std::vector<ComputationId>> instances;
  for (std::size_t pc = 0; pc < in_.computations.size(); ++pc) {
    for (std::size_t c = 0; c < m_.computations.size(); ++c) {
      if (m_.computations[c].loc == in_.computations[pc].loc && !m_.computations[c].instructions.empty()) {
        instances[c].push_back(static_cast<ComputationId>(pc));
      }
    }
  }
  std::map<std::size_t, Written> written;
  for (std::size_t c : CalleesFirst()) {
    if (!instances.contains(c)) continue;
    hc_ = &m_.computations[c];
    absl::StatusOr<Written> w = WriteComputation(instances[c]);
    if (!w.ok()) return w.status();
    written[c] = *std::move(w);
  }
  // In text order; clones after their original's closing line.
  std::vector<std::size_t> order;
  for (const auto& [c, w] : written) order.push_back(c);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return m_.computations[a].instructions[0].loc.line < m_.computations[b].instructions[0].loc.line;
  });
  std::string out;
  std::size_t at = 0;
  for (std::size_t c : order) {
    hc_ = &m_.computations[c];
    out.append(text_.substr(at, LineStart(0) - at));
    out += written[c].body;
    at = LastInstructionEnd();
    if (written[c].clones.empty()) continue;
    const std::size_t close_end = ClosingLineEnd(*hc_);
    out.append(text_.substr(at, close_end - at));
    at = close_end;
    for (const std::string& clone : written[c].clones) out += "\n\n" + clone;
  }
  out.append(text_.substr(at));
  return out;
}

}  // namespace hlo_emit

absl::StatusOr<std::string> EmitHloWithMemorySpaces(std::string_view text,
                                                    const HloModule& module,
                                                    const Program& original,
                                                    const Program& rewritten) {
  return hlo_emit::HloEmitter(text, module, original, rewritten).Run();
}

}  // namespace memplan
