// Global best fit (XLA GlobalDecreasingSizeBestFitHeap, packing.md §2.2):
// collect every item, sort them by a fixed key, then place each in turn with
// ChunkFinder (the tightest hole among the chunks live during its range, else
// on top of the highest of them). Zero-size items go to offset 0. An item
// with dead gaps (PackItem::gaps) is placed against the chunks live during
// any of its live pieces and blocks only those pieces, so the exclusive
// branches of a conditional share bytes.
//
// Example (alignment 1): a(10)[0,3] b(20)[1,6] c(40)[2,7] d(30)[4,8]
// e(50)[5,9]. Spatial order is e, c, d, b, a: e -> 0, c -> 50, d -> 90,
// b -> 120, a -> 90 (holes [0,50) and [90,120); the 30 B one fits tighter).
// Peak 140.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/units.h"
#include "packing/deadline.h"
#include "packing/packer.h"

namespace memplan {

// Keys for sorting items before best-fit placement. Every order ends with the
// item index, so it is total and deterministic.
enum class BestFitOrder {
  kSpatial,   // size desc, then longer live range, then index (XLA kSpatial)
  kTemporal,  // longer live range desc, then size desc, then index (XLA kTemporal)
  kStartTime, // earlier start, then size desc, then longer range, then index
  kBusiest,   // max live bytes during the item's range desc, then the spatial
              // keys (Pisarchyk & Lee's greedy by breadth, as an offset order)
};

// Name used in PackResult::algorithm, e.g. "best-fit-spatial".
std::string_view BestFitOrderName(BestFitOrder order);

// Item indices in `order`. O(n log n).
std::vector<std::int32_t> SortForBestFit(const std::vector<PackItem>& items, BestFitOrder order);

// Places the items one by one in the sequence `order` (a permutation of item
// indices) with ChunkFinder; returns one offset per item, each a multiple of
// max(item.alignment, alignment). O(n log n + sum over items of k log k), k
// the number of placed items whose range intersects the item's.
std::vector<Bytes> BestFitInOrder(const std::vector<PackItem>& items,
                                  const std::vector<std::int32_t>& order, Bytes alignment);

// BestFitInOrder that counts its work (PlacementWork, member_cost.h) into
// `*work` and gives up (nullopt) as soon as the count exceeds `work_limit`,
// or once `deadline` has passed (polled between placements). Deterministic
// without a deadline: the count depends on the input alone.
std::optional<std::vector<Bytes>> BestFitInOrderWithin(const std::vector<PackItem>& items,
                                                       const std::vector<std::int32_t>& order,
                                                       Bytes alignment, double work_limit,
                                                       double* work,
                                                       const PackDeadline& deadline = {});

// SortForBestFit + BestFitInOrder, with peak and algorithm name.
PackResult BestFitPack(const std::vector<PackItem>& items, BestFitOrder order, Bytes alignment);

}  // namespace memplan
