#include "verify/schedule_checks.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace memplan {
namespace verify_schedule {

// Plain union-find over values: which values share storage.
class StorageSets {
 public:
  explicit StorageSets(const Program& p) : parent_(p.values.size()) {
    std::iota(parent_.begin(), parent_.end(), 0);
    for (ValueId v = 0; v < static_cast<ValueId>(p.values.size()); ++v) {
      const Value& value = p.values[v];
      if (value.alias != AliasKind::kNone && value.alias_of != kNoId) Join(v, value.alias_of);
      for (const GatheredOperand& g : value.gathers) Join(v, g.operand);
    }
    for (const Op& op : p.ops) JoinOp(p, op);
  }

  ValueId Find(ValueId v) {
    while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
    return v;
  }

 private:
  void Join(ValueId a, ValueId b) {
    if (a == kNoId || b == kNoId) return;
    parent_[Find(a)] = Find(b);
  }
  // Position-wise joins of two lists (the shorter's length).
  void JoinLists(const std::vector<ValueId>& a, const std::vector<ValueId>& b, std::size_t skip_a = 0) {
    for (std::size_t i = skip_a; i < a.size() && i - skip_a < b.size(); ++i) Join(a[i], b[i - skip_a]);
  }
  void JoinOp(const Program& p, const Op& op) {
    const auto comp = [&](std::size_t i) -> const Computation& { return p.computations[op.callees[i]]; };
    switch (op.kind) {
      case OpKind::kWhile:
        JoinLists(op.operands, op.results);
        for (std::size_t i = 0; i < op.callees.size(); ++i) JoinLists(op.operands, comp(i).params);
        if (op.callees.size() > 1) JoinLists(op.results, comp(1).results);
        break;
      case OpKind::kConditional:
        for (std::size_t i = 0; i < op.callees.size(); ++i) {
          JoinLists(op.operands, comp(i).params, 1);
          JoinLists(op.results, comp(i).results);
        }
        break;
      case OpKind::kCall:
      case OpKind::kExecute:
        for (std::size_t i = 0; i < op.callees.size(); ++i) {
          JoinLists(op.operands, comp(i).params);
          JoinLists(op.results, comp(i).results);
        }
        break;
      case OpKind::kAsyncDone:
        JoinLists(op.operands, op.results);
        break;
      default:
        break;
    }
  }

  std::vector<ValueId> parent_;
};

// Values that outlive or precede the run: explicit non-transient lifetimes,
// the entry's parameters and results, initializers' results, constants.
std::vector<char> LongLivedValues(const Program& p) {
  std::vector<char> long_lived(p.values.size(), 0);
  for (ValueId v = 0; v < static_cast<ValueId>(p.values.size()); ++v) {
    const Value& value = p.values[v];
    if (value.lifetime) {
      long_lived[v] = *value.lifetime != Lifetime::kTransient;
    } else if (value.defining_op == kNoId) {
      long_lived[v] = value.computation == p.entry;
    } else {
      long_lived[v] = p.ops[value.defining_op].kind == OpKind::kConstant;
    }
  }
  for (ComputationId c = 0; c < static_cast<ComputationId>(p.computations.size()); ++c) {
    if (c != p.entry && !p.computations[c].initializer) continue;
    for (ValueId v : p.computations[c].results) {
      if (!p.values[v].lifetime) long_lived[v] = 1;
    }
  }
  return long_lived;
}

class Checker {
 public:
  Checker(const Program& original, const Program& reordered)
      : p_(original), q_(reordered), storage_(original), long_lived_root_(p_.values.size(), 0),
        side_effects_(p_.computations.size(), -1) {
    const std::vector<char> long_lived = LongLivedValues(p_);
    for (ValueId v = 0; v < static_cast<ValueId>(p_.values.size()); ++v) {
      if (long_lived[v]) long_lived_root_[storage_.Find(v)] = 1;
    }
  }

