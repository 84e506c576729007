// The capacities at which an anytime minimization decides, from above the
// proven bound: a ladder over the open interval between the bound and the
// best peak found, with a node limit per decision.
//
// Deciding at the best peak minus one byte lowers the peak by little at a
// time, and deciding close to the bound rarely concludes; between the two,
// which capacities conclude quickly is hard to foresee (on MiniMalloc's J,
// 1,035,675 bytes found a packing in 11,571 nodes and 1,043,589 in 7,217,
// where 1,037,654 needed 497,843, and 1,033,697 and 1,040,621 found none in
// 15 s). So the ladder probes many capacities with a small node limit
// before it spends more at any one:
//
//   step k of a climb decides at  bound + span * (1 - 2^-(k+1)),  span = best - bound,
//
// rounded down to the peak granularity: the midpoint, then three quarters
// of the way up, seven eighths, ... A packing found or a proof of
// infeasibility narrows the interval and starts a new climb at its
// midpoint; a decision cut by its node limit moves one step up. A climb
// that reaches the best peak starts again at the midpoint with twice the
// node limit.
//
// Worked example (bound 100, best 164, granularity 1, limit L): decide at
// 132 (L), 148 (L), 156 (L), 160, 162, 163; all cut, so 132 again with 2L.
// A packing of peak 140 found at 148 makes the next decisions 120, 130, ...
// with the same limit.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/units.h"

namespace memplan::exact {

class DescentLadder {
 public:
  // `bound`: no packing has a peak below it (bytes); `best`: the peak of the
  // best packing found (bytes); `granularity`: every peak is a multiple of
  // it (bytes, >= 1); `nodes`: the node limit of the first climb (>= 1).
  DescentLadder(Bytes bound, Bytes best, Bytes granularity, std::int64_t nodes);

  struct Probe {
    Bytes capacity = 0;     // bytes, in [bound, best)
    std::int64_t nodes = 0;  // the decision's node limit
  };
  // The next decision, or nullopt once the bound meets the best peak (the
  // best is optimal).
  std::optional<Probe> Next() const;

  // A packing of peak `peak` (bytes) is known: a lower best starts a new
  // climb.
  void Found(Bytes peak);
  // No packing has a peak below `bound` (bytes): a higher bound starts a
  // new climb.
  void RaiseBound(Bytes bound);
  // The decision proved that no packing fits `capacity` (bytes): the bound
  // rises to the next multiple of the granularity above it.
  void Proven(Bytes capacity);
  // The decision ended at its node limit: one step up, or at the top a new
  // climb with twice the limit.
  void Cut();

  Bytes bound() const { return bound_; }
  Bytes best() const { return best_; }

 private:
  Bytes CapacityAt(int step) const;

  Bytes bound_;
  Bytes best_;
  Bytes granularity_;
  std::int64_t nodes_;
  int step_ = 0;
};

}  // namespace memplan::exact
