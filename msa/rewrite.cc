#include "msa/rewrite.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "ir/validate.h"

namespace memplan {
namespace {

// Where a buffer's data is held: the default chunk or alternate segment k.
using Residency = int;
constexpr Residency kDefaultResidency = -1;

struct PendingCopy {
  ValueId started = kNoId;  // the copy-start's result
  ComputationId computation = kNoId;
  ValueId source = kNoId;
};

class Rewriter {
 public:
  Rewriter(const Program& program, const ProgramAnalysis& analysis, const MsaResult& result)
      : in_(program), a_(analysis), r_(result), out_(program) {}

  absl::StatusOr<Program> Run();

 private:
  const Buffer& BufferAt(BufferId b) const { return a_.buffers.buffers[b]; }
  bool HasSegments(BufferId b) const {
    return b >= 0 && static_cast<std::size_t>(b) < r_.alternate.size() && !r_.alternate[b].empty();
  }
  bool Whole(ValueId v) const {
    const BufferId b = a_.value_buffer[v];
    return a_.value_offset[v] == 0 && in_.values[v].size == BufferAt(b).size;
  }

  void CollectCopies();
  void IndexArrivals();
  void IndexCalls();
  ComputationId OwnerAt(TimeStep t) const;
  void PlaceAcrossCalls(std::size_t c, TimeStep& start, ComputationId& done_in);
  Residency ResidencyAt(BufferId b, TimeStep t) const;
  std::string Unique(const std::string& base);
  ValueId NewValue(const std::string& name, ValueId like, ComputationId c);
  OpId NewOp(std::string opcode, OpKind kind, std::vector<ValueId> operands, ValueId result,
             ComputationId c);
  void Produced(ValueId v, TimeStep t);
  std::string CopyLabel(std::size_t c) const;
  absl::Status IssueCopy(std::size_t c, ComputationId comp, TimeStep t);
  absl::Status CompleteCopy(std::size_t c, ComputationId comp);
  absl::Status RewriteOperands(OpId op, TimeStep t);
  void ReturnResidencies();

