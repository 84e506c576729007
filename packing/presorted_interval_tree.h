// PresortedIntervalTree: an interval tree for the common case where every
// live range that will ever be stored is known up front (a global packer
// places a fixed list of items). It is a perfectly balanced search tree over
// those ranges sorted by (start, slot), stored implicitly in one array in that
// order: the root of the sorted positions [lo, hi) is (lo + hi) / 2. Inserting
// or removing a chunk only switches its slot on or off and fixes the max end
// on the root path, so there is no rebalancing, the depth is at most
// log2(n) + 1, and the chunks of one stretch of time sit next to each other in
// memory, which makes queries two to four times faster than in the treap
// (IntervalTree) when items are placed in an order unrelated to time (size
// order). Chunks are only added: use IntervalTree when they must be removed.
//
// Worked example: slots 0: [0,3], 1: [2,5], 2: [6,9]. Insert(1, 10, 20) and
// Insert(2, 0, 30): ForEachOverlapping(4, 6) visits slot 1 then slot 2;
// ForEachOverlapping(0, 1) visits nothing (slot 0 is not inserted).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "ir/units.h"
#include "packing/interval_tree.h"

namespace memplan {

class PresortedIntervalTree {
 public:
  // One slot per entry of `ranges` (pairs start <= end), all initially empty.
  // O(n log n).
  explicit PresortedIntervalTree(const std::vector<std::pair<TimeStep, TimeStep>>& ranges);

  // Stores the chunk [offset, offset + size) in `slot` for that slot's range.
  // The slot must be empty. O(log n).
  void Insert(std::int32_t slot, Bytes offset, Bytes size);

  // Calls visit(const PlacedChunk&) for every stored chunk whose range
  // intersects [s, e], in order of (start, slot). O((k + 1) log n) for k
  // visited chunks.
  template <typename Visitor>
  void ForEachOverlapping(TimeStep s, TimeStep e, Visitor&& visit) const {
    Visit(0, static_cast<std::int32_t>(keys_.size()), s, e, visit);
  }

 private:
  static constexpr TimeStep kEmpty = std::numeric_limits<TimeStep>::min();

  // Read by every visited node: kept small so a stretch of time fits in cache.
  struct Key {
    TimeStep start;
    TimeStep max_end;  // max end over stored chunks in the subtree (kEmpty: none)
  };
  // Read only for the chunks that are reported.
  struct Stored {
    TimeStep end;      // the slot's range end; kEmpty while the slot is empty
    Bytes offset;
    Bytes size;
  };

  template <typename Visitor>
  void Visit(std::int32_t lo, std::int32_t hi, TimeStep s, TimeStep e, Visitor& visit) const {
    while (lo < hi) {
      const std::int32_t mid = lo + (hi - lo) / 2;
      const Key& key = keys_[mid];
      if (key.max_end < s) return;
      Visit(lo, mid, s, e, visit);
      if (key.start > e) return;  // everything to the right starts later
      const Stored& stored = stored_[mid];
      if (stored.end >= s) visit(PlacedChunk{key.start, stored.end, stored.offset, stored.size});
      lo = mid + 1;
    }
  }

  std::vector<Key> keys_;               // by sorted position
  std::vector<Stored> stored_;          // by sorted position
  std::vector<TimeStep> range_end_;     // by sorted position
  std::vector<std::int32_t> position_;  // slot -> sorted position
};

}  // namespace memplan
