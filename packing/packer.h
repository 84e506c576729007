// Offset packing (dynamic storage allocation): give each interval an offset so
// that no two intervals live at the same time overlap in address space,
// keeping the peak (max offset + size) low.
//
// Example (alignment 1), spatial best fit: a(10)[0,3] b(20)[1,6] c(40)[2,7]
// d(30)[4,8] e(50)[5,9] -> e@0 c@50 d@90 b@120 a@90, peak 140.
// (XLA heap simulator, GlobalDecreasingSizeBestFitHeap; packing.md §2.2.)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/units.h"

namespace memplan {

// One item to place: `size` bytes live during the closed range [start, end].
struct PackItem {
  Bytes size = 0;
  Bytes alignment = 1;  // the item's offset must be a multiple of this (>= 1)
  TimeStep start = 0;
  TimeStep end = 0;
};

enum class PackingAlgorithm {
  kAuto,             // portfolio (portfolio.h): best-fit orders, in-order, skyline
                     // packing and a bounded local search; lowest peak wins
  kBestFitSpatial,   // global best fit, size desc then longer range
  kBestFitTemporal,  // global best fit, longer range then size desc
  kInOrder,          // best fit in input order (IREE LayoutSlices)
  kNaive,            // no reuse: items laid end to end
};

// Flag spelling: "auto", "best-fit-spatial", "best-fit-temporal", "in-order", "naive".
std::string_view PackingAlgorithmName(PackingAlgorithm algorithm);
// Inverse of PackingAlgorithmName; InvalidArgument for an unknown name.
absl::StatusOr<PackingAlgorithm> ParsePackingAlgorithm(std::string_view name);
// Every algorithm, kAuto first (for help text and benchmarks).
std::vector<PackingAlgorithm> AllPackingAlgorithms();

struct PackResult {
  std::vector<Bytes> offsets;  // parallel to the items
  Bytes peak = 0;              // max over items of offset + size (0 if none)
  std::string algorithm;       // name of the heuristic that produced it
};

// Places `items` with `algorithm`; every offset is a multiple of
// max(item.alignment, alignment). Deterministic. O(n log n + sum of overlaps).
PackResult Pack(const std::vector<PackItem>& items, PackingAlgorithm algorithm,
                Bytes alignment = 1);

// The max-live lower bound: max over time of the sum of sizes of live items
// (0 if none). Any valid packing has peak >= this. O(n log n).
Bytes MaxLiveBytes(const std::vector<PackItem>& items);

}  // namespace memplan
