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
  // The replay orders, sorted on copies of their keys (16 bytes each):
  // comparing through the items (48 bytes each, in no useful order) cost
  // most of the replay's time at 10^7 items. Each key array is freed once
  // its order is read out.
  std::vector<std::int32_t> by_start;
  {
    std::vector<std::pair<TimeStep, std::int32_t>> keys;  // (start, index)
    keys.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      const PackItem& item = items[i];
      if (IsEmpty(item) || item.fixed_offset) continue;
      keys.emplace_back(item.start, static_cast<std::int32_t>(i));
    }
    std::sort(keys.begin(), keys.end());
    by_start.reserve(keys.size());
    for (const auto& [start, i] : keys) by_start.push_back(i);
  }
  // Among items of one start (a few at a time), larger first, then longer,
  // then the lower index.
  const auto length = [&](std::int32_t i) { return EndOf(items[i]) - items[i].start; };
  for (std::size_t run = 0; run < by_start.size();) {
    std::size_t next = run + 1;
    while (next < by_start.size() && items[by_start[next]].start == items[by_start[run]].start) ++next;
    std::sort(by_start.begin() + static_cast<std::ptrdiff_t>(run),
              by_start.begin() + static_cast<std::ptrdiff_t>(next), [&](std::int32_t a, std::int32_t b) {
                return std::make_tuple(-items[a].size, -length(a), a) <
                       std::make_tuple(-items[b].size, -length(b), b);
              });
    run = next;
  }
  std::vector<std::int32_t> by_end;
  {
    std::vector<std::pair<TimeStep, std::int32_t>> keys;  // (end, index)
    keys.reserve(by_start.size());
    for (std::int32_t i : by_start) keys.emplace_back(EndOf(items[i]), i);
    std::sort(keys.begin(), keys.end());
    by_end.reserve(keys.size());
    for (const auto& [end, i] : keys) by_end.push_back(i);
  }

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
