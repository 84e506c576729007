// Small helpers shared by the packers in this folder.
#pragma once

#include <string>
#include <vector>

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan {

// The alignment an item's offset must honour: max(item.alignment, alignment),
// at least 1.
inline Bytes EffectiveAlignment(const PackItem& item, Bytes alignment) {
  const Bytes a = item.alignment > alignment ? item.alignment : alignment;
  return a < 1 ? 1 : a;
}

// True for items that take no space (size <= 0): they go to offset 0 and never
// conflict with anything.
inline bool IsEmpty(const PackItem& item) { return item.size <= 0; }

// The item's live range as a closed interval; a reversed range (end < start)
// is read as the single step `start`.
inline TimeStep EndOf(const PackItem& item) { return item.end < item.start ? item.start : item.end; }

// Max over non-empty items of offset + size (0 if none).
Bytes PeakOf(const std::vector<PackItem>& items, const std::vector<Bytes>& offsets);

// Packages offsets with their peak and the name of the heuristic.
PackResult MakePackResult(const std::vector<PackItem>& items, std::vector<Bytes> offsets,
                          std::string algorithm);

}  // namespace memplan
