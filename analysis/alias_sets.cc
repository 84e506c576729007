#include "analysis/alias_sets.h"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/lifetimes.h"
#include "ir/diagnostic.h"
#include "ir/dims.h"

namespace memplan {
namespace {

// Union-find whose edges carry byte offsets: offset_[v] is v's offset
// relative to parent_[v], so Find also yields v's offset from its root.
class OffsetUnionFind {
 public:
  explicit OffsetUnionFind(std::size_t n) : parent_(n), offset_(n, 0), rank_(n, 0) {
    for (std::size_t i = 0; i < n; ++i) parent_[i] = static_cast<ValueId>(i);
  }

  // Root of v; sets *offset to v's offset from the root. Compresses the path.
  ValueId Find(ValueId v, Bytes* offset) {
    ValueId root = v;
    Bytes total = 0;
    while (parent_[root] != root) {
      total += offset_[root];
      root = parent_[root];
    }
    // Second pass: point every node on the path at the root.
    Bytes remaining = total;
    while (parent_[v] != root) {
      const ValueId next = parent_[v];
      const Bytes step = offset_[v];
      parent_[v] = root;
      offset_[v] = remaining;
      remaining -= step;
      v = next;
    }
    *offset = total;
    return root;
  }

  // Records offset(a) = offset(b) + delta. Returns false, leaving the sets
  // unchanged, if a and b are already joined at a different distance; then
  // *mismatch is the difference between the two distances.
  bool Join(ValueId a, ValueId b, Bytes delta, Bytes* mismatch) {
    Bytes oa = 0;
    Bytes ob = 0;
    const ValueId ra = Find(a, &oa);
    const ValueId rb = Find(b, &ob);
    if (ra == rb) {
      *mismatch = oa - (ob + delta);
      return *mismatch == 0;
    }
    // Root offsets: rb sits at oa - delta - ob from ra.
    const Bytes rb_from_ra = oa - delta - ob;
    if (rank_[ra] < rank_[rb]) {
      parent_[ra] = rb;
      offset_[ra] = -rb_from_ra;
    } else {
      parent_[rb] = ra;
      offset_[rb] = rb_from_ra;
      if (rank_[ra] == rank_[rb]) ++rank_[ra];
    }
    return true;
  }

 private:
  std::vector<ValueId> parent_;
  std::vector<Bytes> offset_;
  std::vector<std::int32_t> rank_;
};

class AliasBuilder {
 public:
  explicit AliasBuilder(const Program& program)
      : program_(program), uf_(program.values.size()) {}

