// Baseline packers: what a planner without global sorting does.
//
// Naive: no reuse; items laid end to end in input order, each offset rounded
// up to its alignment. Peak = about the sum of sizes.
//
// In-order: IREE's LayoutSlices for static slices (regions.md §2). Items are
// placed in input order; each goes to the tightest hole between the placed
// items whose closed live ranges intersect its own ([0,1] and [1,2] do), else
// at the aligned top of those items. As in IREE, a hole's room is measured
// from the unaligned end of the chunk below it. Unlike IREE, sizes are not
// padded: only offsets are aligned. Items conflict only where their live
// pieces (outside PackItem::gaps) intersect, as in best fit.
//
// Example (IREE's layoutStatic test, alignment 16), in this order:
// [0,1] 100 -> 0; [1,2] 100 -> 112; [2,3] 100 -> 0; [0,4] 200 -> 224;
// [5,6] 200 -> 0; [5,8] 100 -> 208. Peak 424.
#pragma once

#include <optional>

#include "ir/units.h"
#include "packing/deadline.h"
#include "packing/packer.h"

namespace memplan {

// Naive packing. O(n).
PackResult NaivePack(const std::vector<PackItem>& items, Bytes alignment);

// In-order best fit. O(n log n + sum over items of k log k), k the number of
// earlier items whose range intersects the item's.
PackResult InOrderPack(const std::vector<PackItem>& items, Bytes alignment);
// InOrderPack that gives up (nullopt) once `deadline` has passed (polled
// between placements): auto's run under --time-limit.
std::optional<PackResult> InOrderPackUntil(const std::vector<PackItem>& items, Bytes alignment,
                                           const PackDeadline& deadline);
// InOrderPackUntil that also counts its work into `*work` as best fit does
// (PlacementWork per placement, member_cost.h) and gives up (nullopt) as
// soon as the count exceeds `work_limit`: auto's run within its allowance.
// Deterministic without a deadline.
std::optional<PackResult> InOrderPackWithin(const std::vector<PackItem>& items, Bytes alignment,
                                            double work_limit, double* work,
                                            const PackDeadline& deadline);

}  // namespace memplan
