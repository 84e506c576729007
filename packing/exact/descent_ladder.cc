#include "packing/exact/descent_ladder.h"

#include <algorithm>
#include <limits>

namespace memplan::exact {
namespace {

// floor(value * numerator / 2^bits) for 0 <= numerator < 2^bits, bits < 32,
// without overflow.
Bytes ScaleDown(Bytes value, std::uint64_t numerator, int bits) {
  const auto v = static_cast<std::uint64_t>(value);
  const std::uint64_t low = v & ((std::uint64_t{1} << bits) - 1);
  return static_cast<Bytes>((v >> bits) * numerator + ((low * numerator) >> bits));
}

}  // namespace

std::int64_t LubyTerm(std::int64_t i) {
  if (i < 1) return 1;
  // With 2^(k-1) <= i < 2^k: i = 2^k - 1 gives 2^(k-1), else the term at
  // i - (2^(k-1) - 1).
  while (true) {
    int k = 1;
    while (k < 62 && (std::int64_t{1} << k) - 1 < i) ++k;
    if ((std::int64_t{1} << k) - 1 == i) return std::int64_t{1} << (k - 1);
    i -= (std::int64_t{1} << (k - 1)) - 1;
  }
}

DescentLadder::DescentLadder(Bytes bound, Bytes best, Bytes granularity, std::int64_t nodes)
    : bound_(bound), best_(best), granularity_(std::max<Bytes>(granularity, 1)),
      nodes_(std::max<std::int64_t>(nodes, 1)) {}

Bytes DescentLadder::Top() const {
  return std::max(bound_, (best_ - 1) / granularity_ * granularity_);
}

std::int64_t DescentLadder::Limit() const {
  const std::int64_t term = LubyTerm(climb_ + 1);
  return nodes_ > std::numeric_limits<std::int64_t>::max() / term
             ? std::numeric_limits<std::int64_t>::max()
             : nodes_ * term;
}

Bytes DescentLadder::CapacityAt(int step) const {
  // The offset f = p / 2^bits: the van der Corput term of offset_ (its
  // binary digits mirrored behind the point).
  std::uint64_t p = 0;
  int bits = 0;
  for (std::int64_t c = offset_; c > 0 && bits < 31; c >>= 1) {
    p = (p << 1) | static_cast<std::uint64_t>(c & 1);
    ++bits;
  }
  // Below the best by span * (2 - f) / 2^(step + 2): span / 2^(step + 1)
  // less f times span / 2^(step + 2). Steps past the span's bit length all
  // round to the top.
  const Bytes span = best_ - bound_;
  const Bytes half = step >= 61 ? 0 : span >> (step + 1);
  const Bytes quarter = step >= 60 ? 0 : span >> (step + 2);
  const Bytes below_best = half - ScaleDown(quarter, p, bits);
  const Bytes capacity = (best_ - below_best) / granularity_ * granularity_;
  return std::clamp(capacity, bound_, Top());
}

std::optional<DescentLadder::Probe> DescentLadder::Next() const {
  if (bound_ >= best_) return std::nullopt;
  return Probe{CapacityAt(step_), Limit()};
}

void DescentLadder::StartClimb() {
  ++climb_;
  offset_ = 0;
  step_ = 0;
  SkipTried();
}

void DescentLadder::Found(Bytes peak) {
  if (peak >= best_) return;
  best_ = peak;
  StartClimb();
}

void DescentLadder::RaiseBound(Bytes bound) {
  if (bound <= bound_) return;
  bound_ = bound;
  StartClimb();
}

void DescentLadder::Proven(Bytes capacity) { RaiseBound((capacity / granularity_ + 1) * granularity_); }

void DescentLadder::Advance() {
  if (CapacityAt(step_) >= Top()) {
    ++climb_;
    ++offset_;
    step_ = 0;
  } else {
    ++step_;
  }
}

void DescentLadder::SkipTried() {
  // Ends: Luby's terms grow past every limit cut so far.
  while (bound_ < best_) {
    const auto it = cut_.find(CapacityAt(step_));
    if (it == cut_.end() || it->second < Limit()) return;
    Advance();
  }
}

void DescentLadder::Cut() {
  if (bound_ >= best_) return;
  std::int64_t& highest = cut_[CapacityAt(step_)];
  highest = std::max(highest, Limit());
  Advance();
  SkipTried();
}

}  // namespace memplan::exact