  const Program& in_;
  const ProgramAnalysis& a_;
  const MsaResult& r_;
  Program out_;
  std::vector<AsyncCopy> copies_;                        // r_.copies + the cross-program prefetch
  std::vector<int> destination_;                         // per prefetch: its alternate segment
  std::vector<std::vector<TimeStep>> arrival_;           // per buffer, per segment
  std::vector<std::vector<bool>> opened_;                // per buffer, per segment: by a copy
  // Per buffer: the value holding its data in each residency, as seen from
  // each computation (a value is visible only in its own computation; a
  // loop's or callee's parameters take over inside it).
  std::vector<std::map<std::pair<Residency, ComputationId>, ValueId>> current_;
  std::vector<Residency> produced_in_;                   // per old value
  std::vector<std::vector<OpId>> schedule_;              // per computation
  std::vector<PendingCopy> pending_;                     // per copy
  std::vector<OpId> call_site_;                          // per computation: its `call` op, or kNoId
  std::vector<std::vector<OpId>> ops_at_;                // per step
  // Per buffer, per segment: opened by a prefetch whose copy-done is
  // written in a caller, before the call whose callee's first step it
  // arrives at.
  std::vector<std::vector<bool>> done_before_call_;
  std::set<std::string> names_;
};

// The result's copies plus, for a cross-program prefetch, an explicit copy
// issued before the first step and done before the first read of its segment
// (its data is there when the run starts; the IR shows where it comes from).
void Rewriter::CollectCopies() {
  copies_ = r_.copies;
  destination_.assign(copies_.size(), -1);
  for (std::size_t c = 0; c < copies_.size(); ++c) {
    const AsyncCopy& copy = copies_[c];
    if (copy.kind != CopyKind::kPrefetch || !HasSegments(copy.buffer)) continue;
    const std::vector<Allocation>& segs = r_.alternate[copy.buffer];
    for (std::size_t k = 0; k < segs.size(); ++k) {
      if (segs[k].start == std::max<TimeStep>(copy.start, 0)) destination_[c] = static_cast<int>(k);
    }
  }
  if (!r_.cross_program_prefetch || !HasSegments(r_.cross_program_prefetch->buffer)) return;
  const BufferId b = r_.cross_program_prefetch->buffer;
  const Buffer& buffer = BufferAt(b);
  const std::vector<Allocation>& segs = r_.alternate[b];
  for (std::size_t k = 0; k < segs.size(); ++k) {
    if (segs[k].start != buffer.start) continue;
    auto use =
        std::lower_bound(buffer.use_times().begin(), buffer.use_times().end(), segs[k].start);
    if (use == buffer.use_times().end() || *use > segs[k].end) return;  // never read there
    // The copy-done goes into the entry: before the first read, or, when
    // that read is inside a called computation, before the entry's first op.
    TimeStep done = std::max<TimeStep>(*use, 0);
    bool entry_step = false;
    for (OpId op : a_.schedule.order) {
      if (a_.schedule.op_time[op] == done && in_.ops[op].computation == in_.entry) entry_step = true;
    }
    if (!entry_step) done = 0;
    copies_.push_back(AsyncCopy{b, CopyKind::kPrefetch, kDefaultSpace, segs[k].space, -1, done,
                                buffer.size});
    destination_.push_back(static_cast<int>(k));
  }
}

void Rewriter::IndexArrivals() {
  arrival_.resize(r_.alternate.size());
  for (std::size_t b = 0; b < r_.alternate.size(); ++b) {
    for (const Allocation& s : r_.alternate[b]) arrival_[b].push_back(s.start);
  }
  opened_.resize(r_.alternate.size());
  for (std::size_t b = 0; b < r_.alternate.size(); ++b) opened_[b].assign(r_.alternate[b].size(), false);
  for (std::size_t c = 0; c < copies_.size(); ++c) {
    if (destination_[c] < 0) continue;
    TimeStep& arrival = arrival_[copies_[c].buffer][destination_[c]];
    arrival = std::max(arrival, copies_[c].done);
    opened_[copies_[c].buffer][destination_[c]] = true;
  }
}

void Rewriter::IndexCalls() {
  call_site_.assign(in_.computations.size(), kNoId);
  for (OpId op = 0; op < static_cast<OpId>(in_.ops.size()); ++op) {
    if (in_.ops[op].kind != OpKind::kCall || a_.schedule.op_time[op] == kNoId) continue;
    for (ComputationId callee : in_.ops[op].callees) call_site_[callee] = op;
  }
  done_before_call_.resize(r_.alternate.size());
  for (std::size_t b = 0; b < r_.alternate.size(); ++b) {
    done_before_call_[b].assign(r_.alternate[b].size(), false);
  }
}

// The computation whose ops run at step t (the entry before step 0), or
// kNoId for a step without ops.
ComputationId Rewriter::OwnerAt(TimeStep t) const {
  if (t < 0) return in_.entry;
  if (static_cast<std::size_t>(t) >= ops_at_.size() || ops_at_[t].empty()) return kNoId;
  return in_.ops[ops_at_[t].front()].computation;
}

// Copy c issued after step `start` and done before step `done` runs in two
// computations when one of them is a called computation: XLA writes a
// copy's start and done in one computation. Nothing runs between a call and
// its callee's first step, nor between the callee's last step and the call's
// own step (a call does no work of its own), so a done at a callee's first
// step is written in the caller right before the call, and a start after a
// callee's last step right after the call, through nested calls as far as
// needed to meet in one computation. Sets `start` to the step the copy-start
// follows and `done_in` to the computation of the copy-done; leaves both
// alone when no such computation exists (CompleteCopy then refuses it).
void Rewriter::PlaceAcrossCalls(std::size_t c, TimeStep& start, ComputationId& done_in) {
  const TimeStep done = copies_[c].done;
  const ComputationId from = OwnerAt(start);
  const ComputationId to = OwnerAt(done);
  if (from == kNoId || to == kNoId || from == to) return;
  // The computations the done may be written in: its own, then the callers
  // of those whose first step it is.
  std::vector<ComputationId> done_scopes = {to};
  for (ComputationId x = to; call_site_[x] != kNoId && a_.schedule.spans[x].first == done;) {
    x = in_.ops[call_site_[x]].computation;
    done_scopes.push_back(x);
  }
  ComputationId x = from;
  TimeStep after = start;
  while (std::find(done_scopes.begin(), done_scopes.end(), x) == done_scopes.end()) {
    if (call_site_[x] == kNoId || a_.schedule.spans[x].last != after) return;
    after = a_.schedule.op_time[call_site_[x]];
    x = in_.ops[call_site_[x]].computation;
  }
  if (after >= done) return;
  start = after;
  done_in = x;
  if (x != to && copies_[c].kind == CopyKind::kPrefetch && destination_[c] >= 0) {
    done_before_call_[copies_[c].buffer][destination_[c]] = true;
  }
}

Residency Rewriter::ResidencyAt(BufferId b, TimeStep t) const {
  if (!HasSegments(b)) return kDefaultResidency;
  const std::vector<Allocation>& segs = r_.alternate[b];
  auto it = std::upper_bound(segs.begin(), segs.end(), t,
                             [](TimeStep time, const Allocation& a) { return time < a.start; });
  if (it == segs.begin()) return kDefaultResidency;
  const auto k = static_cast<std::size_t>(std::prev(it) - segs.begin());
  return segs[k].end >= t && t >= arrival_[b][k] ? static_cast<Residency>(k) : kDefaultResidency;
}

std::string Rewriter::Unique(const std::string& base) {
  std::string name = base;
  for (int n = 1; names_.count(name) > 0; ++n) name = absl::StrCat(base, ".", n);
  names_.insert(name);
  return name;
}

ValueId Rewriter::NewValue(const std::string& name, ValueId like, ComputationId c) {
  Value v;
  v.name = Unique(name);
  v.size = out_.values[like].size;
  v.size_expr = out_.values[like].size_expr;  // ties compare sizes as expressions
  v.type = out_.values[like].type;
  v.computation = c;
  out_.values.push_back(std::move(v));
  return static_cast<ValueId>(out_.values.size() - 1);
}

OpId Rewriter::NewOp(std::string opcode, OpKind kind, std::vector<ValueId> operands, ValueId result,
                     ComputationId c) {
  Op op;
  op.opcode = std::move(opcode);
  op.kind = kind;
  op.operands = std::move(operands);
  op.results = {result};
  op.computation = c;
  out_.ops.push_back(std::move(op));
  const auto id = static_cast<OpId>(out_.ops.size() - 1);
  out_.values[result].defining_op = id;
  schedule_[c].push_back(id);
  return id;
}

// Records that old value `v` came into being at step t: where it lives and,
// when it covers its whole buffer, that it is now the buffer's current value
// there.
void Rewriter::Produced(ValueId v, TimeStep t) {
  const BufferId b = a_.value_buffer[v];
  if (b == kNoId) return;
  Residency q = ResidencyAt(b, t);
  // An entry parameter is provided before any copy runs: never in a copy's
  // segment. (A called computation's parameter is whatever its caller
  // passes, which the caller's operand rewrite makes that residency.)
  if (in_.values[v].defining_op == kNoId && in_.values[v].computation == in_.entry &&
      q != kDefaultResidency && opened_[b][q]) {
    q = kDefaultResidency;
  }
  produced_in_[v] = q;
  if (Whole(v)) current_[b][{q, in_.values[v].computation}] = v;
  Value& value = out_.values[v];
  if (q != kDefaultResidency && value.alias == AliasKind::kNone && !value.space) {
    value.space = r_.alternate[b][q].space;
  }
}

std::string Rewriter::CopyLabel(std::size_t c) const {
  const AsyncCopy& copy = copies_[c];
  return absl::StrCat("copy ", c, " (", copy.kind == CopyKind::kPrefetch ? "prefetch" : "eviction",
                      " of buffer '", BufferAt(copy.buffer).name.str(), "', time [", copy.start, ", ",
                      copy.done, "])");
}

absl::Status Rewriter::IssueCopy(std::size_t c, ComputationId comp, TimeStep t) {
  const AsyncCopy& copy = copies_[c];
  if (copy.buffer < 0 || static_cast<std::size_t>(copy.buffer) >= a_.buffers.buffers.size() ||
      BufferAt(copy.buffer).values.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot rewrite copy ", c, ": its buffer has no values to copy"));
  }
  const Residency from = copy.kind == CopyKind::kPrefetch ? kDefaultResidency
                                                          : ResidencyAt(copy.buffer, std::max<TimeStep>(t, 0));
  auto it = current_[copy.buffer].find({from, comp});
  if (it == current_[copy.buffer].end()) {
    for (const auto& [where, value] : current_[copy.buffer]) {
      if (where.first != from) continue;
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot rewrite ", CopyLabel(c), ": its source %", out_.values[value].name,
          " is not visible in @", in_.computations[comp].name,
          " (copies across control flow are not rewritten)"));
    }
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot rewrite ", CopyLabel(c), ": the buffer holds no data in space ", copy.from_space,
        " when the copy starts"));
  }
  const ValueId source = it->second;
  if (out_.values[source].computation != comp) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot rewrite ", CopyLabel(c), ": its source %", out_.values[source].name,
        " is not visible in @", in_.computations[comp].name,
        " (copies across control flow are not rewritten)"));
  }
  const char* suffix = copy.kind == CopyKind::kPrefetch ? ".prefetch" : ".evict";
  const ValueId started = NewValue(out_.values[source].name + suffix, source, comp);
  out_.values[started].space = copy.to_space;
  NewOp("copy-start", OpKind::kAsyncStart, {source}, started, comp);
  pending_[c] = PendingCopy{started, comp, source};
  return absl::OkStatus();
}

