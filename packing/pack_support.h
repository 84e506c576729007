// Small helpers shared by the packers in this folder.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan {

// SplitMix64: a fixed bijective 64-bit mix. Used for pseudo-random choices
// that must be identical on every run and platform (no std:: distributions).
inline std::uint64_t Mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

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

// The closed live range of every item, for PresortedIntervalTree slots.
std::vector<std::pair<TimeStep, TimeStep>> LiveRanges(const std::vector<PackItem>& items);

// The live pieces of every item, [start, end] minus its gaps, as closed
// ranges numbered for PresortedIntervalTree slots: item i's pieces are the
// slots first[i] .. first[i + 1] - 1, in time order. Without gaps slot i is
// item i's live range, as in LiveRanges. Malformed gaps (not strictly inside,
// unsorted, overlapping) are skipped, never shrinking an item's live set.
// Example: a [0,9] gaps {[2,4], [6,6]}, b [3,5] -> ranges [0,1] [5,5] [7,9]
// [3,5], first {0, 3, 4}. O(n + gaps).
struct LivePieceSlots {
  std::vector<std::pair<TimeStep, TimeStep>> ranges;
  std::vector<std::int32_t> first;  // items + 1 entries
};
LivePieceSlots LivePieces(const std::vector<PackItem>& items);

// Max of offset + size over the non-empty items and the fixed empty ones (0
// if none).
Bytes PeakOf(const std::vector<PackItem>& items, const std::vector<Bytes>& offsets);

// Packages offsets with their peak and the name of the heuristic.
PackResult MakePackResult(const std::vector<PackItem>& items, std::vector<Bytes> offsets,
                          std::string algorithm);

}  // namespace memplan
