#include "packing/peers/placed_by_offset.h"

#include <algorithm>

#include "packing/pack_support.h"

namespace memplan::peers {

PlacedByOffset::PlacedByOffset(const std::vector<PackItem>& items)
    : items_(items), placed_(LiveRanges(items)) {}

const std::vector<PlacedSpan>& PlacedByOffset::Conflicts(std::int32_t i) {
  scratch_.clear();
  placed_.ForEachOverlapping(items_[i].start, EndOf(items_[i]), [&](const PlacedChunk& c) {
    if (c.size > 0) scratch_.push_back({c.offset, c.offset + c.size});
  });
  std::sort(scratch_.begin(), scratch_.end(), [](const PlacedSpan& a, const PlacedSpan& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.end < b.end;
  });
  return scratch_;
}

void PlacedByOffset::Place(std::int32_t i, Bytes offset, Bytes size) {
  placed_.Insert(i, offset, size);
}

}  // namespace memplan::peers
