// The kAuto packer: run several heuristics on the same items and keep the
// lowest peak (XLA's ChooseBestHeapAlgorithm, packing.md §2.4, with more
// orders), then try to improve on the best skyline packing by local search
// when the input is small enough. docs/packing.md has the members' sources
// and measured results.
//
// Members, in tie-break order (an earlier entry wins equal peaks):
// best-fit-spatial, best-fit-temporal, best-fit-busiest, best-fit-start-time,
// in-order, skyline-longest, skyline-area, online-best-fit, then
// skyline-local-search (only if strictly lower). Each wins somewhere:
// spatial/temporal are XLA's two orders, busiest and start-time win on real
// training traces, skyline on MiniMalloc's hard instances and long DNN-like
// inputs, online best fit on inputs too dense for the others.
//
// Which members run (the rule that keeps kAuto O(n log n) on dense inputs):
// * online-best-fit always runs: O(n log n) whatever the overlap.
// * The global members (best fit, in-order, skyline) each visit about
//   p = IntersectingPairs(items) item pairs (live_profile.h), ~80 ns each:
//   O(n^2) when everything is live at once. They run in the priority order
//   spatial, skyline-longest, temporal, start-time, busiest, in-order,
//   skyline-area while the pairs visited by all of them together stay within
//   kPairBudget + kPairsPerItem x n = 10^7 + 32 n: all seven when
//   p <= (10^7 + 32 n) / 7, none above 10^7 + 32 n (e.g. 10^4 items all live
//   at once: p = 5 x 10^7). The 10^7 is well under a second; the 32 n term
//   keeps one or two members on long sparse programs (10^6 DNN-like ops:
//   p = 27 n), where each member is O(n log n) with a small overlap factor.
//   Start-time best fit is rarely ahead of online best fit (the same rule
//   seen from the start of each buffer), hence its low priority.
// * Above 20,000 items only the first four of them are candidates (their
//   O(n log n) parts dominate there).
// * The local search (local_search.h) runs only when both skyline members
//   ran and the best peak is above the max-live lower bound; it is bounded
//   by its own budget (none above about 1,700 items).
// Deterministic: no clocks, a fixed seed for the search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan {

// Pair visits all global members together may spend: kPairBudget +
// kPairsPerItem x n (see above).
inline constexpr std::int64_t kPairBudget = 10'000'000;
inline constexpr std::int64_t kPairsPerItem = 32;

// How many global members run for `n` items with `pairs` intersecting pairs
// (the first that many of the priority order above).
std::size_t PortfolioGlobalMembers(std::size_t n, std::int64_t pairs);

// Best of the portfolio; result.algorithm names the member that won, and
// Pack(items, that member, alignment) gives the same offsets. Cost:
// O(n log n) plus at most about kPairBudget pair visits plus the bounded
// local search.
PackResult AutoPack(const std::vector<PackItem>& items, Bytes alignment);

}  // namespace memplan
