// Live-bytes profiles of a set of PackItems (closed live ranges): the
// quantities behind the max-live lower bound (MaxLiveBytes in packer.h).
//
// Example: a(10)[0,3] b(20)[1,6] c(40)[2,7]. Live bytes: t=0: 10, t=1: 30,
// t=2..3: 70, t=4..6: 60, t=7: 40. MaxLiveBytes = 70; MaxLiveDuring gives
// a: 70, b: 70, c: 70; for d(5)[7,9] it would be 45 (c and d at t=7).
// IntersectingPairs of a, b, c, d is 4: ab, ac, bc and cd.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan {

// The first and last of the times the live bytes may change at (the
// non-empty items' starts, and their ends + 1), when they lie no more than
// about two steps an item apart (compiler traces: a buffer or more per op);
// none otherwise, or without non-empty items. Those who rank or sweep the
// times then count into a table over [first, last], O(n + span) and
// sequential, where sorting them (1-3 s at 10^7 items) is O(n log n).
// Example: items [0,3] and [2,7] -> (0, 8). O(n).
std::optional<std::pair<TimeStep, TimeStep>> DenseSpan(const std::vector<PackItem>& items);

// MaxLiveDuring and IntersectingPairs read items as their hulls [start, end]
// (gaps ignored): an ordering key and a cost estimate, both safe to
// over-count.

// For each item, the max over the times t of its live range of the bytes live
// at t (items with size <= 0 count 0 bytes). O(n log n).
std::vector<Bytes> MaxLiveDuring(const std::vector<PackItem>& items);

// Number of unordered pairs of non-empty items whose closed live ranges
// intersect. A global packer that looks at the placed chunks live during each
// item's range (best fit, skyline) visits each such pair about once, so this
// is the overlap work it does beyond O(n log n): about n * (items live at
// once) on DNN schedules, n^2 / 2 when everything is live together.
// O(n log n).
std::int64_t IntersectingPairs(const std::vector<PackItem>& items);

// The distinct boundaries of the non-empty items' live ranges (their
// starts, and their ends + 1), sorted. Example: [0,3] and [2,7] -> 0, 2, 4,
// 8. O(n log n).
std::vector<TimeStep> SortedBoundaries(const std::vector<PackItem>& items);

// Number of time slots the non-empty items' live ranges cut time into: the
// distinct boundaries (starts, and ends + 1) minus one, 0 without non-empty
// items. The skyline packer compresses time to these slots (skyline.h), and
// its sweep's queries cost about log2 of their number.
// Example: [0,3] and [2,7] -> boundaries 0, 2, 4, 8 -> 3 slots; any number
// of items all live over [0,9] -> 1. O(n + span) for a DenseSpan, else
// O(n log n).
std::int64_t TimeSlots(const std::vector<PackItem>& items);

}  // namespace memplan
