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
#include <string_view>
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

// The packer and the portfolio's name for a searched skyline packing.
inline constexpr std::string_view kSkylineLocalSearchName = "skyline-local-search";

// The search budget for n items: about 3 x 10^7 item-pair visits in all (a
// skyline re-pack of n items costs up to n^2 of them), at most 500 steps, and
// none when that would be under 10 steps (above about 1,700 items).
std::int64_t LocalSearchSteps(std::int64_t n);

// The search as run by the portfolio: ImproveSkylinePriority from `priority`
// (whose packing has peak `peak`) for LocalSearchSteps(n) steps with a fixed
// seed, stopping at `target`; the result is named "skyline-local-search".
std::optional<PackResult> SearchSkyline(const SkylinePacker& packer,
                                        std::vector<std::int32_t> priority, Bytes peak,
                                        Bytes target);

// The skyline-local-search packer: the skyline-longest and skyline-area
// packings, then SearchSkyline from the lower one (longest on ties) down to
// the max-live lower bound. Named "skyline-local-search" even when the search
// finds nothing lower (the result is then that skyline packing); when the
// portfolio reports this name, this packer gives the same offsets. Cost: two
// skyline runs plus the bounded search.
PackResult SkylineLocalSearchPack(const std::vector<PackItem>& items, Bytes alignment);

}  // namespace memplan
