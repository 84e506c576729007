// LengthClassRanges: the query of ContainedRanges (contained_ranges.h) --
// which range, among those not yet removed, lies inside a window [a, b) and
// has the least rank? -- in about 17 bytes a range instead of the range
// tree's 16 bytes a range per level (270-330 B at 10^6-10^7 ranges), for
// inputs whose live ranges are short next to how many start close together.
//
// The ranges are grouped by length class (lengths in [2^j, 2^(j+1))) and
// sorted by start l in each class, with one min-tree over their ranks. For a
// class whose lengths lie in [lo, hi], a range starting in [a, b - hi] ends
// by b (a prefix minimum of the tree), one starting after b - lo cannot, and
// the few starting in between (the *tail*) are checked one by one.
//
// A query's first search by start in each class goes through a directory
// of the class's starts (the first position at every 2^k slots, about one
// entry per 4 ranges), so it reads a few neighbouring starts instead of
// binary-searching the whole class; the other two gallop forward from it.
// At 10^6-10^7 ranges the binary searches were most of a query's cache
// misses.
//
// The ranks sit in a min-tree of fan-out 16 (wide_min_tree.h).
//
// Cost: building O(n log n); memory about 17 bytes a range plus 4 a rank;
// LeastInside O(c (log b + 16 log16 n + t)) for c classes, b ranges in a
// directory bucket and t ranges in a class's tail (at most TailBound);
// Remove O(16 log16 n).
//
// Example: ranges {[0,4) rank 2, [1,3) rank 0, [2,6) rank 1} (6 slots).
// LeastInside(0, 4) -> 0 ([1,3)); LeastInside(2, 6) -> 1; after Remove(0),
// LeastInside(0, 4) -> 2; LeastInside(1, 4) -> none.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "packing/contained_ranges.h"
#include "packing/wide_min_tree.h"

namespace memplan {

class LengthClassRanges {
 public:
  using Range = ContainedRanges::Range;

  // `ranks` bounds every rank (rank < ranks); every range has l < r. Sorts
  // the ranges (SortByClassAndStart: nothing to do when they come sorted).
  LengthClassRanges(std::vector<Range> ranges, std::int32_t ranks);

  // The least rank of a range not removed with a <= l and r <= b, or nullopt.
  std::optional<std::int32_t> LeastInside(std::int32_t a, std::int32_t b) const;

  // Removes the range of `rank` (present, not removed yet) and returns it
  // (the skyline sweep reads a placed item's slots here, not from a copy).
  Range Remove(std::int32_t rank);

  // Number of ranges (removed ones included).
  std::size_t size() const { return l_.size(); }

  // Sorts `ranges` into the order the constructor keeps them in: by length
  // class (lengths in [2^j, 2^(j+1))), then start, then rank. O(n) when
  // already sorted; O(n + slots) for ranges in rank order whose starts are
  // below 2 per range (the skyline sweep's); else O(n log n).
  static void SortByClassAndStart(std::vector<Range>& ranges);

  // The most ranges one LeastInside can check one by one: per length class
  // [lo, hi], the most of its ranges whose starts lie in one window of
  // hi - lo slots, summed over the classes. `ranges` sorted by
  // SortByClassAndStart. O(n).
  static std::int64_t TailBound(const std::vector<Range>& ranges);

 private:
  static constexpr std::int32_t kNone = WideMinTree::kAbsent;

  struct LengthClass {
    std::int32_t begin = 0;  // its ranges are [begin, end) in l_ / r_
    std::int32_t end = 0;
    std::int32_t shortest = 0;  // lengths in [shortest, longest]
    std::int32_t longest = 0;
    std::int32_t first_start = 0;  // l_[begin]
    std::int32_t shift = 0;        // a directory bucket spans 2^shift slots
    std::int32_t buckets = 0;      // directory_[directory_at + b], b <= buckets
    std::int32_t directory_at = 0;
  };

  // The first position of class `c` whose start is at least `x` (c.end: none).
  std::int32_t FirstStartAtLeast(const LengthClass& c, std::int32_t x) const;

  // The first position in [from, end) whose start is at least `x` (end:
  // none), searched forward from `from`; positions before it start below x.
  std::int32_t FirstStartAtLeastFrom(std::int32_t from, std::int32_t end, std::int32_t x) const;

  // Fills the directory fields of `c` and appends its buckets to directory_.
  void BuildDirectory(LengthClass& c);

  std::vector<LengthClass> classes_;    // by length, non-empty only
  std::vector<std::int32_t> l_;          // by (class, l, rank)
  std::vector<std::int32_t> r_;
  WideMinTree tree_{{}};                // position p -> its rank (kAbsent: removed)
  std::vector<std::int32_t> position_;  // rank -> position (-1: absent)
  // Per class, entry b: the first position whose start is at least
  // first_start + b * 2^shift; one more entry (the class's end) closes it.
  std::vector<std::int32_t> directory_;
};

}  // namespace memplan
