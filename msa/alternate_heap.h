// AlternateHeap: the alternate (fast) memory during one assignment run — the
// chunks committed so far, indexed by live range (packing/interval_tree.h),
// and the placement questions the allocator asks: best fit for a new chunk
// (packing/chunk_finder.h, bounded by the capacity), whether a given offset
// is free over a range, how far a chunk can be extended at its offset, and
// how much free room surrounds a placement (for fragmentation-aware choices).
//
// Example (capacity 128, alignment 8): with chunk A = [0,3] @0 (32 B),
// BestFit(2, 5, 20) = 32 (A is in the way); BestFit(4, 5, 20) = 0;
// FreeUntil(0, 32, 4, 9) = 9; with B = [7,9] @16 (8 B) also committed,
// FreeUntil(0, 32, 4, 9) = 6 and HoleRoom(40, 8, 7, 9) = 128 - 24 - 8 = 96.
#pragma once

#include <optional>
#include <vector>

#include "ir/units.h"
#include "packing/chunk_finder.h"
#include "packing/interval_tree.h"

namespace memplan {

class AlternateHeap {
 public:
  AlternateHeap(Bytes capacity, Bytes alignment);

  Bytes capacity() const { return capacity_; }
  Bytes alignment() const { return alignment_; }

  // Best-fit aligned offset for `size` bytes during [start, end] with
  // offset + size <= capacity, or nullopt.
  std::optional<Bytes> BestFit(TimeStep start, TimeStep end, Bytes size) const;

  // True if [offset, offset + size) is free during [start, end].
  bool IsFree(Bytes offset, Bytes size, TimeStep start, TimeStep end) const;

  // The latest e in [start - 1, limit] such that [offset, offset + size) is
  // free during [start, e] (start - 1: not free at `start`).
  TimeStep FreeUntil(Bytes offset, Bytes size, TimeStep start, TimeStep limit) const;

  // Free bytes of the address hole around [offset, offset + size) during
  // [start, end] (from the nearest chunk end below to the nearest chunk
  // start above, or the capacity), minus `size`: 0 for an exact fit.
  Bytes HoleRoom(Bytes offset, Bytes size, TimeStep start, TimeStep end) const;

  IntervalTree::Handle Commit(TimeStep start, TimeStep end, Bytes offset, Bytes size);
  void Uncommit(IntervalTree::Handle handle);
  // Forgets every chunk (before re-committing a repacked layout).
  void Clear() { tree_.Clear(); }

 private:
  Bytes capacity_;
  Bytes alignment_;
  IntervalTree tree_;
  ChunkFinder finder_;
};

}  // namespace memplan
