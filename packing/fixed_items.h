// Fixed items (PackItem::fixed_offset, MiniMalloc's `offset` column): the
// helpers every packer uses to keep them where they are and place the other
// items around them.
//
//  * Packers with an interval index of placed chunks (best fit, in-order, the
//    TFLite emulations) insert the fixed items first (SeedFixedItems) and
//    then place the free items as usual: the fixed chunks are holes' walls
//    like any other.
//  * Packers without one (skyline, naive) ask FixedObstacles::Lift for the
//    lowest offset at or above their choice that no fixed item blocks.
//  * Free-list replays (online best fit, ONNX Runtime's pattern) cannot see
//    a fixed item before its start, so they reserve the fixed items' bytes
//    for the whole run (FixedByteRanges; conservative, still valid).
//
// Fixed items that collide with each other are kept as given (the driver
// refuses such inputs first, driver/fixed_offsets.h).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ir/units.h"
#include "packing/pack_support.h"
#include "packing/packer.h"
#include "packing/presorted_interval_tree.h"

namespace memplan {

// True when some item has a fixed offset. O(n).
bool AnyFixed(const std::vector<PackItem>& items);

// One offset per item: its fixed offset, else 0 (the packer fills those in).
std::vector<Bytes> InitialOffsets(const std::vector<PackItem>& items);

// Inserts every non-empty fixed item's live pieces (`slots`, from
// LivePieces(items)) into `placed` at its fixed offset.
// O(f log n) for f fixed items.
void SeedFixedItems(const std::vector<PackItem>& items, const LivePieceSlots& slots,
                    PresortedIntervalTree& placed);

// The byte ranges [lo, hi) that some non-empty fixed item occupies, merged
// and sorted. Example: fixed a@0 (8 B), b@4 (8 B), c@32 (4 B) -> {[0,12),
// [32,36)}. O(f log f).
std::vector<std::pair<Bytes, Bytes>> FixedByteRanges(const std::vector<PackItem>& items);

// The non-empty fixed items of a packing, indexed by their live pieces.
class FixedObstacles {
 public:
  // O(n + f log f).
  explicit FixedObstacles(const std::vector<PackItem>& items);

  bool empty() const { return fixed_.empty(); }

  // The lowest multiple of `alignment` (>= 1) at or above `offset` where
  // `size` > 0 bytes live during the closed range [start, end] share no byte
  // with a fixed item live during it. Example: fixed [0,10) and [16,24) both
  // live then, size 6, alignment 4, offset 0 -> 10 is not aligned, 12 + 6
  // passes 16, so 24. O(log f + k log k) for the k fixed pieces met.
  // Thread-safe: the two local searches share one skyline packer (and so
  // one FixedObstacles) across their threads.
  Bytes Lift(TimeStep start, TimeStep end, Bytes size, Bytes alignment, Bytes offset) const;

 private:
  std::vector<PackItem> fixed_;  // the non-empty fixed items
  LivePieceSlots slots_;         // their live pieces
  PresortedIntervalTree tree_;   // their chunks over those pieces
};

}  // namespace memplan
