// Skyline packing: build the packing bottom-up, the way MiniMalloc's
// "canonical" solutions look (packing.md §4): every item rests on the highest
// placed item it overlaps in time, and items are placed in non-decreasing
// order of offset. The skyline is, per time step, the top of the placed items
// live then; an unplaced item's floor is the max of the skyline over its live
// range (rounded up to its alignment). Each step places the unplaced item with
// the lowest floor; ties are broken by the order's key, then by index.
//
// Unlike best fit, it never fills a hole below the skyline, but it grows the
// packing evenly in time, which often leaves fewer holes to begin with.
//
// Example (alignment 1): a(10)[0,3] b(20)[1,6] c(40)[2,7] d(30)[4,8]
// e(50)[5,9], kLongestFirst. Every floor is 0; b and c have the longest
// ranges, c is larger: c -> 0. Now a, b, d, e all have floor 40; b is longest:
// b -> 40. Floors: a 60, d 60, e 60; d and e are equally long, e is larger:
// e -> 60. Then a (floor 60) -> 60 before d (floor now 110) -> 110. Peak 140.
#pragma once

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan {

// Tie-break among items with the same floor.
enum class SkylineOrder {
  kLongestFirst,  // longer live range, then larger size
  kLargestArea,   // larger size x range length, then longer range
};

// Skyline packing; result.algorithm is "skyline-longest" or "skyline-area".
// Every offset is a multiple of max(item.alignment, alignment). Expected
// O((n + r) log n), r the number of times an item's floor is found stale.
PackResult SkylinePack(const std::vector<PackItem>& items, SkylineOrder order, Bytes alignment);

}  // namespace memplan
