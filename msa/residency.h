// Where an assignment serves a buffer at a time step (msa/simulator.h's
// rule): in alternate memory iff an alternate segment covers the step and
// the data has arrived (the step is at or after the opening prefetch's
// done); shared by the two-space and the hierarchy simulators.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

#include "analysis/analyze.h"
#include "ir/plan.h"
#include "msa/assignment.h"

namespace memplan {

// Per buffer, its alternate segments and the step from which each holds the
// data (the opening prefetch's done, else the segment's start).
class AlternateResidency {
 public:
  explicit AlternateResidency(const MsaResult& result) : result_(result) {
    arrival_.resize(result.alternate.size());
    for (std::size_t b = 0; b < result.alternate.size(); ++b) {
      for (const Allocation& a : result.alternate[b]) arrival_[b].push_back(a.start);
    }
    for (const AsyncCopy& c : result.copies) {
      if (c.kind != CopyKind::kPrefetch || c.buffer < 0 ||
          static_cast<std::size_t>(c.buffer) >= result.alternate.size()) {
        continue;
      }
      const std::vector<Allocation>& segs = result.alternate[c.buffer];
      for (std::size_t k = 0; k < segs.size(); ++k) {
        // A prefetch issued before the first op (-1) opens a segment at 0.
        if (segs[k].start == std::max<TimeStep>(c.start, 0)) {
          arrival_[c.buffer][k] = std::max(c.start, c.done);
        }
      }
    }
  }

  // Which of an op's operand and result positions (indices into
  // `ob.operands` / `ob.results`) alternate memory serves at step `t`,
  // into `operands` and `results` (cleared first). O(positions log segments).
  void AlternatePositions(const OpBuffers& ob, TimeStep t, std::vector<int>& operands,
                          std::vector<int>& results) const {
    operands.clear();
    results.clear();
    for (std::size_t i = 0; i < ob.operands.size(); ++i) {
      if (InAlternate(ob.operands[i], t)) operands.push_back(static_cast<int>(i));
    }
    for (std::size_t i = 0; i < ob.results.size(); ++i) {
      if (InAlternate(ob.results[i], t)) results.push_back(static_cast<int>(i));
    }
  }

  // O(log segments).
  bool InAlternate(BufferId b, TimeStep t) const {
    if (b < 0 || static_cast<std::size_t>(b) >= result_.alternate.size()) return false;
    const std::vector<Allocation>& segs = result_.alternate[b];
    auto it = std::upper_bound(segs.begin(), segs.end(), t,
                               [](TimeStep time, const Allocation& a) { return time < a.start; });
    if (it == segs.begin()) return false;
    const auto k = static_cast<std::size_t>(std::prev(it) - segs.begin());
    return segs[k].end >= t && t >= arrival_[b][k];
  }

 private:
  const MsaResult& result_;
  std::vector<std::vector<TimeStep>> arrival_;
};

}  // namespace memplan
