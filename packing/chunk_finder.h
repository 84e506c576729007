// ChunkFinder: the best-fit placement step shared by every packer (and by
// memory space assignment): given the chunks already committed to an
// IntervalTree (or a PresortedIntervalTree), where should a new item of `size`
// bytes live during [s, e] go?
//
// It gathers the committed chunks whose live ranges intersect [s, e], sorts
// them by offset, and walks the free holes between them. The chosen offset is
// the hole with the least usable room that still fits (ties -> lower offset,
// so an exact fit wins at once); the hole's start is rounded up to the
// alignment first. With no hole that fits, the item goes on top of the
// highest intersecting chunk (not the global top of the heap), aligned. This
// is the placement rule of XLA's GlobalDecreasingSizeBestFitHeap
// (packing.md §2.2) and of TFLite's arena planner.
//
// Worked example (alignment 1): committed c [2,7] @50 (40 B) and b [1,6] @120
// (20 B). An item of 10 B during [0,3] sees both: holes [0,50) (50 B) and
// [90,120) (30 B); best fit -> 90. An item of 60 B during [0,3] fits no hole
// and goes on top of b -> 140. An item during [8,9] sees nothing -> 0.
#pragma once

#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "ir/units.h"
#include "packing/interval_tree.h"  // PlacedChunk

namespace memplan {

class ChunkFinder {
 public:
  // Best-fit offset (a multiple of `alignment` >= 1) for `size` > 0 bytes live
  // during [start, end], such that offset + size <= capacity; nullopt when no
  // such offset exists. `index` holds the committed chunks: an IntervalTree or
  // a PresortedIntervalTree. Cost: one index query plus O(k log k) for the k
  // intersecting chunks.
  template <typename Index>
  std::optional<Bytes> FindBestFit(const Index& index, TimeStep start, TimeStep end, Bytes size,
                                   Bytes alignment, Bytes capacity) const {
    scratch_.clear();
    index.ForEachOverlapping(start, end, [&](const PlacedChunk& c) {
      if (c.size > 0) scratch_.push_back({c.offset, c.offset + c.size});
    });
    return ChooseHole(size, alignment, capacity);
  }

  // FindBestFit for an item live during several closed ranges `pieces`
  // (its live set when it has dead gaps, PackItem::gaps): the chunks that
  // intersect any piece constrain it. Same result as FindBestFit when there
  // is one piece. Cost: one index query per piece plus O(k log k).
  template <typename Index>
  Bytes FindBestFitPieces(const Index& index,
                          std::span<const std::pair<TimeStep, TimeStep>> pieces, Bytes size,
                          Bytes alignment) const {
    scratch_.clear();
    for (const auto& [start, end] : pieces) {
      index.ForEachOverlapping(start, end, [&](const PlacedChunk& c) {
        if (c.size > 0) scratch_.push_back({c.offset, c.offset + c.size});
      });
    }
    return *ChooseHole(size, alignment, std::numeric_limits<Bytes>::max());
  }

  // How many committed chunks the last call gathered (its pair visits), for
  // work accounting (member_cost.h).
  std::size_t last_visits() const { return scratch_.size(); }

  // FindBestFit without a capacity: always succeeds.
  template <typename Index>
  Bytes FindBestFit(const Index& index, TimeStep start, TimeStep end, Bytes size,
                    Bytes alignment) const {
    return *FindBestFit(index, start, end, size, alignment, std::numeric_limits<Bytes>::max());
  }

 private:
  struct Span {
    Bytes offset;
    Bytes end;
  };
  // Best-fit choice among the used spans collected in scratch_.
  std::optional<Bytes> ChooseHole(Bytes size, Bytes alignment, Bytes capacity) const;

  // Reused between calls so a placement does not allocate.
  mutable std::vector<Span> scratch_;
};

}  // namespace memplan