absl::Status Rewriter::CompleteCopy(std::size_t c, ComputationId comp) {
  const AsyncCopy& copy = copies_[c];
  const PendingCopy& p = pending_[c];
  if (p.started == kNoId) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot rewrite ", CopyLabel(c), ": it is done before it starts"));
  }
  if (p.computation != comp) {
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot rewrite ", CopyLabel(c), ": it starts in @", in_.computations[p.computation].name,
        " but is done in @", in_.computations[comp].name,
        " (copies across control flow are not rewritten)"));
  }
  Residency to = kDefaultResidency;
  if (copy.kind == CopyKind::kPrefetch) {
    if (destination_[c] < 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot rewrite ", CopyLabel(c), ": no alternate segment starts at time ", copy.start));
    }
    to = destination_[c];
  }
  const char* suffix = copy.kind == CopyKind::kPrefetch ? ".prefetched" : ".evicted";
  const ValueId done = NewValue(out_.values[p.source].name + suffix, p.source, comp);
  out_.values[done].space = copy.to_space;
  NewOp("copy-done", OpKind::kAsyncDone, {p.started}, done, comp);
  current_[copy.buffer][{to, comp}] = done;
  return absl::OkStatus();
}

absl::Status Rewriter::RewriteOperands(OpId op, TimeStep t) {
  const ComputationId comp = in_.ops[op].computation;
  // A while or call passes its operands in before its callees run (the
  // flattened schedule gives the op its step after them).
  TimeStep entry = t;
  TimeStep callee_first = kNoId;  // a call's callee's first step
  const Op& o = in_.ops[op];
  if (o.kind == OpKind::kWhile || o.kind == OpKind::kCall) {
    for (ComputationId callee : o.callees) {
      const ComputationSpan& span = a_.schedule.spans[callee];
      if (span.first == kNoId || span.last < span.first) continue;
      entry = std::min(entry, span.first - 1);
      if (o.kind == OpKind::kCall) callee_first = span.first;
    }
  }
  std::map<std::tuple<ValueId, Bytes, Bytes>, ValueId> views;  // (base, offset, size) -> view
  for (std::size_t i = 0; i < in_.ops[op].operands.size(); ++i) {
    const ValueId v = in_.ops[op].operands[i];
    const BufferId b = a_.value_buffer[v];
    if (b == kNoId || !HasSegments(b)) continue;
    Residency q = ResidencyAt(b, entry);
    // A prefetch arriving at the callee's first step is done before the
    // call (PlaceAcrossCalls): the call passes the copy in.
    if (callee_first != kNoId) {
      const Residency arrived = ResidencyAt(b, callee_first);
      if (arrived != kDefaultResidency && arrived != q && done_before_call_[b][arrived] &&
          arrival_[b][arrived] == callee_first) {
        q = arrived;
      }
    }
    if (q == produced_in_[v]) continue;
    auto it = current_[b].find({q, comp});
    if (it == current_[b].end()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot rewrite the use of %", in_.values[v].name, " by ", in_.OpName(op), " at time ", t,
          ": buffer '", BufferAt(b).name.str(), "' holds no data in ",
          q == kDefaultResidency ? "default memory" : "its alternate segment", " then"));
    }
    ValueId replacement = it->second;
    if (out_.values[replacement].computation != comp) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot rewrite the use of %", in_.values[v].name, " by ", in_.OpName(op),
          ": its data is not visible in @", in_.computations[comp].name));
    }
    if (!Whole(v)) {
      const auto key = std::make_tuple(replacement, a_.value_offset[v], in_.values[v].size);
      auto [view, fresh] = views.emplace(key, kNoId);
      if (fresh) {
        const ValueId base = replacement;
        view->second =
            NewValue(absl::StrCat(in_.values[v].name, ".in.", out_.values[base].name), v, comp);
        Value& value = out_.values[view->second];
        value.alias = AliasKind::kView;
        value.alias_of = base;
        value.view_offset = a_.value_offset[v];
        const OpId view_op = NewOp("view", OpKind::kCompute, {base}, view->second, comp);
        out_.ops[view_op].cost.bytes_accessed = 0;
      }
      replacement = view->second;
    }
    // In place: operand_ranges stays parallel, and the replacement has v's
    // size, so a range of v still fits it.
    out_.ops[op].operands[i] = replacement;
    // A result written in place keeps aliasing the operand it now reads.
    for (ValueId result : out_.ops[op].results) {
      if (out_.values[result].alias != AliasKind::kNone && out_.values[result].alias_of == v) {
        out_.values[result].alias_of = replacement;
      }
      for (GatheredOperand& g : out_.values[result].gathers) {
        if (g.operand == v) g.operand = replacement;
      }
    }
  }
  return absl::OkStatus();
}