  absl::Status JoinAll() {
    for (ValueId v = 0; v < NumValues(); ++v) {
      const Value& value = program_.values[v];
      if (value.alias == AliasKind::kNone || !IsValue(value.alias_of)) continue;
      const Bytes delta = value.alias == AliasKind::kView ? value.view_offset : 0;
      const SizeExpr* symbolic =
          value.alias == AliasKind::kView && value.view_offset_expr ? &*value.view_offset_expr : nullptr;
      if (symbolic) any_symbolic_ = true;
      if (absl::Status s = Join(v, value.alias_of, delta, symbolic); !s.ok()) return s;
    }
    for (ValueId v = 0; v < NumValues(); ++v) {
      for (const GatheredOperand& g : program_.values[v].gathers) {
        if (!IsValue(g.operand)) continue;
        if (absl::Status s = Join(g.operand, v, g.offset); !s.ok()) return s;
      }
    }
    for (const Op& op : program_.ops) {
      if (absl::Status s = JoinOp(op); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  absl::StatusOr<AliasSets> Finish() {
    AliasSets out;
    out.set_of_value.assign(program_.values.size(), kNoId);
    out.offset_of_value.assign(program_.values.size(), 0);
    std::vector<std::int32_t> set_of_root(program_.values.size(), kNoId);
    for (ValueId v = 0; v < NumValues(); ++v) {
      if (program_.values[v].is_timepoint) continue;
      Bytes offset = 0;
      const ValueId root = uf_.Find(v, &offset);
      if (set_of_root[root] == kNoId) {
        set_of_root[root] = static_cast<std::int32_t>(out.sets.size());
        out.sets.emplace_back();
      }
      out.set_of_value[v] = set_of_root[root];
      out.offset_of_value[v] = offset;
      out.sets[set_of_root[root]].members.push_back(v);
    }
    const std::vector<Lifetime> lifetimes = ValueLifetimes(program_);
    for (AliasSet& set : out.sets) {
      Normalise(set, out.offset_of_value);
      if (absl::Status s = ResolvePin(set); !s.ok()) return s;
      for (ValueId v : set.members) set.lifetime = DominantLifetime(set.lifetime, lifetimes[v]);
      if (absl::Status s = CheckConstantWrites(set, lifetimes); !s.ok()) return s;
    }
    if (absl::Status s = SymbolicOffsets(out, out.symbolic_offset_of_value); !s.ok()) return s;
    return out;
  }

 private:
  ValueId NumValues() const { return static_cast<ValueId>(program_.values.size()); }
  bool IsValue(ValueId v) const { return v >= 0 && v < NumValues(); }
  const Computation* Callee(const Op& op, std::size_t i) const {
    if (i >= op.callees.size()) return nullptr;
    const ComputationId c = op.callees[i];
    if (c < 0 || c >= static_cast<ComputationId>(program_.computations.size())) return nullptr;
    return &program_.computations[c];
  }
  absl::Status Error(ValueId v, const std::string& message) const {
    return LocatedError(program_.source, program_.values[v].loc, message);
  }
  std::string Name(ValueId v) const { return "%" + program_.values[v].name; }

  // Joins a (the derived value, blamed on conflict) with b at offset(a) = offset(b) + delta.
  // `symbolic`: the delta as an expression over dims (a dynamic view), else null.
  absl::Status Join(ValueId a, ValueId b, Bytes delta, const SizeExpr* symbolic = nullptr) {
    if (program_.values[a].is_timepoint || program_.values[b].is_timepoint) return absl::OkStatus();
    Bytes mismatch = 0;
    if (uf_.Join(a, b, delta, &mismatch)) {
      links_.push_back(Link{a, b, delta, symbolic});
      return absl::OkStatus();
    }
    return Error(a, "conflicting aliasing: " + Name(a) + " would sit at two byte offsets " +
                        std::to_string(mismatch < 0 ? -mismatch : mismatch) +
                        " bytes apart in one buffer");
  }

  // Joins derived[i] with base[offset + i] position-wise.
  absl::Status JoinLists(const std::vector<ValueId>& derived, const std::vector<ValueId>& base,
                         std::size_t offset = 0) {
    for (std::size_t i = 0; i < derived.size() && i + offset < base.size(); ++i) {
      if (absl::Status s = Join(derived[i], base[i + offset], 0); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  absl::Status JoinOp(const Op& op) {
    switch (op.kind) {
      case OpKind::kWhile: {
        for (std::size_t i = 0; i < 2; ++i) {
          if (const Computation* c = Callee(op, i)) {
            if (absl::Status s = JoinLists(c->params, op.operands); !s.ok()) return s;
          }
        }
        if (const Computation* body = Callee(op, 1)) {
          if (absl::Status s = JoinLists(body->results, op.operands); !s.ok()) return s;
        }
        return JoinLists(op.results, op.operands);
      }
      case OpKind::kConditional:
        for (std::size_t i = 0; i < op.callees.size(); ++i) {
          const Computation* branch = Callee(op, i);
          if (branch == nullptr) continue;
          // Operand 0 is the predicate; args start at operand 1.
          if (absl::Status s = JoinLists(branch->params, op.operands, 1); !s.ok()) return s;
          if (absl::Status s = JoinLists(op.results, branch->results); !s.ok()) return s;
        }
        return absl::OkStatus();
      case OpKind::kCall:
      case OpKind::kExecute:
        if (const Computation* callee = Callee(op, 0)) {
          if (absl::Status s = JoinLists(callee->params, op.operands); !s.ok()) return s;
          return JoinLists(op.results, callee->results);
        }
        return absl::OkStatus();
      case OpKind::kAsyncDone:
        return JoinLists(op.results, op.operands);
      case OpKind::kCompute:
      case OpKind::kConstant:
      case OpKind::kAsyncStart:
        return absl::OkStatus();
    }
    return absl::OkStatus();
  }

  // The values linking `from` to `to` in one alias set, shortest first found
  // (breadth-first over the joins made), as "%a -> %b -> %c": tells a user
  // which tie, call or branch made two values share storage. O(joins); only
  // on the error path.
  std::string SharingPath(ValueId from, ValueId to) const {
    std::unordered_map<ValueId, std::vector<ValueId>> next;
    for (const Link& link : links_) {
      next[link.a].push_back(link.b);
      next[link.b].push_back(link.a);
    }
    std::unordered_map<ValueId, ValueId> came_from = {{from, from}};
    std::deque<ValueId> queue = {from};
    while (!queue.empty() && !came_from.contains(to)) {
      const ValueId x = queue.front();
      queue.pop_front();
      for (ValueId y : next[x]) {
        if (came_from.emplace(y, x).second) queue.push_back(y);
      }
    }
    if (!came_from.contains(to)) return Name(from) + " ... " + Name(to);
    std::vector<ValueId> path = {to};
    while (path.back() != from) path.push_back(came_from[path.back()]);
    std::string text;
    for (auto it = path.rbegin(); it != path.rend(); ++it) text += (text.empty() ? "" : " -> ") + Name(*it);
    return text;
  }

  // Shifts offsets so the lowest member starts at 0 and sizes the set.
  void Normalise(AliasSet& set, std::vector<Bytes>& offsets) const {
    Bytes lowest = std::numeric_limits<Bytes>::max();
    for (ValueId v : set.members) lowest = std::min(lowest, offsets[v]);
    for (ValueId v : set.members) {
      offsets[v] -= lowest;
      set.size = std::max(set.size, offsets[v] + program_.values[v].size);
    }
  }

  absl::Status ResolvePin(AliasSet& set) const {
    ValueId pinned_by = kNoId;
    for (ValueId v : set.members) {
      const std::optional<MemorySpace>& space = program_.values[v].space;
      if (!space) continue;
      if (pinned_by == kNoId) {
        pinned_by = v;
        set.space = space;
      } else if (*space != *set.space) {
        return Error(v, Name(v) + " is pinned to memory space " + std::to_string(*space) +
                            " but shares storage with " + Name(pinned_by) +
                            " pinned to memory space " + std::to_string(*set.space));
      }
    }
    return absl::OkStatus();
  }

  absl::Status CheckConstantWrites(const AliasSet& set, const std::vector<Lifetime>& lifetimes) const {
    const auto is_constant = [&](ValueId v) { return lifetimes[v] == Lifetime::kConstant; };
    const auto constant = std::find_if(set.members.begin(), set.members.end(), is_constant);
    if (constant == set.members.end()) return absl::OkStatus();
    for (ValueId v : set.members) {
      const Value& value = program_.values[v];
      if (value.alias == AliasKind::kTied) {
        return Error(v, Name(v) + " writes in place into constant " + Name(*constant) +
                            " (constants are read-only; storage shared along " +
                            SharingPath(*constant, v) + ")");
      }
      // A fresh (not view) result of a compute op overwrites the set's
      // storage, e.g. a loop-carried value rewritten by the loop body whose
      // init is a constant.
      const bool computed = value.alias == AliasKind::kNone && value.defining_op != kNoId &&
                            program_.ops[value.defining_op].kind == OpKind::kCompute;
      if (computed && !is_constant(v)) {
        return Error(v, Name(v) + " is written by " + program_.ops[value.defining_op].opcode +
                            " but shares storage with constant " + Name(*constant) +
                            " (constants are read-only; storage shared along " +
                            SharingPath(*constant, v) + "); copy the constant first, e.g. %" +
                            program_.values[*constant].name + "_copy = copy(" + Name(*constant) +
                            "), and use the copy");
      }
    }
    return absl::OkStatus();
  }

  // A join made: offset(a) = offset(b) + delta (`symbolic` when it is an
  // expression over dims).
  struct Link {
    ValueId a = kNoId;
    ValueId b = kNoId;
    Bytes delta = 0;
    const SizeExpr* symbolic = nullptr;
  };

  // Each member's offset as an expression, for the sets holding a dynamic
  // view: breadth-first over the joins from the set's lowest-id member at
  // offset 0, adding a join's delta forwards and subtracting a constant one
  // backwards. Two paths to a member must give equal expressions.
  absl::Status SymbolicOffsets(const AliasSets& out, std::map<ValueId, SizeExpr>& symbolic) const {
    if (!any_symbolic_) return absl::OkStatus();
    std::vector<bool> dynamic_set(out.sets.size(), false);
    for (const Link& link : links_) {
      if (link.symbolic) dynamic_set[out.set_of_value[link.a]] = true;
    }
    std::unordered_map<ValueId, std::vector<std::size_t>> touching;
    for (std::size_t i = 0; i < links_.size(); ++i) {
      if (!dynamic_set[out.set_of_value[links_[i].a]]) continue;
      touching[links_[i].a].push_back(i);
      touching[links_[i].b].push_back(i);
    }
    const std::vector<std::string> names = DimNames(program_);
    for (std::size_t s = 0; s < out.sets.size(); ++s) {
      if (!dynamic_set[s]) continue;
      const std::vector<ValueId>& members = out.sets[s].members;
      const auto start = std::find_if(members.begin(), members.end(),
                                      [&](ValueId v) { return out.offset_of_value[v] == 0; });
      std::unordered_map<ValueId, SizeExpr> at = {{*start, SizeExpr()}};
      std::deque<ValueId> queue = {*start};
      while (!queue.empty()) {
        const ValueId x = queue.front();
        queue.pop_front();
        for (std::size_t i : touching[x]) {
          const Link& link = links_[i];
          const bool forward = link.b == x;
          const ValueId y = forward ? link.a : link.b;
          const SizeExpr delta = link.symbolic ? *link.symbolic : SizeExpr::Constant(link.delta);
          if (!forward && at.contains(y)) {  // a join already placed: it must agree
            if (!(at.at(y) + delta == at.at(x))) {
              return Error(x, "conflicting aliasing: " + Name(x) + " would sit at byte offsets " +
                                  at.at(x).ToString(names) + " and " +
                                  (at.at(y) + delta).ToString(names) + " in one buffer");
            }
            continue;
          }
          std::optional<SizeExpr> offset;
          if (forward) {
            offset = at.at(x) + (link.symbolic ? *link.symbolic : SizeExpr::Constant(link.delta));
          } else if (!link.symbolic) {
            offset = at.at(x).MinusConstant(link.delta);
          }
          if (!offset) {
            return Error(y, "cannot place " + Name(y) + " in its buffer at an offset given by dims: " +
                                "it is reached from " + Name(x) + " at " + at.at(x).ToString(names) +
                                " only by going back through a view; define the view from its operand");
          }
          auto [it, fresh] = at.emplace(y, *offset);
          if (fresh) {
            queue.push_back(y);
          } else if (!(it->second == *offset)) {
            return Error(y, "conflicting aliasing: " + Name(y) + " would sit at byte offsets " +
                                it->second.ToString(names) + " and " + offset->ToString(names) +
                                " in one buffer");
          }
        }
      }
      for (ValueId v : members) {
        auto it = at.find(v);
        if (it != at.end() && !it->second.IsConstant()) symbolic.emplace(v, it->second);
      }
    }
    return absl::OkStatus();
  }

  const Program& program_;
  OffsetUnionFind uf_;
  std::vector<Link> links_;  // every successful Join (error messages, symbolic offsets)
  bool any_symbolic_ = false;
};

}  // namespace

absl::StatusOr<AliasSets> ComputeAliasSets(const Program& program) {
  AliasBuilder builder(program);
  if (absl::Status s = builder.JoinAll(); !s.ok()) return s;
  return builder.Finish();
}

}  // namespace memplan
