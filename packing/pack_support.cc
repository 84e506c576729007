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

Bytes PeakOf(const std::vector<PackItem>& items, const std::vector<Bytes>& offsets) {
  Bytes peak = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!IsEmpty(items[i])) peak = std::max(peak, offsets[i] + items[i].size);
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
