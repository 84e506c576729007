// Offset packing (dynamic storage allocation): give each interval an offset so
// that no two intervals live at the same time overlap in address space,
// keeping the peak (max offset + size) low.
//
// Example (alignment 1), spatial best fit: a(10)[0,3] b(20)[1,6] c(40)[2,7]
// d(30)[4,8] e(50)[5,9] -> e@0 c@50 d@90 b@120 a@90, peak 140.
// (XLA heap simulator, GlobalDecreasingSizeBestFitHeap; packing.md §2.2.)
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/compact_optional.h"
#include "ir/compact_vector.h"
#include "ir/packing_report.h"
#include "ir/units.h"

namespace memplan {

// The fields of a PackItem that almost every item leaves empty (see
// PackItem for each): behind one pointer, 8 bytes per item instead of 16.
struct PackItemExtras {
  CompactVector<StepRange> gaps;
  CompactOptional<Bytes> fixed_offset;
};

// One item to place: `size` bytes live during the closed range [start, end]
// except in its dead gaps. Two items conflict (must not share a byte) iff
// their live sets intersect.
struct PackItem {
  Bytes size = 0;
  Bytes alignment = 1;  // the item's offset must be a multiple of this (>= 1)
  TimeStep start = 0;
  TimeStep end = 0;
  // Empty (nullptr) until gaps or a fixed offset are written; use the
  // accessors.
  BoxedOptional<PackItemExtras> extras = std::nullopt;

  // Sorted, disjoint, non-adjacent closed ranges strictly inside (start, end)
  // where the item holds no data (Buffer::gaps). Packers that place against
  // an interval index (best fit, in-order) let other items use the bytes
  // then; the others treat the item as live over all of [start, end]
  // (conservative, still valid).
  const CompactVector<StepRange>& gaps() const { return Extras().gaps; }
  CompactVector<StepRange>& mutable_gaps() { return MutableExtras().gaps; }
  // A position the item must take (MiniMalloc's `offset` column): every
  // packer and peer strategy returns exactly this offset for it and places
  // the other items around it (packing/fixed_items.h says how each does).
  // Must be a multiple of the alignment; fixed items must not collide with
  // each other (the driver refuses such inputs, driver/fixed_offsets.h).
  const CompactOptional<Bytes>& fixed_offset() const { return Extras().fixed_offset; }
  CompactOptional<Bytes>& mutable_fixed_offset() { return MutableExtras().fixed_offset; }