// A called computation returns what its last step left in each result's
// residency, e.g. a loop body returns the copy-done of a prefetch that
// carries a value out of the loop in alternate memory.
void Rewriter::ReturnResidencies() {
  for (ComputationId c = 0; c < static_cast<ComputationId>(in_.computations.size()); ++c) {
    const ComputationSpan& span = a_.schedule.spans[c];
    const bool entry = c == in_.entry;
    if (!entry && (span.first == kNoId || span.last < span.first)) continue;
    std::vector<ValueId>& results = out_.computations[c].results;
    for (ValueId& v : results) {
      const BufferId b = a_.value_buffer[v];
      if (b == kNoId || !HasSegments(b) || !Whole(v)) continue;
      // The entry returns its results in default memory: an output written
      // in place in fast memory is returned as its eviction's copy-done.
      const Residency q = entry ? kDefaultResidency : ResidencyAt(b, span.last);
      if (q == produced_in_[v]) continue;
      auto it = current_[b].find({q, c});
      if (it != current_[b].end()) v = it->second;
    }
  }
}

absl::StatusOr<Program> Rewriter::Run() {
  CollectCopies();
  IndexArrivals();
  current_.resize(a_.buffers.buffers.size());
  produced_in_.assign(in_.values.size(), kDefaultResidency);
  schedule_.resize(in_.computations.size());
  pending_.resize(copies_.size());
  for (const Value& v : in_.values) names_.insert(v.name);

  const FlatSchedule& schedule = a_.schedule;
  const auto steps = static_cast<TimeStep>(std::max<TimeStep>(1, schedule.time_steps));
  ops_at_.assign(static_cast<std::size_t>(steps), {});
  const std::vector<std::vector<OpId>>& ops_at = ops_at_;
  for (OpId op : schedule.order) ops_at_[schedule.op_time[op]].push_back(op);
  IndexCalls();
  // Copies by the step they start after (index start + 1) and are done before.
  std::vector<std::vector<std::size_t>> starts(static_cast<std::size_t>(steps) + 1);
  std::vector<std::vector<std::size_t>> dones(static_cast<std::size_t>(steps) + 1);
  std::vector<ComputationId> done_in(copies_.size(), kNoId);  // kNoId: the done step's
  for (std::size_t c = 0; c < copies_.size(); ++c) {
    TimeStep s = std::clamp<TimeStep>(copies_[c].start, -1, steps - 1);
    const TimeStep d = std::clamp<TimeStep>(copies_[c].done, s + 1, steps);
    if (d == copies_[c].done) PlaceAcrossCalls(c, s, done_in[c]);
    starts[static_cast<std::size_t>(s + 1)].push_back(c);
    dones[static_cast<std::size_t>(d)].push_back(c);
  }
  // Parameters come into being where their computation's span begins.
  std::vector<std::vector<ValueId>> params_at(static_cast<std::size_t>(steps));
  for (const Computation& comp : in_.computations) {
    for (ValueId p : comp.params) {
      const TimeStep t = a_.value_ranges[p].start;
      if (t >= 0 && t < steps) params_at[t].push_back(p);
    }
  }

  for (ValueId p : params_at[0]) Produced(p, 0);
  for (std::size_t c : starts[0]) {
    if (ops_at[0].empty()) return absl::FailedPreconditionError("cannot rewrite copies of a program without ops");
    if (absl::Status s = IssueCopy(c, in_.entry, -1); !s.ok()) return s;
  }
  ComputationId last_comp = in_.entry;
  for (TimeStep t = 0; t < steps; ++t) {
    const std::vector<OpId>& here = ops_at[t];
    if (here.empty()) continue;
    if (t > 0) {
      for (ValueId p : params_at[t]) Produced(p, t);
    }
    for (std::size_t c : dones[t]) {
      const ComputationId comp = done_in[c] != kNoId ? done_in[c] : in_.ops[here.front()].computation;
      if (absl::Status s = CompleteCopy(c, comp); !s.ok()) return s;
    }
    for (OpId op : here) {
      if (absl::Status s = RewriteOperands(op, t); !s.ok()) return s;
      schedule_[in_.ops[op].computation].push_back(op);
      for (ValueId v : in_.ops[op].results) Produced(v, t);
    }
    last_comp = in_.ops[here.back()].computation;
    for (std::size_t c : starts[t + 1]) {
      if (absl::Status s = IssueCopy(c, last_comp, t); !s.ok()) return s;
    }
  }
  for (std::size_t c : dones[steps]) {
    if (absl::Status s = CompleteCopy(c, pending_[c].computation); !s.ok()) return s;
  }
  for (std::size_t c = 0; c < schedule_.size(); ++c) out_.computations[c].ops = schedule_[c];
  ReturnResidencies();

  if (absl::Status s = ValidateProgram(out_, out_.source); !s.ok()) {
    return absl::InternalError(
        absl::StrCat("the rewritten program does not validate: ", s.message()));
  }
  return std::move(out_);
}

}  // namespace

absl::StatusOr<Program> RewriteSchedule(const Program& program, const ProgramAnalysis& analysis,
                                        const MsaResult& result) {
  return Rewriter(program, analysis, result).Run();
}

}  // namespace memplan
