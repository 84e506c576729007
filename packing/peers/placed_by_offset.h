// PlacedByOffset: the placement state shared by the greedy emulations of
// TFLite's arena planner and TFLite Micro's greedy planner, which both walk
// the already placed buffers whose lifetimes meet the new one's in order of
// offset, looking at the gaps between them.
//
// Items are read as their hulls [start, end] (gaps ignored: neither planner
// knows about conditionals). Example: placed a [0,3] @0 (10 B) and b [5,6]
// @0 (20 B); Conflicts(item [2,4]) is {a: [0,10)}; b does not meet [2,4].
#pragma once

#include <cstdint>
#include <vector>

#include "ir/units.h"
#include "packing/packer.h"
#include "packing/presorted_interval_tree.h"

namespace memplan::peers {

// Bytes [offset, end) of a placed item.
struct PlacedSpan {
  Bytes offset = 0;
  Bytes end = 0;
};

class PlacedByOffset {
 public:
  // Keeps a reference to `items` (must outlive this). O(n log n).
  explicit PlacedByOffset(const std::vector<PackItem>& items);

  // The placed items whose hulls intersect item `i`'s, sorted by (offset,
  // end). Valid until the next call. O(log n + k log k) for k of them.
  const std::vector<PlacedSpan>& Conflicts(std::int32_t i);

  // Records item `i` (not yet placed) at `offset` with `size` bytes (the
  // size a planner reserves, e.g. padded). O(log n).
  void Place(std::int32_t i, Bytes offset, Bytes size);

  // Places every item with a fixed offset (PackItem::fixed_offset) there,
  // with its own size, and records it in `offsets` (one per item); the
  // caller then skips those items. O(f log n).
  void PlaceFixed(std::vector<Bytes>& offsets);

 private:
  const std::vector<PackItem>& items_;
  PresortedIntervalTree placed_;
  std::vector<PlacedSpan> scratch_;
};

}  // namespace memplan::peers
