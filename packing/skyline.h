// Skyline packing: build the packing bottom-up, the way MiniMalloc's
// "canonical" solutions look (packing.md §4): every item rests on the highest
// placed item it overlaps in time, and items are placed in non-decreasing
// order of offset. The skyline is, per time step, the top of the placed items
// live then; an unplaced item's floor is the max of the skyline over its live
// range (rounded up to its alignment). Each step places the unplaced item with
// the lowest floor; ties are broken by the order's key, then by index.
//
// Unlike best fit, it never fills a hole below the skyline, but it grows the
// packing evenly in time, which often leaves fewer holes to begin with.
//
// Example (alignment 1): a(10)[0,3] b(20)[1,6] c(40)[2,7] d(30)[4,8]
// e(50)[5,9], kLongestFirst. Every floor is 0; b and c have the longest
// ranges, c is larger: c -> 0. Now a, b, d, e all have floor 40; b is longest:
// b -> 40. Floors: a 60, d 60, e 60; d and e are equally long, e is larger:
// e -> 60. Then a (floor 60) -> 60 before d (floor now 110) -> 110. Peak 140.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/units.h"
#include "packing/deadline.h"
#include "packing/fixed_items.h"
#include "packing/packer.h"

namespace memplan {

// Tie-break among items with the same floor.
enum class SkylineOrder {
  kLongestFirst,  // longer live range, then larger size, then index
  kLargestArea,   // larger size x range length, then longer range, then index
  // Higher crowd first: the max over the item's live range of the bytes
  // live (MaxLiveDuring, live_profile.h), then larger size x length, then
  // longer range, then index. MiniMalloc's first preordering heuristic
  // (Moffitt, ASPLOS 2023, its canonical search's tie-break): the items
  // live at the most crowded times decide the peak, so they go in first,
  // while the skyline is still flat. Sorting costs O(n log n) more.
  kCrowdedFirst,
};

// Name used in PackResult::algorithm: "skyline-longest", "skyline-area" or
// "skyline-crowded".
std::string_view SkylineOrderName(SkylineOrder order);

// The indices of the non-empty items without a fixed offset, sorted by the
// order's tie-break key (a priority list for SkylinePacker::Run). O(n log n).
std::vector<std::int32_t> SortForSkyline(const std::vector<PackItem>& items, SkylineOrder order);

// Runs skyline packing repeatedly on one item list with different priority
// lists (as the local search in local_search.h does); the time compression is done
// once.
class SkylinePacker {
 public:
  // Keeps a reference to `items`, which must outlive the packer. O(n log n).
  SkylinePacker(const std::vector<PackItem>& items, Bytes alignment);

  // Packs with ties broken by position in `priority` (the indices of all
  // non-empty items without a fixed offset, each once, earliest first).
  // Items with a fixed offset keep it; an item's floor is lifted above the
  // fixed items live with it that it would meet (FixedObstacles::Lift), so
  // it may rest below a fixed item or above it. Returns one offset per item,
  // or nullopt as soon as some item would reach `cutoff` bytes (offset + size
  // >= cutoff), which lets a search give up on a candidate early. O(n^2)
  // with a small constant up to kScanLimit items, else O(k n log^2 n) for k
  // distinct alignments (skyline_sweep.cc), whatever the overlap; with items
  // at fixed offsets O((n + r) log n), r the number of times a floor is
  // found stale (up to the number of overlapping pairs).
  std::optional<std::vector<Bytes>> Run(const std::vector<std::int32_t>& priority,
                                        Bytes cutoff) const;
  // Run that also counts its work into `*work` (kSkylineScanWork per
  // pending item passed over, SkylineSweepStepWork per run asked and per
  // placement, SkylinePopWork per queue pop; member_cost.h) and
  // gives up (nullopt) once the count exceeds `work_limit` or `deadline`
  // has passed (polled between steps). Deterministic without a deadline.
  std::optional<std::vector<Bytes>> RunWithin(const std::vector<std::int32_t>& priority,
                                              Bytes cutoff, double work_limit, double* work,
                                              const PackDeadline& deadline = {}) const;

  const std::vector<PackItem>& items() const { return items_; }

 private:
  // Up to this many items, Run keeps every floor exact with an O(n) pass per
  // placement (O(n^2) in all, but with a tiny constant: no queue, no tree;
  // at 1,000-2,000 items the sweep is already 2.5-5x faster);
  // above it, it sweeps up through the address space (skyline_sweep.cc), or
  // with fixed items (whose lift the sweep does not model) keeps floors in a
  // priority queue refreshed lazily. All three place the same offsets.
  static constexpr std::size_t kScanLimit = 1024;
  std::optional<std::vector<Bytes>> RunBySweep(const std::vector<std::int32_t>& priority,
                                               Bytes cutoff, double work_limit, double* work,
                                               DeadlinePoll& poll) const;
  std::optional<std::vector<Bytes>> RunByScan(const std::vector<std::int32_t>& priority,
                                              Bytes cutoff, double work_limit, double* work,
                                              DeadlinePoll& poll) const;
  std::optional<std::vector<Bytes>> RunByQueue(const std::vector<std::int32_t>& priority,
                                               Bytes cutoff, double work_limit, double* work,
                                               DeadlinePoll& poll) const;

  const std::vector<PackItem>& items_;
  Bytes alignment_;
  FixedObstacles fixed_;
  std::size_t slots_ = 0;               // number of compressed time slots
  std::vector<std::int32_t> first_slot_;  // item i covers slots [first_slot_, end_slot_)
  std::vector<std::int32_t> end_slot_;
};

// SortForSkyline + SkylinePacker::Run, with peak and algorithm name. Every
// offset is a multiple of max(item.alignment, alignment).
PackResult SkylinePack(const std::vector<PackItem>& items, SkylineOrder order, Bytes alignment);

}  // namespace memplan
