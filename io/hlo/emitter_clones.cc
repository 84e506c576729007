// --emit-hlo's call sites and clones (io/hlo/emitter_state.h): the order the
// computations are written in, one body per distinct plan of a computation's
// call sites, and the clones' headers, names and callee edits.
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

namespace memplan::hlo_emit {

// The HLO computations the schedule covers reached from the entry, each
// after the computations it calls for control flow, so a caller is written
// knowing which clone each of its call sites calls.
std::vector<std::size_t> HloEmitter::CalleesFirst() const {
  std::vector<std::size_t> order;
  std::vector<bool> seen(m_.computations.size(), false);
  const auto visit = [&](const auto& self, std::size_t c) -> void {
    if (seen[c]) return;
    seen[c] = true;
    for (const HloInstruction& in : m_.computations[c].instructions) {
      for (const std::string& callee : CalleesOf(in).control) {
        const int at = FindHloComputation(m_, callee);
        if (at >= 0) self(self, static_cast<std::size_t>(at));
      }
    }
    order.push_back(c);
  };
  visit(visit, m_.entry);
  return order;
}

// The current HLO computation for all its program instances (one per call
// site). As XLA's call-graph flattening gives each call site its own
// computation, a call site planned unlike every earlier one gets a clone
// (`%f.clone`, `%f.clone.1`, ...); call sites planned alike share one, so a
// module planned the same everywhere is written as read.
absl::StatusOr<HloEmitter::Written> HloEmitter::WriteComputation(const std::vector<ComputationId>& instances) {
  const std::set<std::string> names = names_;
  std::vector<std::string> plans;                 // distinct plans, first call site's first
  std::vector<ComputationId> planned_by;          // the first instance of each
  std::map<ComputationId, std::size_t> plan_of;
  std::set<std::string> first_names;
  for (ComputationId pc : instances) {
    names_ = names;
    absl::StatusOr<std::string> text = WriteInstance(pc, false);
    if (!text.ok()) return text.status();
    const auto it = std::find(plans.begin(), plans.end(), *text);
    plan_of[pc] = static_cast<std::size_t>(it - plans.begin());
    if (it != plans.end()) continue;
    if (plans.empty()) first_names = names_;
    plans.push_back(*std::move(text));
    planned_by.push_back(pc);
  }
  names_ = std::move(first_names);
  Written out{plans[0], {}};
  std::vector<std::string> clone_names = {hc_->name};
  // A clone repeats the original's header (renamed) and closing line,
  // after the clones of the computations its fusions call.
  const std::size_t close = LastInstructionEnd();
  for (std::size_t p = 1; p < plans.size(); ++p) {
    clone_names.push_back(UniqueComputation(hc_->name + ".clone"));
    absl::StatusOr<std::string> body = WriteInstance(planned_by[p], true);
    if (!body.ok()) return body.status();
    out.clones.push_back(fused_clones_ + CloneHeader(*hc_, clone_names[p], rename_) + *body +
                         std::string(text_.substr(close, ClosingLineEnd(*hc_) - close)));
  }
  for (ComputationId pc : instances) written_as_[pc] = clone_names[plan_of.at(pc)];
  return out;
}

// The header of `c` (`%f (p: f32[2]) -> f32[2] {`) for its clone `name`,
// parameters renamed as `rename` says.
std::string HloEmitter::CloneHeader(const HloComputation& c, const std::string& name,
                                    const std::map<std::string, std::string>& rename) const {
  const std::size_t begin = Offset(c.loc);
  const std::size_t end = line_starts_[static_cast<std::size_t>(c.instructions[0].loc.line) - 1];
  const std::string_view header = text_.substr(begin, end - begin);
  std::size_t at = header[0] == '%' ? 1 : 0;
  std::string out = "%" + name;
  at += c.name.size();
  while (at < header.size()) {
    if (!IsHloNameChar(header[at])) {
      out += header[at++];
      continue;
    }
    std::size_t word_end = at;
    while (word_end < header.size() && IsHloNameChar(header[word_end])) ++word_end;
    const std::string word(header.substr(at, word_end - at));
    std::size_t colon = word_end;
    while (colon < header.size() && header[colon] == ' ') ++colon;
    const auto it = rename.find(word);
    out += colon < header.size() && header[colon] == ':' && it != rename.end() ? it->second : word;
    at = word_end;
  }
  return out;
}

// Where the line closing `c` (its '}') ends, without the newline.
std::size_t HloEmitter::ClosingLineEnd(const HloComputation& c) const {
  std::size_t at = line_starts_[static_cast<std::size_t>(c.instructions.back().loc.line) - 1];
  while (at < text_.size()) {
    const std::size_t first = text_.find_first_not_of(" \t", at);
    const std::size_t nl = std::min(text_.find('\n', at), text_.size());
    if (first == std::string_view::npos || text_[first] == '}') return nl;
    at = nl + 1;
  }
  return text_.size();
}

// XLA gives each fusion its own fused computation, so a clone's fusion
// calls a clone of it (named as XLA's cloning names it), written into
// fused_clones_ before the clone; returns that clone's name.
std::string HloEmitter::FusedClone(const std::string& callee) {
  const int c = FindHloComputation(m_, callee);
  if (c < 0 || m_.computations[static_cast<std::size_t>(c)].instructions.empty()) return callee;
  const HloComputation& fc = m_.computations[static_cast<std::size_t>(c)];
  std::map<std::string, std::string> rename;
  for (const HloInstruction& in : fc.instructions) rename[in.name] = Unique(in.name + ".clone");
  std::vector<TextEdit> edits;
  const auto rename_at = [&](SourceLocation loc, const std::string& name, const std::string& to) {
    const std::size_t at = Offset(loc) + (text_[Offset(loc)] == '%' ? 1 : 0);
    edits.push_back({at, at + name.size(), to});
  };
  for (const HloInstruction& in : fc.instructions) {
    rename_at(in.loc, in.name, rename.at(in.name));
    for (const HloOperand& o : in.operands) {
      if (const auto it = rename.find(o.name); it != rename.end()) rename_at(o.loc, o.name, it->second);
    }
    const HloCallees callees = CalleesOf(in);
    if (in.opcode == "fusion" && in.Find("calls") != nullptr && !callees.other.empty()) {
      rename_at(in.Find("calls")->loc, callees.other[0], FusedClone(callees.other[0]));
    }
  }
  std::stable_sort(edits.begin(), edits.end(),
                   [](const TextEdit& a, const TextEdit& b) { return a.begin < b.begin; });
  const std::string name = UniqueComputation(fc.name + ".clone");
  std::string out = CloneHeader(fc, name, rename);
  std::size_t at = line_starts_[static_cast<std::size_t>(fc.instructions[0].loc.line) - 1];
  for (const TextEdit& e : edits) {
    out.append(text_.substr(at, e.begin - at));
    out += e.text;
    at = e.end;
  }
  out.append(text_.substr(at, ClosingLineEnd(fc) - at));
  fused_clones_ += out + "\n\n";
  return name;
}

// In a clone, a fusion calls its fused computation's clone.
void HloEmitter::FusionEdits(std::size_t k, std::vector<TextEdit>& edits) {
  const HloInstruction& in = hc_->instructions[k];
  const HloAttribute* calls = in.Find("calls");
  const HloCallees callees = CalleesOf(in);
  if (rename_.empty() || in.opcode != "fusion" || calls == nullptr || callees.other.empty()) return;
  const std::size_t at = Offset(calls->loc) + (text_[Offset(calls->loc)] == '%' ? 1 : 0);
  edits.push_back({at, at + callees.other[0].size(), FusedClone(callees.other[0])});
}

// An instruction's name as written (its clone's when writing a clone).
std::string HloEmitter::Named(const std::string& name) const {
  const auto it = rename_.find(name);
  return it == rename_.end() ? name : it->second;
}

std::string HloEmitter::UniqueComputation(const std::string& base) {
  std::string name = base;
  for (int k = 1; computation_names_.contains(name); ++k) name = base + "." + std::to_string(k);
  computation_names_.insert(name);
  return name;
}

// A while, call or conditional names the computations (clones) its own call
// site's plan was written as.
void HloEmitter::CalleeEdits(std::size_t k, std::vector<TextEdit>& edits) const {
  const auto op = op_of_.find(k);
  if (op == op_of_.end()) return;
  const std::vector<ComputationId>& callees = in_.ops[op->second].callees;
  const HloCallees names = CalleesOf(hc_->instructions[k]);
  if (names.control.size() != callees.size()) return;
  std::map<std::size_t, std::size_t> seen;  // attribute offset -> names passed in it
  for (std::size_t i = 0; i < callees.size(); ++i) {
    const auto written = written_as_.find(callees[i]);
    const std::size_t value = Offset(names.control_locs[i]);
    std::size_t skip = seen[value]++;
    // The name's place in the attribute's value (a branch list names several).
    std::size_t at = value;
    while (true) {
      while (!IsHloNameChar(text_[at])) ++at;
      if (skip == 0) break;
      while (IsHloNameChar(text_[at])) ++at;
      --skip;
    }
    if (written != written_as_.end() && written->second != names.control[i]) {
      edits.push_back({at, at + names.control[i].size(), written->second});
    }
  }
}

}  // namespace memplan::hlo_emit
