// The kAuto packer: run a fixed list of cheap heuristics on the same items
// and keep the lowest peak (XLA's ChooseBestHeapAlgorithm, packing.md §2.4,
// with more orders). Ties go to the earlier heuristic in the list, so the
// result is deterministic.
#pragma once

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan {

// Best of the portfolio; result.algorithm names the heuristic that won.
PackResult AutoPack(const std::vector<PackItem>& items, Bytes alignment);

}  // namespace memplan
