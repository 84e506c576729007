#include "packing/baselines.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "packing/pack_support.h"
#include "packing/presorted_interval_tree.h"

namespace memplan {

PackResult NaivePack(const std::vector<PackItem>& items, Bytes alignment) {
  std::vector<Bytes> offsets(items.size(), 0);
  Bytes top = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (IsEmpty(items[i])) continue;
    offsets[i] = AlignUp(top, EffectiveAlignment(items[i], alignment));
    top = offsets[i] + items[i].size;
  }
  return MakePackResult(items, std::move(offsets), "naive");
}

PackResult InOrderPack(const std::vector<PackItem>& items, Bytes alignment) {
  std::vector<Bytes> offsets(items.size(), 0);
  // One slot per live piece, so an item's dead gaps stay free for others.
  const LivePieceSlots slots = LivePieces(items);
  PresortedIntervalTree placed(slots.ranges);
  std::vector<PlacedChunk> conflicts;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const PackItem& item = items[i];
    if (IsEmpty(item)) continue;
    const Bytes align = EffectiveAlignment(item, alignment);
    conflicts.clear();
    for (std::int32_t slot = slots.first[i]; slot < slots.first[i + 1]; ++slot) {
      placed.ForEachOverlapping(slots.ranges[slot].first, slots.ranges[slot].second,
                                [&](const PlacedChunk& c) { conflicts.push_back(c); });
    }
    std::sort(conflicts.begin(), conflicts.end(),
              [](const PlacedChunk& a, const PlacedChunk& b) { return a.offset < b.offset; });
    std::optional<Bytes> best;
    Bytes best_gap = std::numeric_limits<Bytes>::max();
    Bytes used_end = 0;  // highest end among the conflicting chunks seen so far
    for (const PlacedChunk& c : conflicts) {
      const Bytes candidate = AlignUp(used_end, align);
      const Bytes gap = c.offset - used_end;
      if (candidate + item.size <= c.offset && gap < best_gap) {
        best = candidate;
        best_gap = gap;
      }
      used_end = std::max(used_end, c.offset + c.size);
    }
    offsets[i] = best ? *best : AlignUp(used_end, align);
    for (std::int32_t slot = slots.first[i]; slot < slots.first[i + 1]; ++slot) {
      placed.Insert(slot, offsets[i], item.size);
    }
  }
  return MakePackResult(items, std::move(offsets), "in-order");
}

}  // namespace memplan