  absl::Status Check() {
    if (q_.computations.size() != p_.computations.size() || q_.ops.size() != p_.ops.size()) {
      return absl::FailedPreconditionError("schedule: the reordered program has other computations or ops");
    }
    for (ComputationId c = 0; c < static_cast<ComputationId>(p_.computations.size()); ++c) {
      if (absl::Status s = CheckComputation(c); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

 private:
  std::string Where(ComputationId c) const { return "schedule: @" + p_.computations[c].name + ": "; }
  // "%result" for an op with results, else "opcode#id".
  std::string Name(OpId op) const { return (p_.ops[op].results.empty() ? "" : "%") + p_.OpName(op); }

  // Storage roots `op` touches, and whether it writes each.
  std::vector<std::pair<ValueId, bool>> Touches(const Op& op) {
    std::vector<std::pair<ValueId, bool>> out;
    const auto add = [&](ValueId v, bool write) {
      if (p_.values[v].is_timepoint) return;
      out.push_back({storage_.Find(v), write});
    };
    for (ValueId v : op.operands) {
      add(v, !op.callees.empty());
      const OpId producer = p_.values[v].defining_op;
      if (op.kind == OpKind::kAsyncDone && producer != kNoId && p_.ops[producer].kind == OpKind::kAsyncStart) {
        for (ValueId s : p_.ops[producer].operands) add(s, false);
      }
    }
    for (ValueId v : op.results) add(v, op.callees.empty() && p_.values[v].alias == AliasKind::kTied);
    std::sort(out.begin(), out.end());
    // One entry per root, a write if any touch writes.
    std::vector<std::pair<ValueId, bool>> merged;
    for (const auto& t : out) {
      if (!merged.empty() && merged.back().first == t.first) {
        merged.back().second = merged.back().second || t.second;
      } else {
        merged.push_back(t);
      }
    }
    return merged;
  }

  bool HasSideEffects(ComputationId c) {
    if (side_effects_[c] >= 0) return side_effects_[c];
    side_effects_[c] = 0;  // the call graph is a tree; no cycle reaches here again
    std::vector<char> param_root(p_.values.size(), 0);
    for (ValueId v : p_.computations[c].params) param_root[storage_.Find(v)] = 1;
    bool any = false;
    for (OpId op : p_.computations[c].ops) any = OpHasSideEffect(p_.ops[op], param_root) || any;
    side_effects_[c] = any;
    return any;
  }

  bool OpHasSideEffect(const Op& op, const std::vector<char>& param_root) {
    if (op.results.empty()) return true;
    bool callee = false;
    for (ComputationId k : op.callees) callee = HasSideEffects(k) || callee;
    if (callee) return true;
    for (ValueId r : op.results) {
      if (p_.values[r].alias != AliasKind::kTied) continue;
      const ValueId root = storage_.Find(r);
      if (param_root[root] || long_lived_root_[root]) return true;
    }
    return false;
  }

  absl::Status CheckComputation(ComputationId c) {
    const std::vector<OpId>& before = p_.computations[c].ops;
    const std::vector<OpId>& after = q_.computations[c].ops;
    std::vector<OpId> a = before;
    std::vector<OpId> b = after;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) return absl::FailedPreconditionError(Where(c) + "the ops are not those of the input");
    if (before == after) return absl::OkStatus();
    const bool waves = std::any_of(before.begin(), before.end(), [&](OpId op) { return p_.ops[op].wave.has_value(); });
    if (p_.computations[c].kind == ComputationKind::kRegion || waves) {
      return absl::FailedPreconditionError(Where(c) + (waves ? "ops with waves" : "a region") +
                                           " must keep the input order");
    }
    std::vector<std::int32_t> new_pos(p_.ops.size(), -1);
    for (std::size_t i = 0; i < after.size(); ++i) new_pos[after[i]] = static_cast<std::int32_t>(i);
    // Rule 3: data.
    for (OpId op : after) {
      for (ValueId v : p_.ops[op].operands) {
        const OpId producer = p_.values[v].defining_op;
        if (producer != kNoId && p_.ops[producer].computation == c && new_pos[producer] > new_pos[op]) {
          return absl::FailedPreconditionError(Where(c) + Name(op) + " runs before " + Name(producer) +
                                               ", which defines its operand %" + p_.values[v].name);
        }
      }
    }
    // Rule 4: side effects, in the input's relative order.
    std::vector<char> param_root(p_.values.size(), 0);
    for (ValueId v : p_.computations[c].params) param_root[storage_.Find(v)] = 1;
    OpId last = kNoId;
    for (OpId op : before) {
      if (!OpHasSideEffect(p_.ops[op], param_root)) continue;
      if (last != kNoId && new_pos[last] > new_pos[op]) {
        return absl::FailedPreconditionError(Where(c) + "ops with side effects " + Name(last) + " and " +
                                             Name(op) + " changed their order");
      }
      last = op;
    }
    // Rule 5: writers before each toucher, counted in both orders.
    if (absl::Status s = CheckWriters(c, before, false); !s.ok()) return s;
    return CheckWriters(c, after, true);
  }

  // First pass (`compare` false) records, per op and storage root, how many
  // writers of the root ran before it (and the writers in order); the second
  // compares.
  absl::Status CheckWriters(ComputationId c, const std::vector<OpId>& order, bool compare) {
    std::vector<std::int32_t> writers(p_.values.size(), 0);
    if (!compare) {
      counts_.clear();
      writer_ops_.clear();
    }
    for (OpId op : order) {
      for (const auto& [root, write] : Touches(p_.ops[op])) {
        const std::int32_t seen = writers[root];
        if (write) ++writers[root];
        if (!compare) {
          counts_[{op, root}] = seen;
          if (write) writer_ops_[root].push_back(op);
          continue;
        }
        const std::int32_t before = counts_[{op, root}];
        if (before == seen) continue;
        // The writer it crossed: the first of those now on the other side.
        const OpId crossed = writer_ops_[root][std::min(before, seen)];
        return absl::FailedPreconditionError(
            Where(c) + Name(op) + " changed its order relative to " + Name(crossed) +
            ", which writes the storage of %" + p_.values[root].name +
            " in place (an in-place op must stay the last reader of its operand's storage)");
      }
    }
    return absl::OkStatus();
  }

  const Program& p_;
  const Program& q_;
  StorageSets storage_;
  std::vector<char> long_lived_root_;
  std::vector<int> side_effects_;  // per computation: -1 unknown
  std::map<std::pair<OpId, ValueId>, std::int32_t> counts_;
  std::map<ValueId, std::vector<OpId>> writer_ops_;  // per storage root, in the input order
};

}  // namespace verify_schedule

absl::Status VerifyReorderedSchedule(const Program& original, const Program& reordered) {
  return verify_schedule::Checker(original, reordered).Check();
}

}  // namespace memplan
