#include "schedule/strategies.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace memplan {
namespace {

using Unit = std::int32_t;

// The state of a forward (list) scheduler: which units are ready, which
// model sets are open, and the bytes live between units.
class ForwardState {
 public:
  explicit ForwardState(const OrderProblem& p)
      : p_(p), indegree_(p.size()), remaining_(p.set_bytes.size(), 0), open_(p.live_in),
        position_(p.size(), kNoId) {
    for (Unit u = 0; u < p.size(); ++u) {
      indegree_[u] = static_cast<std::int32_t>(p.preds[u].size());
      if (indegree_[u] == 0) ready_.push_back(u);
      for (std::int32_t s : p.touches[u]) ++remaining_[s];
    }
    for (std::size_t s = 0; s < open_.size(); ++s) {
      if (open_[s]) live_ += p.set_bytes[s];
    }
  }

  const std::vector<Unit>& ready() const { return ready_; }  // ascending
  Bytes live() const { return live_; }
  std::int32_t position(Unit u) const { return position_[u]; }
  const UnitOrder& order() const { return order_; }

  // Bytes of the sets `u` opens.
  Bytes Defined(Unit u) const {
    Bytes b = 0;
    for (std::int32_t s : p_.touches[u]) {
      if (!open_[s]) b += p_.set_bytes[s];
    }
    return b;
  }
  // Bytes of the sets `u` closes (it is their last toucher).
  Bytes Freed(Unit u) const {
    Bytes b = 0;
    for (std::int32_t s : p_.touches[u]) {
      if (remaining_[s] == 1 && !p_.live_out[s]) b += p_.set_bytes[s];
    }
    return b;
  }

  void Schedule(Unit u) {
    ready_.erase(std::find(ready_.begin(), ready_.end(), u));
    position_[u] = static_cast<std::int32_t>(order_.size());
    order_.push_back(u);
    for (std::int32_t s : p_.touches[u]) {
      if (!open_[s]) {
        open_[s] = 1;
        live_ += p_.set_bytes[s];
      }
      if (--remaining_[s] == 0 && !p_.live_out[s]) live_ -= p_.set_bytes[s];
    }
    for (Unit v : p_.succs[u]) {
      if (--indegree_[v] == 0) ready_.insert(std::lower_bound(ready_.begin(), ready_.end(), v), v);
    }
  }

 private:
  const OrderProblem& p_;
  std::vector<std::int32_t> indegree_;
  std::vector<std::int32_t> remaining_;  // per set: touchers not yet scheduled
  std::vector<char> open_;
  std::vector<std::int32_t> position_;
  std::vector<Unit> ready_;
  UnitOrder order_;
  Bytes live_ = 0;
};

// Schedules every unit, taking pick(state) among the ready ones each time.
template <typename Pick>
UnitOrder Greedy(const OrderProblem& p, Pick pick) {
  if (p.fixed) return InputOrder(p);
  ForwardState state(p);
  while (!state.ready().empty()) state.Schedule(pick(state));
  return state.order();
}

// Post-order DFS: roots in the order given, each unit's predecessors in the
// order `sorted_preds` gives. Explicit stack: no recursion depth limit.
template <typename SortedPreds>
UnitOrder PostOrder(const OrderProblem& p, const std::vector<Unit>& roots, SortedPreds sorted_preds) {
  UnitOrder order;
  order.reserve(p.ops.size());
  std::vector<char> seen(p.ops.size(), 0);
  struct Frame {
    Unit unit;
    std::vector<Unit> preds;
    std::size_t next = 0;
  };
  std::vector<Frame> stack;
  for (Unit root : roots) {
    if (seen[root]) continue;
    seen[root] = 1;
    stack.push_back({root, sorted_preds(root)});
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next < f.preds.size()) {
        const Unit q = f.preds[f.next++];
        if (!seen[q]) {
          seen[q] = 1;
          stack.push_back({q, sorted_preds(q)});  // invalidates `f`
        }
        continue;
      }
      order.push_back(f.unit);
      stack.pop_back();
    }
  }
  return order;
}

