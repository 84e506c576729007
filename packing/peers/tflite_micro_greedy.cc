#include "packing/peers/tflite_micro_greedy.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "packing/pack_support.h"
#include "packing/peers/placed_by_offset.h"

namespace memplan::peers {

PackResult TfliteMicroGreedyPack(const std::vector<PackItem>& items, Bytes alignment) {
  std::vector<Bytes> padded(items.size(), 0);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!IsEmpty(items[i])) {
      padded[i] = AlignUp(items[i].size, EffectiveAlignment(items[i], alignment));
    }
  }
  std::vector<std::int32_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int32_t a, std::int32_t b) { return padded[a] > padded[b]; });

  std::vector<Bytes> offsets(items.size(), 0);
  PlacedByOffset placed(items);
  placed.PlaceFixed(offsets);
  for (std::int32_t i : order) {
    if (IsEmpty(items[i]) || items[i].fixed_offset()) continue;
    const Bytes align = EffectiveAlignment(items[i], alignment);
    Bytes candidate = 0;
    for (const PlacedSpan& span : placed.Conflicts(i)) {
      if (span.offset - candidate >= padded[i]) break;  // the first gap that holds it
      candidate = std::max(candidate, AlignUp(span.end, align));
    }
    offsets[i] = candidate;
    placed.Place(i, candidate, padded[i]);
  }
  return MakePackResult(items, std::move(offsets), "tflite-micro-greedy");
}

}  // namespace memplan::peers
