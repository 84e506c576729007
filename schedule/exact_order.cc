#include "schedule/exact_order.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace memplan {
namespace {

using Mask = std::uint64_t;

struct State {
  Mask done = 0;
  Bytes peak = 0;        // lowest peak of any order of `done`
  Bytes live = 0;        // bytes live after `done` ran (order-independent)
  std::int32_t parent = -1;  // index in the previous layer
  std::int32_t unit = -1;    // the unit added last
};

}  // namespace

ExactResult ExactOrder(const OrderProblem& p, Bytes upper_bound) {
  ExactResult result;
  const std::int32_t n = p.size();
  if (n > kExactMaxUnits) return result;
  if (p.fixed || n == 0) {
    result.status = ExactStatus::kProven;  // one order only
    result.peak = upper_bound;
    return result;
  }
  const std::size_t m = p.set_bytes.size();
  std::vector<Mask> touchers(m, 0);
  std::vector<Mask> pred_mask(n, 0);
  for (std::int32_t u = 0; u < n; ++u) {
    for (std::int32_t s : p.touches[u]) touchers[s] |= Mask{1} << u;
    for (std::int32_t q : p.preds[u]) pred_mask[u] |= Mask{1} << q;
  }
  State start;
  for (std::size_t s = 0; s < m; ++s) {
    if (p.live_in[s]) start.live += p.set_bytes[s];
  }
  std::vector<std::vector<State>> layers(1, std::vector<State>{start});
  std::int64_t states = 1;
  for (std::int32_t k = 0; k < n; ++k) {
    std::vector<State> next;
    std::unordered_map<Mask, std::int32_t> index;
    const std::vector<State>& layer = layers.back();
    for (std::int32_t i = 0; i < static_cast<std::int32_t>(layer.size()); ++i) {
      const State& st = layer[i];
      for (std::int32_t v = 0; v < n; ++v) {
        const Mask bit = Mask{1} << v;
        if ((st.done & bit) || (pred_mask[v] & ~st.done)) continue;
        // Live while v runs: what is live now, the sets v opens, its extra.
        Bytes during = st.live + p.extra[v];
        Bytes freed = 0;
        for (std::int32_t s : p.touches[v]) {
          const bool open = p.live_in[s] || (touchers[s] & st.done);
          if (!open) during += p.set_bytes[s];
          if (!p.live_out[s] && (touchers[s] & ~(st.done | bit)) == 0) freed += p.set_bytes[s];
        }
        const Bytes peak = std::max(st.peak, during);
        if (peak >= upper_bound) continue;
        const Mask done = st.done | bit;
        const auto [it, inserted] = index.emplace(done, static_cast<std::int32_t>(next.size()));
        if (inserted) {
          next.push_back({done, peak, during - p.extra[v] - freed, i, v});
          if (++states > kExactMaxStates) {
            result.status = ExactStatus::kStateLimit;
            result.states = states;
            return result;
          }
        } else if (peak < next[it->second].peak) {
          next[it->second].peak = peak;
          next[it->second].parent = i;
          next[it->second].unit = v;
        }
      }
    }
    if (next.empty()) {
      result.status = ExactStatus::kProven;
      result.peak = upper_bound;
      result.states = states;
      return result;
    }
    layers.push_back(std::move(next));
  }
  // One state remains: every unit done.
  const State& last = layers.back().front();
  result.status = ExactStatus::kImproved;
  result.peak = last.peak;
  result.states = states;
  result.order.assign(n, 0);
  std::int32_t at = 0;
  for (std::int32_t k = n; k > 0; --k) {
    const State& st = layers[k][at];
    result.order[k - 1] = st.unit;
    at = st.parent;
  }
  return result;
}

}  // namespace memplan
