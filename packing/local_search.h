// Local search over skyline priority lists: the improvement step of the kAuto
// portfolio for inputs small enough to re-pack many times.
//
// A skyline packing (skyline.h) is fully determined by its priority list, the
// tie-break order among items with equal floors. Starting from a given list,
// each step swaps one to three random pairs of positions (SplitMix64 with a
// fixed seed: the same input always takes the same steps), re-packs, and
// keeps the new list if its peak is not higher than the best so far: equal
// peaks are accepted so the search can drift across plateaus. A re-pack is
// abandoned as soon as it would exceed the best peak (SkylinePacker's
// cutoff), so most rejected steps cost a fraction of a full packing.
//
// On MiniMalloc's challenging instances (154-454 items) the portfolio's
// budget (145-500 steps) takes the best greedy result from 1.12-1.29 x the
// lower bound to about 1.09-1.18 x (packing.md §5.6: greedy by size alone is
// 1.31-1.41 x); more steps keep helping slowly (5,000: about 1.06-1.18 x).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/units.h"
#include "packing/skyline.h"

namespace memplan {

struct LocalSearchResult {
  std::vector<Bytes> offsets;  // one per item
  Bytes peak = 0;
};

// Runs up to `steps` swap steps from `priority` (whose packing has peak
// `peak`), stopping early once the peak is at most `target` (e.g. the
// max-live lower bound, which no packing can beat). Returns the best packing
// found if its peak is below `peak`, else nullopt. Cost: at most `steps`
// skyline runs.
std::optional<LocalSearchResult> ImproveSkylinePriority(const SkylinePacker& packer,
                                                        std::vector<std::int32_t> priority,
                                                        Bytes peak, Bytes target,
                                                        std::int64_t steps, std::uint64_t seed);

}  // namespace memplan
