#include "packing/pack_support.h"

#include <algorithm>
#include <utility>

namespace memplan {

std::vector<std::pair<TimeStep, TimeStep>> LiveRanges(const std::vector<PackItem>& items) {
  std::vector<std::pair<TimeStep, TimeStep>> ranges;
  ranges.reserve(items.size());
  for (const PackItem& item : items) ranges.emplace_back(item.start, EndOf(item));
  return ranges;
}

LivePieceSlots LivePieces(const std::vector<PackItem>& items) {
  LivePieceSlots slots;
  slots.ranges.reserve(items.size());
  slots.first.reserve(items.size() + 1);
  for (const PackItem& item : items) {
    slots.first.push_back(static_cast<std::int32_t>(slots.ranges.size()));
    const TimeStep end = EndOf(item);
    TimeStep from = item.start;  // first step of the piece being built
    for (const StepRange& gap : item.gaps()) {
      if (gap.first <= from || gap.last >= end || gap.first > gap.last) continue;
      slots.ranges.emplace_back(from, gap.first - 1);
      from = gap.last + 1;
    }
    slots.ranges.emplace_back(from, end);
  }
  slots.first.push_back(static_cast<std::int32_t>(slots.ranges.size()));
  return slots;
}

Bytes PeakOf(const std::vector<PackItem>& items, const std::vector<Bytes>& offsets) {
  Bytes peak = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    // An empty item counts only where the input fixed it: the pool must
    // reach the offset the user gave (movable empty items sit at 0).
    if (!IsEmpty(items[i]) || items[i].fixed_offset()) {
      peak = std::max(peak, offsets[i] + items[i].size);
    }
  }
  return peak;
}

PackResult MakePackResult(const std::vector<PackItem>& items, std::vector<Bytes> offsets,
                          std::string algorithm) {
  PackResult result;
  result.peak = PeakOf(items, offsets);
  result.offsets = std::move(offsets);
  result.algorithm = std::move(algorithm);
  return result;
}

}  // namespace memplan
