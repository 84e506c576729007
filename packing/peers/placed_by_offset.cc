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

void PlacedByOffset::PlaceFixed(std::vector<Bytes>& offsets) {
  for (std::int32_t i = 0; i < static_cast<std::int32_t>(items_.size()); ++i) {
    if (!items_[i].fixed_offset()) continue;
    offsets[i] = *items_[i].fixed_offset();
    if (!IsEmpty(items_[i])) Place(i, offsets[i], items_[i].size);
  }
}

}  // namespace memplan::peers
