#include "packing/fixed_items.h"

#include <algorithm>

namespace memplan {
namespace {

bool IsFixedChunk(const PackItem& item) { return item.fixed_offset() && !IsEmpty(item); }

// The non-empty fixed items alone, in input order.
std::vector<PackItem> FixedChunkItems(const std::vector<PackItem>& items) {
  std::vector<PackItem> fixed;
  for (const PackItem& item : items) {
    if (IsFixedChunk(item)) fixed.push_back(item);
  }
  return fixed;
}

}  // namespace

bool AnyFixed(const std::vector<PackItem>& items) {
  return std::any_of(items.begin(), items.end(),
                     [](const PackItem& item) { return item.fixed_offset().has_value(); });
}

std::vector<Bytes> InitialOffsets(const std::vector<PackItem>& items) {
  std::vector<Bytes> offsets(items.size(), 0);
  for (std::size_t i = 0; i < items.size(); ++i) offsets[i] = items[i].fixed_offset().value_or(0);
  return offsets;
}

void SeedFixedItems(const std::vector<PackItem>& items, const LivePieceSlots& slots,
                    PresortedIntervalTree& placed) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!IsFixedChunk(items[i])) continue;
    for (std::int32_t slot = slots.first[i]; slot < slots.first[i + 1]; ++slot) {
      placed.Insert(slot, *items[i].fixed_offset(), items[i].size);
    }
  }
}

std::vector<std::pair<Bytes, Bytes>> FixedByteRanges(const std::vector<PackItem>& items) {
  std::vector<std::pair<Bytes, Bytes>> ranges;
  for (const PackItem& item : items) {
    if (IsFixedChunk(item)) {
      ranges.emplace_back(*item.fixed_offset(), *item.fixed_offset() + item.size);
    }
  }
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<Bytes, Bytes>> merged;
  for (const auto& [lo, hi] : ranges) {
    if (!merged.empty() && lo <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, hi);
    } else {
      merged.emplace_back(lo, hi);
    }
  }
  return merged;
}

FixedObstacles::FixedObstacles(const std::vector<PackItem>& items)
    : fixed_(FixedChunkItems(items)), slots_(LivePieces(fixed_)), tree_(slots_.ranges) {
  SeedFixedItems(fixed_, slots_, tree_);
}

Bytes FixedObstacles::Lift(TimeStep start, TimeStep end, Bytes size, Bytes alignment,
                           Bytes offset) const {
  Bytes candidate = AlignUp(offset, std::max<Bytes>(1, alignment));
  if (fixed_.empty()) return candidate;
  std::vector<std::pair<Bytes, Bytes>> met;  // local: Lift runs on several threads at once
  tree_.ForEachOverlapping(start, end, [&](const PlacedChunk& c) {
    met.emplace_back(c.offset, c.offset + c.size);
  });
  std::sort(met.begin(), met.end());
  for (const auto& [lo, hi] : met) {
    if (hi <= candidate) continue;
    if (lo >= candidate + size) break;  // the rest start higher still
    candidate = AlignUp(hi, std::max<Bytes>(1, alignment));
  }
  return candidate;
}

}  // namespace memplan
