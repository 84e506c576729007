#include "packing/baselines.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "packing/fixed_items.h"
#include "packing/member_cost.h"
#include "packing/pack_support.h"
#include "packing/presorted_interval_tree.h"

namespace memplan {

PackResult NaivePack(const std::vector<PackItem>& items, Bytes alignment) {
  std::vector<Bytes> offsets = InitialOffsets(items);
  const FixedObstacles fixed(items);  // skipped over where they are live
  Bytes top = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const PackItem& item = items[i];
    if (IsEmpty(item) || item.fixed_offset()) continue;
    offsets[i] = fixed.Lift(item.start, EndOf(item), item.size,
                            EffectiveAlignment(item, alignment), top);
    top = offsets[i] + item.size;
  }
  return MakePackResult(items, std::move(offsets), "naive");
}

PackResult InOrderPack(const std::vector<PackItem>& items, Bytes alignment) {
  return *InOrderPackUntil(items, alignment, std::nullopt);
}

std::optional<PackResult> InOrderPackUntil(const std::vector<PackItem>& items, Bytes alignment,
                                           const PackDeadline& deadline) {
  double work = 0;
  return InOrderPackWithin(items, alignment, std::numeric_limits<double>::infinity(), &work,
                           deadline);
}

std::optional<PackResult> InOrderPackWithin(const std::vector<PackItem>& items, Bytes alignment,
                                            double work_limit, double* work,
                                            const PackDeadline& deadline) {
  DeadlinePoll poll(deadline);
  std::vector<Bytes> offsets = InitialOffsets(items);
  // One slot per live piece, so an item's dead gaps stay free for others.
  const LivePieceSlots slots = LivePieces(items);
  PresortedIntervalTree placed(slots.ranges);
  SeedFixedItems(items, slots, placed);  // fixed items are walls from the start
  std::vector<PlacedChunk> conflicts;
  Bytes top = 0;  // the highest placed item's top so far
  for (std::size_t i = 0; i < items.size(); ++i) {
    const PackItem& item = items[i];
    if (IsEmpty(item) || item.fixed_offset()) continue;
    if (poll.Passed(top)) return std::nullopt;
    const Bytes align = EffectiveAlignment(item, alignment);
    conflicts.clear();
    for (std::int32_t slot = slots.first[i]; slot < slots.first[i + 1]; ++slot) {
      placed.ForEachOverlapping(slots.ranges[slot].first, slots.ranges[slot].second,
                                [&](const PlacedChunk& c) { conflicts.push_back(c); });
    }
    *work += PlacementWork(conflicts.size(), items.size());
    if (*work > work_limit) return std::nullopt;
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
    top = std::max(top, offsets[i] + item.size);
    for (std::int32_t slot = slots.first[i]; slot < slots.first[i + 1]; ++slot) {
      placed.Insert(slot, offsets[i], item.size);
    }
  }
  return MakePackResult(items, std::move(offsets), "in-order");
}

}  // namespace memplan
