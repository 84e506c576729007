// ContainedRanges: which range, among those not yet removed, lies inside a
// window [a, b) and has the least rank? The query behind the skyline sweep
// (skyline.h): a window is a run of time slots where the skyline is at or
// below the sweep's level, and an item can rest there iff its slot range lies
// inside the run.
//
// A static set of half-open ranges [l, r) of slots, each with a distinct
// rank, from which ranges are removed one by one. "Inside [a, b)" is the 2D
// dominance condition l >= a and r <= b, answered by a range tree (de Berg
// et al., Computational Geometry, ch. 5): an outer tree over the ranges
// sorted by l; each of its nodes keeps its ranges sorted by r with a
// min-tree over their ranks, so a query is a prefix minimum in each of the
// O(log n) outer nodes covering l >= a. Nodes of fewer than 16 ranges are
// scanned instead (less memory, faster on so few).
//
// Cost: building O(n log n) time; memory 4 bytes per slot and 16 per range per outer level
// of 16 and more (about log2(n / 8) levels: 224 B a range at 10^5, 272 B at
// 10^6); LeastInside O(log^2 n), Remove O(log^2 n) with no search.
//
// Example: ranges {[0,4) rank 2, [1,3) rank 0, [2,6) rank 1}.
// (6 slots) LeastInside(0, 4) -> 0 ([1,3)); LeastInside(2, 6) -> 1; after Remove(0),
// LeastInside(0, 4) -> 2; LeastInside(1, 4) -> none.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace memplan {

class ContainedRanges {
 public:
  struct Range {
    std::int32_t l = 0;     // first slot
    std::int32_t r = 0;     // one past the last slot (l < r)
    std::int32_t rank = 0;  // distinct, >= 0, < the number of ranks
  };

  // `ranks` bounds every rank (rank < ranks) and `slots` every slot (r <=
  // slots); the ranges need not cover all ranks below it.
  ContainedRanges(std::vector<Range> ranges, std::int32_t ranks, std::int32_t slots);

  // The least rank of a range not removed with a <= l and r <= b, or nullopt.
  std::optional<std::int32_t> LeastInside(std::int32_t a, std::int32_t b) const;

  // Removes the range of `rank` (present, not removed yet) and returns it
  // (the skyline sweep reads a placed item's slots here, not from a copy).
  Range Remove(std::int32_t rank);

  // Number of ranges (removed ones included).
  std::size_t size() const { return by_l_.size(); }

 private:
  // Outer nodes of fewer than 2^kScanLog ranges are scanned.
  static constexpr std::int32_t kScanLog = 4;
  static constexpr std::int32_t kNone = INT32_MAX;

  std::int32_t RankAt(std::int32_t level, std::int32_t pos) const;
  std::int32_t BlockPrefixMin(std::int32_t level, std::int32_t block, std::int32_t count) const;

  std::vector<Range> by_l_;             // sorted by (l, rank); removed: r = kNone
  std::vector<std::int32_t> position_;  // rank -> index in by_l_ (-1: absent)
  std::vector<std::int32_t> first_at_;  // slot s -> the first index of by_l_ with l >= s
  // Per level k (blocks of 2^(kScanLog + k) ranges of by_l_): the block's
  // ranges as keys r << 32 | rank, sorted (a removed range's rank bits are
  // kNone), and per block of s
  // ranges a bottom-up min-tree's inner nodes 1..s-1 at the block's start
  // (its leaves are RankAt).
  std::vector<std::vector<std::int64_t>> keys_;
  std::vector<std::vector<std::int32_t>> tree_;
  // Index i of by_l_ x levels + k: where range i is among level k's keys.
  std::vector<std::int32_t> where_;
};

}  // namespace memplan
