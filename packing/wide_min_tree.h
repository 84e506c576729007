// WideMinTree: the least key over a range of positions, with keys raised to
// "absent" one at a time -- the dynamic range-minimum the skyline's
// pending-range index (length_class_ranges.h) asks once per query and
// updates once per placement.
//
// Each node holds the least of 16 children, so a node's children fill one
// 64-byte cache line and the tree is log16 n deep: at 10^6-10^7 positions a
// query touches about 2 lines per level, 6-7 levels, where a binary tree
// touches 2 per level over 20-24 levels, most of them outside the cache.
//
// Cost: building O(n); memory about 4.3 bytes a position (the keys, then a
// sixteenth of them per level above); Least O(16 log16 n); Remove
// O(16 log16 n).
//
// Example: keys {5, 3, 9, 1} -> Least(0, 3) = 3, Least(2, 4) = 1; after
// Remove(3), Least(0, 4) = 3 and Least(3, 4) = kAbsent.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace memplan {

class WideMinTree {
 public:
  static constexpr std::int32_t kAbsent = std::numeric_limits<std::int32_t>::max();

  // Position p holds keys[p].
  explicit WideMinTree(std::vector<std::int32_t> keys);

  // The least key at positions [lo, hi) (0 <= lo <= hi <= size()); kAbsent
  // when the range is empty or every key in it is removed.
  std::int32_t Least(std::int32_t lo, std::int32_t hi) const;

  // The key at position p (kAbsent once removed).
  std::int32_t At(std::int32_t p) const { return levels_[0][static_cast<std::size_t>(p)]; }

  // Sets position p's key to kAbsent.
  void Remove(std::int32_t p);

  std::size_t size() const { return size_; }

 private:
  static constexpr std::int32_t kFanOut = 16;

  std::size_t size_ = 0;
  // levels_[0] are the keys; entry i of levels_[k + 1] is the least of
  // entries 16 i .. 16 i + 15 of levels_[k]. Every level is padded with
  // kAbsent to a multiple of 16; the last has one node.
  std::vector<std::vector<std::int32_t>> levels_;
};

}  // namespace memplan
