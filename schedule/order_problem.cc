#include "schedule/order_problem.h"

#include <algorithm>

namespace memplan {
namespace {

using Unit = std::int32_t;

void SortUnique(std::vector<std::int32_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// The alias sets `op` touches: its operands', its results' and, for an
// X-done, its X-start's operands' (the async op reads them until it ends).
std::vector<std::int32_t> TouchedSets(const Program& program, const AliasSets& sets, const Op& op) {
  std::vector<std::int32_t> touched;
  const auto add = [&](ValueId v) {
    if (sets.set_of_value[v] != kNoId) touched.push_back(sets.set_of_value[v]);
  };
  for (ValueId v : op.operands) {
    add(v);
    const OpId producer = program.values[v].defining_op;
    if (op.kind == OpKind::kAsyncDone && producer != kNoId &&
        program.ops[producer].kind == OpKind::kAsyncStart) {
      for (ValueId s : program.ops[producer].operands) add(s);
    }
  }
  for (ValueId v : op.results) add(v);
  SortUnique(touched);
  return touched;
}

// Whether `op` writes into alias set `set` (see order_problem.h: a tied
// result, or a control-flow op's operand).
bool Writes(const Program& program, const AliasSets& sets, const Op& op, std::int32_t set) {
  if (!op.callees.empty()) {
    return std::any_of(op.operands.begin(), op.operands.end(),
                       [&](ValueId v) { return sets.set_of_value[v] == set; });
  }
  return std::any_of(op.results.begin(), op.results.end(), [&](ValueId v) {
    return program.values[v].alias == AliasKind::kTied && sets.set_of_value[v] == set;
  });
}

class ProblemBuilder {
 public:
  ProblemBuilder(const Program& program, const AliasSets& sets)
      : program_(program),
        sets_(sets),
        problems_(program.computations.size()),
        side_effects_(program.computations.size(), 0),
        built_(program.computations.size(), 0),
        param_mark_(sets.sets.size(), kNoId),
        result_mark_(sets.sets.size(), kNoId),
        local_(sets.sets.size(), kNoId) {}

  std::vector<OrderProblem> Build() && {
    for (ComputationId c = 0; c < static_cast<ComputationId>(program_.computations.size()); ++c) {
      BuildWithCallees(c);
    }
    return std::move(problems_);
  }

 private:
  // Callees first (their side effects and model peaks are needed); the call
  // graph is a tree (AnalyzeProgram checked it), so this ends.
  void BuildWithCallees(ComputationId c) {
    if (built_[c]) return;
    built_[c] = 1;
    for (OpId op : program_.computations[c].ops) {
      for (ComputationId callee : program_.ops[op].callees) BuildWithCallees(callee);
    }
    BuildOne(c);
  }

  bool HasSideEffect(ComputationId c, const Op& op) const {
    if (op.results.empty()) return true;
    for (ComputationId callee : op.callees) {
      if (side_effects_[callee]) return true;
    }
    for (ValueId r : op.results) {
      const Value& v = program_.values[r];
      if (v.alias != AliasKind::kTied || sets_.set_of_value[r] == kNoId) continue;
      const std::int32_t s = sets_.set_of_value[r];
      if (param_mark_[s] == c || sets_.sets[s].lifetime != Lifetime::kTransient) return true;
    }
    return false;
  }

  void BuildOne(ComputationId c) {
    const Computation& comp = program_.computations[c];
    OrderProblem& p = problems_[c];
    p.computation = c;
    p.ops = comp.ops;
    const Unit n = p.size();
    p.preds.assign(n, {});
    p.succs.assign(n, {});
    p.touches.assign(n, {});
    p.scratch.assign(n, 0);
    p.extra.assign(n, 0);
    for (ValueId v : comp.params) {
      if (sets_.set_of_value[v] != kNoId) param_mark_[sets_.set_of_value[v]] = c;
    }
    for (ValueId v : comp.results) {
      if (sets_.set_of_value[v] != kNoId) result_mark_[sets_.set_of_value[v]] = c;
    }
    std::vector<std::int32_t> touched_sets;  // global sets, in first-touch order
    std::vector<std::vector<std::int32_t>> global_touches(n);
    Unit last_side_effect = kNoId;
    for (Unit u = 0; u < n; ++u) {
      const Op& op = program_.ops[p.ops[u]];
      if (op.wave) p.fixed = true;
      unit_of_op_[p.ops[u]] = u;
      for (ValueId v : op.operands) {
        const OpId producer = program_.values[v].defining_op;
        if (producer != kNoId && program_.ops[producer].computation == c) {
          p.preds[u].push_back(unit_of_op_[producer]);
        }
      }
      if (HasSideEffect(c, op)) {
        side_effects_[c] = 1;
        if (last_side_effect != kNoId) p.preds[u].push_back(last_side_effect);
        last_side_effect = u;
      }
      global_touches[u] = TouchedSets(program_, sets_, op);
      p.scratch[u] = op.scratch_bytes;
      p.extra[u] = op.scratch_bytes;
      Bytes callee_peak = 0;
      for (ComputationId callee : op.callees) {
        callee_peak = std::max(callee_peak, ModelPeak(problems_[callee], InputOrder(problems_[callee])));
      }
      p.extra[u] += callee_peak;
    }
    if (comp.kind == ComputationKind::kRegion) p.fixed = true;
    // Storage order: readers between two writers of a set stay between them.
    std::vector<Unit> last_writer;
    std::vector<std::vector<Unit>> readers;
    for (Unit u = 0; u < n; ++u) {
      const Op& op = program_.ops[p.ops[u]];
      for (std::int32_t s : global_touches[u]) {
        if (local_[s] == kNoId) {
          local_[s] = static_cast<std::int32_t>(touched_sets.size());
          touched_sets.push_back(s);
          last_writer.push_back(kNoId);
          readers.emplace_back();
        }
        const std::int32_t l = local_[s];
        if (Writes(program_, sets_, op, s)) {
          if (last_writer[l] != kNoId) p.preds[u].push_back(last_writer[l]);
          for (Unit r : readers[l]) p.preds[u].push_back(r);
          readers[l].clear();
          last_writer[l] = u;
        } else {
          if (last_writer[l] != kNoId) p.preds[u].push_back(last_writer[l]);
          readers[l].push_back(u);
        }
      }
    }
    if (p.fixed) {
      for (Unit u = 1; u < n; ++u) p.preds[u].push_back(u - 1);
    }
    for (Unit u = 0; u < n; ++u) {
      SortUnique(p.preds[u]);
      for (Unit q : p.preds[u]) p.succs[q].push_back(u);
    }
    // Model sets: the transient ones, numbered in first-touch order.
    std::vector<std::int32_t> model_of(touched_sets.size(), kNoId);
    for (std::size_t l = 0; l < touched_sets.size(); ++l) {
      const std::int32_t s = touched_sets[l];
      if (sets_.sets[s].lifetime != Lifetime::kTransient) continue;
      model_of[l] = static_cast<std::int32_t>(p.set_bytes.size());
      p.set_bytes.push_back(sets_.sets[s].size);
      p.live_in.push_back(param_mark_[s] == c);
      p.live_out.push_back(result_mark_[s] == c);
    }
    for (Unit u = 0; u < n; ++u) {
      for (std::int32_t s : global_touches[u]) {
        if (model_of[local_[s]] != kNoId) p.touches[u].push_back(model_of[local_[s]]);
      }
      SortUnique(p.touches[u]);
    }
    for (std::int32_t s : touched_sets) local_[s] = kNoId;
  }

  const Program& program_;
  const AliasSets& sets_;
  std::vector<OrderProblem> problems_;
  std::vector<char> side_effects_;  // per computation: holds a side-effect op
  std::vector<char> built_;
  std::vector<ComputationId> param_mark_;   // per set: last computation with a param in it
  std::vector<ComputationId> result_mark_;  // per set: last computation returning it
  std::vector<std::int32_t> local_;         // per set: index while building one computation
  std::vector<Unit> unit_of_op_ = std::vector<Unit>(program_.ops.size(), kNoId);
};

}  // namespace

std::vector<OrderProblem> BuildOrderProblems(const Program& program, const AliasSets& sets) {
  return ProblemBuilder(program, sets).Build();
}

std::vector<std::int32_t> InputOrder(const OrderProblem& problem) {
  std::vector<std::int32_t> order(problem.ops.size());
  for (std::int32_t i = 0; i < problem.size(); ++i) order[i] = i;
  return order;
}

Bytes ModelPeak(const OrderProblem& problem, const std::vector<std::int32_t>& order) {
  const std::int32_t n = problem.size();
  if (n == 0) return 0;
  std::vector<std::int32_t> pos(n);
  for (std::int32_t i = 0; i < n; ++i) pos[order[i]] = i;
  const std::size_t m = problem.set_bytes.size();
  std::vector<std::int32_t> first(m, n);
  std::vector<std::int32_t> last(m, -1);
  std::vector<Bytes> diff(n + 1, 0);
  for (std::int32_t u = 0; u < n; ++u) {
    for (std::int32_t s : problem.touches[u]) {
      first[s] = std::min(first[s], pos[u]);
      last[s] = std::max(last[s], pos[u]);
    }
    diff[pos[u]] += problem.extra[u];
    diff[pos[u] + 1] -= problem.extra[u];
  }
  for (std::size_t s = 0; s < m; ++s) {
    const std::int32_t from = problem.live_in[s] ? 0 : first[s];
    const std::int32_t to = problem.live_out[s] ? n - 1 : last[s];
    if (from > to) continue;
    diff[from] += problem.set_bytes[s];
    diff[to + 1] -= problem.set_bytes[s];
  }
  Bytes live = 0;
  Bytes peak = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    live += diff[i];
    peak = std::max(peak, live);
  }
  return peak;
}

bool IsTopological(const OrderProblem& problem, const std::vector<std::int32_t>& order) {
  const std::int32_t n = problem.size();
  if (static_cast<std::int32_t>(order.size()) != n) return false;
  std::vector<std::int32_t> pos(n, -1);
  for (std::int32_t i = 0; i < n; ++i) {
    if (order[i] < 0 || order[i] >= n || pos[order[i]] != -1) return false;
    pos[order[i]] = i;
  }
  for (std::int32_t u = 0; u < n; ++u) {
    for (std::int32_t q : problem.preds[u]) {
      if (pos[q] > pos[u]) return false;
    }
  }
  return true;
}

}  // namespace memplan
