// XLA's buffer assignment heap (xla/service/heap_simulator/heap_simulator.cc,
// buffer_assignment.cc): ChooseBestHeapAlgorithm over two
// GlobalDecreasingSizeBestFitHeap runs, kSpatial (size desc, then longer
// live range) and kTemporal (longer live range, then size desc), keeping the
// smaller heap (the spatial one on a tie).
//
// Both runs are memplan's own best-fit-spatial and best-fit-temporal
// packers (packing/best_fit.h), which implement the same global best fit:
// each buffer in turn takes the tightest gap among the chunks live during
// its range, else goes on top of the highest of them. Here they read hulls
// (gaps ignored). PackResult::algorithm names the run that won
// ("best-fit-spatial" or "best-fit-temporal").
//
// Example (alignment 1): a(10)[0,3] b(20)[1,6] c(40)[2,7] d(30)[4,8]
// e(50)[5,9]: spatial gives 140 (e 0, c 50, d 90, b 120, a 90), temporal
// (c, b, e, d, a) gives c 0, b 40, e 60, d 110, a 60: 140 as well; the
// spatial run is kept.
#pragma once

#include <vector>

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan::peers {

// The smaller of the spatial and temporal global best-fit packings of
// `items` read as hulls. O(n log n + p log p), p the pairs live together.
PackResult XlaHeapPack(const std::vector<PackItem>& items, Bytes alignment);

}  // namespace memplan::peers
