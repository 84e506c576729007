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
  // What the replay reads, gathered in one pass in item order and sorted as
  // arrays of keys: following indices into the items (40 bytes each, in no
  // useful order) cost several cache misses an item, most of the replay's
  // time at 10^7 items. 32 bytes an arrival, 16 a departure.
  struct Arrival {
    TimeStep start;
    Bytes neg_size;      // larger first,
    TimeStep neg_span;   // then longer,
    std::int32_t index;  // then the lower index
    bool operator<(const Arrival& other) const {
      return std::tie(start, neg_size, neg_span, index) <
             std::tie(other.start, other.neg_size, other.neg_span, other.index);
    }
  };
  std::vector<Arrival> arrivals;
  arrivals.reserve(items.size());
  // Items of their own alignment above `alignment` (rare) are looked up.
  bool own_alignments = false;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const PackItem& item = items[i];
    if (IsEmpty(item) || item.fixed_offset()) continue;
    arrivals.push_back(
        {item.start, -item.size, -(EndOf(item) - item.start), static_cast<std::int32_t>(i)});
    own_alignments = own_alignments || item.alignment > alignment;
  }
  std::sort(arrivals.begin(), arrivals.end());
  const auto alignment_of = [&](const Arrival& arrival) {
    return own_alignments ? EffectiveAlignment(items[arrival.index], alignment)
                          : std::max<Bytes>(alignment, 1);
  };
  // Departures: (end, index, position in `arrivals`), by end then index.
  struct Departure {
    TimeStep end;
    std::int32_t index;
    std::int32_t arrival;
    bool operator<(const Departure& other) const {
      return std::tie(end, index) < std::tie(other.end, other.index);
    }
  };
  std::vector<Bytes> placed(arrivals.size());  // offset, by arrival
  {
    std::vector<Departure> departures;
    departures.reserve(arrivals.size());
    for (std::size_t a = 0; a < arrivals.size(); ++a) {
      const Arrival& arrival = arrivals[a];
      departures.push_back(
          {arrival.start - arrival.neg_span, arrival.index, static_cast<std::int32_t>(a)});
    }
    std::sort(departures.begin(), departures.end());
    FreeBlocks free;
    // A replay cannot see a fixed item before it starts: its bytes stay
    // reserved for the whole run (conservative).
    for (const auto& [lo, hi] : FixedByteRanges(items)) free.Reserve(lo, hi);
    std::size_t freed = 0;
    for (std::size_t a = 0; a < arrivals.size(); ++a) {
      const Arrival& arrival = arrivals[a];
      // An item ending before this start began earlier, so it is placed.
      for (; freed < departures.size() && departures[freed].end < arrival.start; ++freed) {
        const std::int32_t j = departures[freed].arrival;
        free.Give(placed[j], placed[j] - arrivals[j].neg_size);
      }
      placed[a] = free.Take(-arrival.neg_size, alignment_of(arrival));
    }
  }
  std::vector<Bytes> offsets = InitialOffsets(items);
  for (std::size_t a = 0; a < arrivals.size(); ++a) offsets[arrivals[a].index] = placed[a];
  return MakePackResult(items, std::move(offsets), "online-best-fit");
}

}  // namespace memplan
