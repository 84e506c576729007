// CopyBandwidth: the time the one DMA queue has for async copies, step by
// step, so that the allocator only commits copies that can finish before
// their done instead of stalling the program (the idea of XLA's later
// AsynchronousCopyResource, msa.md §3; the reference pass lacks it).
//
// Each step t offers `share` x its execution time (CostModel::ElapsedBetween
// over the one step, all operands in default memory); a copy with start s and
// done d may only use the steps strictly between s and d, and needs
// CostModel::CopySeconds(bytes). Consume takes the time greedily from the
// earliest step on (the queue serves copies as soon as it can); Release
// gives it back.
//
// Example: steps of 1 s each, share 1. A 1.5 s copy (0, 3) takes steps 1
// (1 s) and 2 (0.5 s). A second 1 s copy (1, 4) fits (0.5 s left at step 2,
// 1 s at step 3); a third copy (0, 3) of any size does not.
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "ir/units.h"
#include "msa/cost_model.h"

namespace memplan {

class CopyBandwidth {
 public:
  // What one Consume took, for Release.
  using Usage = std::vector<std::pair<TimeStep, double>>;

  CopyBandwidth(const CostModel& cost, TimeStep time_steps, double share);

  // True if `seconds` of copy time are still free strictly between `start`
  // and `done`. O(log T).
  bool Fits(TimeStep start, TimeStep done, double seconds) const;

  // Takes `seconds` from the steps strictly between `start` and `done`
  // (earliest first); call only when Fits. O(k log T) for the k steps it
  // takes time from.
  Usage Consume(TimeStep start, TimeStep done, double seconds);
  void Release(const Usage& usage);

 private:
  void Add(TimeStep t, double seconds);   // free_[t] += seconds, in the sums too
  double FreeBefore(TimeStep t) const;     // sum of free_[0 .. t-1]

  std::vector<double> free_;      // per step: seconds still available for copies
  std::vector<double> sums_;      // Fenwick tree over free_
  std::set<TimeStep> available_;  // steps with free_ > 0
};

}  // namespace memplan
