#include "packing/exact/descent_ladder.h"

#include <algorithm>
#include <limits>

namespace memplan::exact {

DescentLadder::DescentLadder(Bytes bound, Bytes best, Bytes granularity, std::int64_t nodes)
    : bound_(bound), best_(best), granularity_(std::max<Bytes>(granularity, 1)),
      nodes_(std::max<std::int64_t>(nodes, 1)) {}

Bytes DescentLadder::CapacityAt(int step) const {
  const Bytes span = best_ - bound_;
  // Steps past the span's bit length all round to the top.
  const Bytes below_best = step >= 62 ? 0 : span >> (step + 1);
  const Bytes capacity = (best_ - below_best) / granularity_ * granularity_;
  return std::max(capacity, bound_);
}

std::optional<DescentLadder::Probe> DescentLadder::Next() const {
  if (bound_ >= best_) return std::nullopt;
  const Bytes capacity = CapacityAt(step_);
  // The top of a climb: below the best by one granule (or the bound).
  const Bytes top = std::max(bound_, (best_ - 1) / granularity_ * granularity_);
  return Probe{std::min(capacity, top), nodes_};
}

void DescentLadder::Found(Bytes peak) {
  if (peak >= best_) return;
  best_ = peak;
  step_ = 0;
}

void DescentLadder::RaiseBound(Bytes bound) {
  if (bound <= bound_) return;
  bound_ = bound;
  step_ = 0;
}

void DescentLadder::Proven(Bytes capacity) { RaiseBound((capacity / granularity_ + 1) * granularity_); }

void DescentLadder::Cut() {
  const Bytes top = std::max(bound_, (best_ - 1) / granularity_ * granularity_);
  if (CapacityAt(step_) >= top) {
    step_ = 0;
    nodes_ = nodes_ > std::numeric_limits<std::int64_t>::max() / 2 ? nodes_ : nodes_ * 2;
    return;
  }
  ++step_;
}

}  // namespace memplan::exact