// The units without successors, in input order: every unit is an ancestor
// of one of them.
std::vector<Unit> Sinks(const OrderProblem& p) {
  std::vector<Unit> sinks;
  for (Unit u = 0; u < p.size(); ++u) {
    if (p.succs[u].empty()) sinks.push_back(u);
  }
  return sinks;
}

// Bytes of the sets `u` defines: those it touches first in input order
// (producers come first in a valid input), parameters' sets excluded.
std::vector<Bytes> DefinedBytes(const OrderProblem& p) {
  std::vector<char> seen(p.set_bytes.size(), 0);
  std::vector<Bytes> defined(p.size(), 0);
  for (Unit u = 0; u < p.size(); ++u) {
    for (std::int32_t s : p.touches[u]) {
      if (seen[s]) continue;
      seen[s] = 1;
      if (!p.live_in[s]) defined[u] += p.set_bytes[s];
    }
  }
  return defined;
}

}  // namespace

UnitOrder XlaListOrder(const OrderProblem& p) {
  return Greedy(p, [&](const ForwardState& state) {
    Unit best = kNoId;
    std::tuple<Bytes, std::size_t> best_priority{};
    for (Unit u : state.ready()) {
      const std::tuple<Bytes, std::size_t> priority{state.Freed(u) - state.Defined(u),
                                                    p.succs[u].size()};
      if (best == kNoId || priority > best_priority) {
        best = u;
        best_priority = priority;
      }
    }
    return best;
  });
}

UnitOrder XlaDfsOrder(const OrderProblem& p) {
  if (p.fixed) return InputOrder(p);
  const std::vector<Bytes> defined = DefinedBytes(p);
  std::vector<std::int64_t> extra_users(p.size(), 0);
  std::vector<Bytes> total(p.size(), 0);
  Bytes cumulative = 0;
  for (Unit u = 0; u < p.size(); ++u) {  // the input order is topological
    total[u] = defined[u];
    cumulative += defined[u];
    for (Unit q : p.preds[u]) {
      extra_users[u] += extra_users[q];
      total[u] = std::min(total[u] + total[q], std::numeric_limits<Bytes>::max() / 2);
    }
    // As XLA: double-counted shared ancestors are capped by the running sum.
    total[u] = std::min(total[u], cumulative);
    if (!p.succs[u].empty()) extra_users[u] += static_cast<std::int64_t>(p.succs[u].size()) - 1;
  }
  const auto first = [&](Unit a, Unit b) {
    if (extra_users[a] != extra_users[b]) return extra_users[a] > extra_users[b];
    if (total[a] != total[b]) return total[a] > total[b];
    return a < b;
  };
  std::vector<Unit> roots = Sinks(p);
  std::sort(roots.begin(), roots.end(), first);
  return PostOrder(p, roots, [&](Unit u) {
    std::vector<Unit> preds = p.preds[u];
    std::sort(preds.begin(), preds.end(), first);
    return preds;
  });
}

UnitOrder XlaPostOrder(const OrderProblem& p) {
  if (p.fixed) return InputOrder(p);
  return PostOrder(p, Sinks(p), [&](Unit u) { return p.preds[u]; });
}

UnitOrder InductorLpmfOrder(const OrderProblem& p) {
  Bytes max_so_far = 0;
  return Greedy(p, [&](const ForwardState& state) {
    max_so_far = std::max(max_so_far, state.live());
    Unit below = kNoId;  // least mem2 among mem1 <= max_so_far
    Bytes below_mem2 = 0;
    Unit least = kNoId;  // least mem1
    Bytes least_mem1 = 0;
    for (Unit u : state.ready()) {
      const Bytes defined = state.Defined(u);
      const Bytes mem1 = state.live() + defined + p.extra[u];
      const Bytes mem2 = state.live() + defined - state.Freed(u);
      if (mem1 <= max_so_far && (below == kNoId || mem2 < below_mem2)) {
        below = u;
        below_mem2 = mem2;
      }
      if (least == kNoId || mem1 < least_mem1) {
        least = u;
        least_mem1 = mem1;
      }
    }
    const Unit pick = below != kNoId ? below : least;
    max_so_far = std::max(max_so_far, state.live() + state.Defined(pick) + p.extra[pick]);
    return pick;
  });
}

