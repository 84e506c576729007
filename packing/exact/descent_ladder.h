// The capacities at which an anytime minimization decides, from above the
// proven bound: a ladder over the open interval between the bound and the
// best peak found, with a node limit per decision.
//
// Deciding at the best peak minus one byte lowers the peak by little at a
// time, and deciding close to the bound rarely concludes; between the two,
// which capacities conclude quickly is hard to foresee (on MiniMalloc's J,
// 1,035,675 bytes found a packing in 11,571 nodes and 1,043,589 in 7,217,
// where 1,037,654 needed 497,843, and 1,033,697 and 1,040,621 found none in
// 15 s; on its D, 27 of the 60 capacities 1 KiB apart from 1,004,544 to
// 1,064,960 bytes found one within 150,000 nodes, in 4,260 to 138,098,
// neighbours unalike). So the ladder treats each capacity as a fresh draw
// of a search whose run length is heavy-tailed, and probes many capacities
// with small node limits before it spends more at any one:
//
//   step k of a climb decides at  best - span * (2 - f) / 2^(k+2),  span = best - bound,
//
// rounded down to the peak granularity: with f = 0 the midpoint, then three
// quarters of the way up, seven eighths, ... up to one granule below the
// best. A packing found or a proof of infeasibility narrows the interval
// and starts a new climb with f = 0. A decision cut by its node limit moves
// one step up; a climb that reaches the top starts again with the next f of
// the van der Corput sequence (0, 1/2, 1/4, 3/4, 1/8, ...), which puts each
// step between the capacities the earlier climbs tried (instead of trying
// them again).
//
// The node limit of climb c (counting every climb since the start) is the
// first limit times Luby's c-th term (1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...):
// the universal restart schedule of Luby, Sinclair and Zuckerman (1993),
// within a log factor of the best fixed limit for any run-length
// distribution; the limits a search needs grow as the interval narrows,
// and Luby's terms grow without end, so every capacity is eventually
// decided in full. A probe the ladder already cut at a limit at least as
// high is skipped: a decision is deterministic, so it would end the same way.
// (Measured in auto's exact member at default effort, against climbs that
// repeated their capacities with twice the limit: MiniMalloc's D 1,053,696
// -> 1,034,240 bytes, H and J unchanged; of 18 inputs made from C, D, E,
// H, J and K by leaving one buffer out, three better, none worse.)
//
// Worked example (bound 100, best 164, granularity 1, limit L): decide at
// 132, 148, 156, 160, 162, 163 (L each); all cut, so with f = 1/2 at 140,
// 152, 158, 161 (L; 162 and 163 were cut at L already: skipped), then with
// f = 1/4 at 136, 150, 157, 160, ... (2L). A packing of peak 140 found at
// 148 in the first climb makes the next decisions 120, 130, ... (with the
// second climb's limit, L).
#pragma once

#include <cstdint>
#include <map>
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
  // climb (above).
  void Cut();

  Bytes bound() const { return bound_; }
  Bytes best() const { return best_; }

 private:
  // The capacity of `step` in the current climb (bytes).
  Bytes CapacityAt(int step) const;
  // One granule below the best (or the bound): the last step of a climb.
  Bytes Top() const;
  // The current climb's node limit.
  std::int64_t Limit() const;
  // One step up, or past the top a new climb with the next offset.
  void Advance();
  void StartClimb();
  // Advances past the probes already cut at the current limit or a higher one.
  void SkipTried();

  Bytes bound_;
  Bytes best_;
  Bytes granularity_;
  std::int64_t nodes_;
  std::int64_t climb_ = 0;   // climbs started before this one (Luby's index - 1)
  std::int64_t offset_ = 0;  // climbs ended at the top since the interval last narrowed
  int step_ = 0;
  std::map<Bytes, std::int64_t> cut_;  // capacity -> highest node limit cut there
};

// Luby's universal restart sequence, term `i` >= 1: 1, 1, 2, 1, 1, 2, 4, 1,
// 1, 2, 1, 1, 2, 4, 8, ... (Luby, Sinclair and Zuckerman, "Optimal speedup
// of Las Vegas algorithms", 1993). Values < 1 give 1.
std::int64_t LubyTerm(std::int64_t i);

}  // namespace memplan::exact
