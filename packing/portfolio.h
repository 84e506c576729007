// The kAuto packer: run a fixed list of cheap heuristics on the same items
// and keep the lowest peak (XLA's ChooseBestHeapAlgorithm, packing.md §2.4,
// with more orders), then try to improve on the best skyline packing by local
// search when the input is small enough.
//
// The list, in tie-break order (an earlier entry wins equal peaks):
// best-fit-spatial, best-fit-temporal, best-fit-busiest, best-fit-start-time,
// in-order, skyline-longest, skyline-area, then skyline-local-search (only if
// strictly lower). Each heuristic wins somewhere: spatial/temporal are XLA's
// two orders, busiest and start-time win on real training traces, skyline on
// MiniMalloc's hard instances and on long DNN-like inputs. Above 20,000 items
// only spatial, temporal, start-time and skyline-longest run. Deterministic:
// no clocks, a fixed seed for the search.
#pragma once

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan {

// Best of the portfolio; result.algorithm names the heuristic that won.
// Cost: at most seven heuristic runs (each O(n log n + overlaps)) plus a local
// search bounded to roughly 3 x 10^7 item-pair visits (at most 500 re-packs;
// none above about 1,700 items).
PackResult AutoPack(const std::vector<PackItem>& items, Bytes alignment);

}  // namespace memplan
