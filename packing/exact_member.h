// kAuto's last member (portfolio.h, 5.): the exact decision search at the
// lower bound, under a node budget, for inputs the heuristics and the local
// search left above the bound. MiniMalloc's challenging instances are the
// case: eight of A-K pack exactly at their max-live bound, which the exact
// search (packing/exact/exact_packer.h) finds in 10^4-10^6 nodes while the
// heuristics stay 5-12 % above it (docs/packing.md).
//
// The member runs budgeted decisions ("is there a packing at peak <= C?"):
// 1. at the caller's capacity (PackOptions::capacity, `--capacity`) when the
//    best peak is above it, with 3/4 of its budget;
// 2. at the max-live bound, with 3/4 of what is left of its budget (not
//    when step 1 ended undecided: a lower capacity is harder); a proof that
//    there is none lifts the bound to the next possible peak and it decides
//    again;
// 3. from above, between the bound and the best peak so far, while the
//    budget lasts: a DescentLadder (exact/descent_ladder.h) of decisions
//    with small node limits at first; each packing found lowers the best,
//    a proof raises the bound (at best - 1 it makes the best optimal).
// Its budget is nodes (the effort's exact work over ExactNodeWork), never
// seconds, so what it finds is the same on every machine, load and thread
// count, unless --time-limit stops it (then time_limited).
#pragma once

#include <optional>
#include <vector>

#include "ir/units.h"
#include "packing/deadline.h"
#include "packing/member_cost.h"
#include "packing/packer.h"

namespace memplan {

// The exact member's name in kAuto's report.
inline constexpr std::string_view kExactMemberName = "exact";
// How its reason starts when it proved that no packing fits the caller's
// capacity (driver/pools.cc then suggests no longer search).
inline constexpr std::string_view kExactMemberCapacityProof = "proved that no packing fits";

struct ExactMemberOutcome {
  // A packing below `best_peak` (algorithm "exact"), or nullopt.
  std::optional<PackResult> packed;
  // The lower bound it proved (>= the `lower_bound` given; the given one
  // when it proved nothing, or when items have gaps, which the search reads
  // as live).
  Bytes lower_bound = 0;
  // Named kExactMemberName: ran (with the capacity its packing was found
  // at), or why not.
  PackMemberReport report;
  bool time_limited = false;  // --time-limit stopped it
};

// Runs the member on `items` (options: alignment, effort, capacity) whose best
// packing so far has peak `best_peak` > `lower_bound` (max-live), on up to
// `threads` threads, until `deadline`. Skipped, with the reason in the
// report, at kFast (no exact budget) and when the budget does not cover
// the search's first round of restarts (ExactFirstRoundNodes): large
// inputs. Cost: at most the effort's exact work (member_cost.h).
ExactMemberOutcome RunExactMember(const std::vector<PackItem>& items, const PackOptions& options,
                                  const InputShape& shape, Bytes best_peak, Bytes lower_bound,
                                  int threads, const PackDeadline& deadline);

}  // namespace memplan
