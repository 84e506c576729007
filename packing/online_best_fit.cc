#include "packing/online_best_fit.h"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>

#include "packing/fixed_items.h"
#include "packing/free_blocks.h"
#include "packing/pack_support.h"

namespace memplan {

PackResult OnlineBestFitPack(const std::vector<PackItem>& items, Bytes alignment) {
  std::vector<std::int32_t> by_start;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!IsEmpty(items[i]) && !items[i].fixed_offset) by_start.push_back(static_cast<std::int32_t>(i));
  }
  std::vector<std::int32_t> by_end = by_start;
  auto length = [&](std::int32_t i) { return EndOf(items[i]) - items[i].start; };
  std::sort(by_start.begin(), by_start.end(), [&](std::int32_t a, std::int32_t b) {
    return std::make_tuple(items[a].start, -items[a].size, -length(a), a) <
           std::make_tuple(items[b].start, -items[b].size, -length(b), b);
  });
  std::sort(by_end.begin(), by_end.end(), [&](std::int32_t a, std::int32_t b) {
    return std::make_pair(EndOf(items[a]), a) < std::make_pair(EndOf(items[b]), b);
  });

  std::vector<Bytes> offsets = InitialOffsets(items);
  FreeBlocks free;
  // A replay cannot see a fixed item before it starts: its bytes stay
  // reserved for the whole run (conservative).
  for (const auto& [lo, hi] : FixedByteRanges(items)) free.Reserve(lo, hi);
  std::size_t freed = 0;
  for (std::int32_t i : by_start) {
    const PackItem& item = items[i];
    // An item ending before this start began earlier, so it is placed.
    for (; freed < by_end.size() && EndOf(items[by_end[freed]]) < item.start; ++freed) {
      const std::int32_t j = by_end[freed];
      free.Give(offsets[j], offsets[j] + items[j].size);
    }
    offsets[i] = free.Take(item.size, EffectiveAlignment(item, alignment));
  }
  return MakePackResult(items, std::move(offsets), "online-best-fit");
}

}  // namespace memplan
