#include "packing/peers/tflite_arena.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <tuple>

#include "packing/pack_support.h"
#include "packing/peers/placed_by_offset.h"

namespace memplan::peers {
namespace {

std::vector<std::int32_t> TfliteOrder(const std::vector<PackItem>& items) {
  TimeStep last = 0;
  for (const PackItem& item : items) last = std::max(last, EndOf(item));
  // 0: alive for the whole run (allocated at node 0, never freed).
  const auto group = [&](std::int32_t i) {
    return items[i].start == 0 && EndOf(items[i]) == last ? 0 : 1;
  };
  const auto key = [&](std::int32_t i) {
    return group(i) == 0 ? std::make_tuple(0, Bytes{0}, TimeStep{0}, i)
                         : std::make_tuple(1, -items[i].size, items[i].start, i);
  };
  std::vector<std::int32_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::int32_t a, std::int32_t b) { return key(a) < key(b); });
  return order;
}

}  // namespace

PackResult TfliteArenaPack(const std::vector<PackItem>& items, Bytes alignment) {
  std::vector<Bytes> offsets(items.size(), 0);
  PlacedByOffset placed(items);
  placed.PlaceFixed(offsets);
  for (std::int32_t i : TfliteOrder(items)) {
    const PackItem& item = items[i];
    if (IsEmpty(item) || item.fixed_offset()) continue;
    const Bytes align = EffectiveAlignment(item, alignment);
    std::optional<Bytes> best;
    Bytes best_room = std::numeric_limits<Bytes>::max();
    Bytes current = 0;  // highest end of the placed items walked so far
    for (const PlacedSpan& span : placed.Conflicts(i)) {
      const Bytes candidate = AlignUp(current, align);
      if (candidate + item.size <= span.offset && span.offset - candidate < best_room) {
        best = candidate;
        best_room = span.offset - current;
      }
      current = std::max(current, span.end);
    }
    offsets[i] = best ? *best : AlignUp(current, align);
    placed.Place(i, offsets[i], item.size);
  }
  return MakePackResult(items, std::move(offsets), "tflite-arena");
}

}  // namespace memplan::peers
