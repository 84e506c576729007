#include "packing/peers/onnxruntime_pattern.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "packing/fixed_items.h"
#include "packing/free_blocks.h"
#include "packing/pack_support.h"

namespace memplan::peers {

PackResult OnnxRuntimePatternPack(const std::vector<PackItem>& items, Bytes alignment) {
  std::vector<std::int32_t> by_start;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!IsEmpty(items[i]) && !items[i].fixed_offset()) {
      by_start.push_back(static_cast<std::int32_t>(i));
    }
  }
  std::vector<std::int32_t> by_end = by_start;
  std::sort(by_start.begin(), by_start.end(), [&](std::int32_t a, std::int32_t b) {
    return std::make_pair(items[a].start, a) < std::make_pair(items[b].start, b);
  });
  std::sort(by_end.begin(), by_end.end(), [&](std::int32_t a, std::int32_t b) {
    return std::make_pair(EndOf(items[a]), a) < std::make_pair(EndOf(items[b]), b);
  });

  std::vector<Bytes> offsets = InitialOffsets(items);
  std::vector<Bytes> padded(items.size(), 0);
  FreeBlocks blocks;
  // Fixed items' bytes stay reserved for the whole run (packing/fixed_items.h).
  for (const auto& [lo, hi] : FixedByteRanges(items)) blocks.Reserve(lo, hi);
  Bytes high_water = blocks.top();
  std::size_t freed = 0;
  for (std::int32_t i : by_start) {
    const PackItem& item = items[i];
    for (; freed < by_end.size() && EndOf(items[by_end[freed]]) < item.start; ++freed) {
      const std::int32_t j = by_end[freed];
      blocks.Give(offsets[j], offsets[j] + padded[j]);
    }
    const Bytes align = EffectiveAlignment(item, alignment);
    padded[i] = AlignUp(item.size, align);
    // The gap between the live blocks' top and the high-water mark competes
    // with the gaps below on waste; the lower gap wins a tie.
    const Bytes top = AlignUp(blocks.top(), align);
    const std::optional<Bytes> top_waste =
        top + padded[i] <= high_water ? std::optional<Bytes>(high_water - top - padded[i])
                                      : std::nullopt;
    const std::optional<FreeBlocks::Fit> below = blocks.BestFit(padded[i], align);
    if (below && (!top_waste || below->block_size - padded[i] <= *top_waste)) {
      offsets[i] = blocks.TakeAt(*below, padded[i]);
    } else {
      offsets[i] = blocks.TakeTop(padded[i], align);
    }
    high_water = std::max(high_water, offsets[i] + padded[i]);
  }
  return MakePackResult(items, std::move(offsets), "onnxruntime-mem-pattern");
}

}  // namespace memplan::peers