 private:
  const PackItemExtras& Extras() const {
    static const PackItemExtras kNone;
    return extras ? *extras : kNone;
  }
  PackItemExtras& MutableExtras() { return extras ? *extras : extras.emplace(); }
};
// Gaps and fixed offset behind one pointer: packers hold one item per
// buffer, 10^7 of them on the largest inputs.
static_assert(sizeof(void*) != 8 || sizeof(PackItem) == 40);

// Every algorithm is selectable by the name it is reported under
// (PackResult::algorithm, the plan's "algorithm"); docs/packing.md lists
// them with their sources.
enum class PackingAlgorithm {
  kAuto,                // portfolio (portfolio.h): the members below except
                        // naive, within an overlap budget; lowest peak wins
  kBestFitSpatial,      // global best fit, size desc then longer range
  kBestFitTemporal,     // global best fit, longer range then size desc
  kBestFitBusiest,      // global best fit, busiest live bytes during the range desc
  kBestFitStartTime,    // global best fit, earlier start then size desc
  kInOrder,             // best fit in input order (IREE LayoutSlices)
  kSkylineLongest,      // skyline packing, longer range first (skyline.h)
  kSkylineArea,         // skyline packing, larger size x length first
  kSkylineCrowded,      // skyline packing, most crowded live range first
  kSkylineLocalSearch,  // the better skyline packing, improved by local search
  kSkylineWindowSearch, // the better skyline packing, improved window by window
  kOnlineBestFit,       // best-fit free list replayed in start order, O(n log n)
  kNaive,               // no reuse: items laid end to end
  kExact,               // complete branch and bound (packing/exact/exact_packer.h):
                        // a packing within options.capacity or a proof that
                        // none exists; options.minimize for the lowest peak
};

// Flag spelling, e.g. "auto", "best-fit-spatial", "skyline-local-search",
// "online-best-fit", "naive": for every algorithm but kAuto, exactly the
// PackResult::algorithm that Pack reports for it.
std::string_view PackingAlgorithmName(PackingAlgorithm algorithm);
// Inverse of PackingAlgorithmName; InvalidArgument for an unknown name.
absl::StatusOr<PackingAlgorithm> ParsePackingAlgorithm(std::string_view name);
// Every heuristic: kAuto first, then the portfolio members in its tie-break
// order, kNaive last (for help text and benchmarks). kExact, a search whose
// cost grows exponentially, is not in the list; ParsePackingAlgorithm knows it.
std::vector<PackingAlgorithm> AllPackingAlgorithms();

// What a search-based packer (kExact) established; kNotSearched for the
// heuristics.
enum class SearchStatus {
  kNotSearched,
  kFeasible,    // the packing fits options.capacity; not proven optimal
  kOptimal,     // the peak equals proven_lower_bound
  kInfeasible,  // proven: no packing fits options.capacity (offsets: the best found)
  kStopped,     // the time limit ended the search first (offsets: the best found)
};

// "not-searched", "feasible", "optimal", "infeasible", "stopped".
std::string_view SearchStatusName(SearchStatus status);

struct PackResult {
  std::vector<Bytes> offsets;  // parallel to the items
  Bytes peak = 0;              // max over items of offset + size (0 if none)
  std::string algorithm;       // name of the heuristic that produced it
  // The best lower bound on the peak that Pack knows (bytes): MaxLiveBytes
  // of the items unless a packer proved a stronger one. peak - lower_bound
  // is the gap no packing can close beyond.
  Bytes lower_bound = 0;
  // kAuto only: the members that ran and were skipped, and why.
  std::optional<PackReport> report = std::nullopt;
  // Search-based packers only (kExact): a peak no packing can go below,
  // proven by the search (>= MaxLiveBytes; after a proof of infeasibility it
  // is above options.capacity); 0 when not searched.
  Bytes proven_lower_bound = 0;
  SearchStatus search_status = SearchStatus::kNotSearched;
  std::int64_t search_nodes = 0;  // branch-and-bound nodes visited
  // The wall-clock limit the search ran under (seconds; 0 when not
  // searched) and whether it was the default one (PackOptions had none).
  double search_time_limit_seconds = 0;
  bool search_default_time_limit = false;
  // kExact with a node budget (exact_packer.h): the nodes of it spent
  // (deterministic: the node limits of the restarts that ran, not the nodes
  // visited) and whether the budget ended the search (kStopped).
  std::int64_t search_node_budget_spent = 0;
  bool search_node_budget_ended = false;
};

// A progress report of a long search (PackOptions::progress): the best peak
// found so far (0 = none yet), the proven lower bound, the certified gap
// (best - bound) / bound (0 when none is found yet), the nodes visited and
// the seconds since the start.
struct PackProgress {
  Bytes best_peak = 0;
  Bytes lower_bound = 0;
  double gap = 0;
  std::int64_t nodes = 0;
  double elapsed_seconds = 0;
};

// How hard kAuto works (portfolio.h, member_cost.h): kFast runs the members
// whose cost is near O(n log n) only; kDefault gives the members a work
// budget of about 1 s for 10^5 items on 2 cores; kMax gives members and the
// search ten times the default's budget.
enum class PackEffort { kFast, kDefault, kMax };

// "fast", "default", "max".
std::string_view PackEffortName(PackEffort effort);
// Inverse of PackEffortName; InvalidArgument for anything else.
absl::StatusOr<PackEffort> ParsePackEffort(std::string_view name);

// Options of Pack beyond the algorithm.
struct PackOptions {
  Bytes alignment = 1;  // every offset is a multiple of max(this, item alignment)
  PackEffort effort = PackEffort::kDefault;
  // Wall-clock limit for search-based packers, in seconds; 0 = no limit
  // beyond the effort's own budget. A packer stopped by it reports so.
  double time_limit_seconds = 0;
  // Search-based packers: find a packing with peak <= capacity (bytes) or
  // prove that none exists; nullopt = no target. kAuto: its exact member
  // decides at it first when the best peak is above it (exact_member.h).
  std::optional<Bytes> capacity = std::nullopt;
  bool minimize = false;  // search-based packers: look for the lowest peak
  // Search-based packers call this about once a second while they run
  // (from the calling thread); empty = no reports.
  std::function<void(const PackProgress&)> progress = {};
};

// Places `items` with `algorithm`; every offset is a multiple of
// max(item.alignment, alignment); result.lower_bound is filled. Deterministic
// unless options.time_limit_seconds cuts kAuto's work (then
// result.report->time_limited is set). kOnlineBestFit and kNaive cost
// O(n log n) whatever the overlap; the global packers (best fit, in-order,
// skyline) O(n log n + p log n), p the number of pairs of items live
// together (IntersectingPairs in live_profile.h); kAuto O(n log n) plus its
// effort's work budget (member_cost.h), skyline-local-search two skyline
// runs plus the default effort's search budget.
PackResult Pack(const std::vector<PackItem>& items, PackingAlgorithm algorithm,
                Bytes alignment = 1);
// The same with every option; Pack(items, algorithm, a) is
// Pack(items, algorithm, PackOptions{.alignment = a}).
PackResult Pack(const std::vector<PackItem>& items, PackingAlgorithm algorithm,
                const PackOptions& options);

// The max-live lower bound: max over time of the sum of sizes of the items
// live then, an item counting only outside its gaps (0 if none). Any valid
// packing has peak >= this. O((n + g) log (n + g)) for g gaps in all.
Bytes MaxLiveBytes(const std::vector<PackItem>& items);

// Whether any item has gaps (or windows): the exact search reads such an
// item as live over its whole range, so its proofs hold for the items as
// given only when this is false.
bool AnyItemHasGaps(const std::vector<PackItem>& items);

}  // namespace memplan