UnitOrder InductorBfsOrder(const OrderProblem& p) {
  return Greedy(p, [&](const ForwardState& state) {
    Unit best = kNoId;
    std::vector<std::int32_t> best_key;
    for (Unit u : state.ready()) {
      std::vector<std::int32_t> key;
      for (Unit q : p.preds[u]) key.push_back(state.position(q));
      std::sort(key.begin(), key.end());
      if (best == kNoId || key < best_key) {
        best = u;
        best_key = std::move(key);
      }
    }
    return best;
  });
}

UnitOrder InductorDfsOrder(const OrderProblem& p) {
  if (p.fixed) return InputOrder(p);
  std::vector<Bytes> size(p.size(), 0);
  for (Unit u = 0; u < p.size(); ++u) {
    for (std::int32_t s : p.touches[u]) size[u] += p.set_bytes[s];
  }
  const auto first = [&](Unit a, Unit b) { return size[a] != size[b] ? size[a] < size[b] : a < b; };
  std::vector<Unit> roots = InputOrder(p);
  std::sort(roots.begin(), roots.end(), first);
  return PostOrder(p, roots, [&](Unit u) {
    std::vector<Unit> preds = p.preds[u];
    std::sort(preds.begin(), preds.end(), first);
    return preds;
  });
}

UnitOrder LocalSearchOrder(const OrderProblem& p, UnitOrder order, std::int64_t work_budget) {
  const std::int32_t n = p.size();
  if (p.fixed || n < 2) return order;
  std::int64_t touches = 0;
  for (const auto& t : p.touches) touches += static_cast<std::int64_t>(t.size());
  const std::int64_t cost = n + touches;  // per evaluated order
  std::int64_t work = cost;
  Bytes best = ModelPeak(p, order);
  std::vector<std::int32_t> pos(n);
  const auto index = [&] {
    for (std::int32_t i = 0; i < n; ++i) pos[order[i]] = i;
  };
  index();
  bool improved = true;
  while (improved && work < work_budget && best > 0) {
    improved = false;
    for (std::int32_t i = 0; i < n && work < work_budget; ++i) {
      const Unit u = order[i];
      std::int32_t lo = 0;
      std::int32_t hi = n - 1;
      for (Unit q : p.preds[u]) lo = std::max(lo, pos[q] + 1);
      for (Unit q : p.succs[u]) hi = std::min(hi, pos[q] - 1);
      lo = std::max(lo, i - kLocalSearchReach);
      hi = std::min(hi, i + kLocalSearchReach);
      std::int32_t best_j = i;
      for (std::int32_t j = lo; j <= hi && work < work_budget; ++j) {
        if (j == i) continue;
        UnitOrder moved = order;
        if (j < i) {
          std::rotate(moved.begin() + j, moved.begin() + i, moved.begin() + i + 1);
        } else {
          std::rotate(moved.begin() + i, moved.begin() + i + 1, moved.begin() + j + 1);
        }
        work += cost;
        const Bytes peak = ModelPeak(p, moved);
        if (peak < best) {
          best = peak;
          best_j = j;
        }
      }
      if (best_j != i) {
        if (best_j < i) {
          std::rotate(order.begin() + best_j, order.begin() + i, order.begin() + i + 1);
        } else {
          std::rotate(order.begin() + i, order.begin() + i + 1, order.begin() + best_j + 1);
        }
        index();
        improved = true;
      }
    }
  }
  return order;
}

const std::vector<PeerStrategy>& PeerStrategies() {
  static const std::vector<PeerStrategy> strategies = {
      {"xla-list", XlaListOrder},         {"xla-dfs", XlaDfsOrder},
      {"xla-post-order", XlaPostOrder},   {"inductor-lpmf", InductorLpmfOrder},
      {"inductor-bfs", InductorBfsOrder}, {"inductor-dfs", InductorDfsOrder}};
  return strategies;
}

}  // namespace memplan
