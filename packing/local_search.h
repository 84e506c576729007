// Local search over skyline priority lists: the improvement step of the kAuto
// portfolio for inputs small enough to re-pack many times.
//
// A skyline packing (skyline.h) is fully determined by its priority list, the
// tie-break order among items with equal floors. Starting from a given list,
// each step either moves an item that reaches above the target to a random
// earlier position or swaps one to three random pairs of positions (SplitMix64 with
// a fixed seed: the same input always takes the same steps), re-packs, and
// keeps the new list if its peak is lower, or equal with an overhang (the
// bytes x steps of the packing above the target, the max-live bound) that
// is not higher: equal measures are accepted so the search can drift across
// plateaus, and the overhang gives it a direction on them (A-K at default
// effort: 0.2-3.7 % lower peaks than the peak alone, docs/packing.md).
// After max(500, 8 n) steps without a lower peak or overhang it stops, or,
// with restarts (max effort only), goes on from its best list kicked by 4 to
// 11 random swaps (iterated local search), until 4 restarts in a row found
// no lower peak. A re-pack is abandoned as soon as it would exceed the current
// peak (SkylinePacker's cutoff), so most rejected steps cost a fraction of
// a full packing.
//
// The portfolio runs two such searches in parallel (seeds 1 and 2) from the
// same start, each with half of the effort's search budget
// (member_cost.h), and a third (seed 3) from the skyline-crowded packing
// when that start is lower (SearchStarts), the three then with a third of
// the budget each; the lowest peak wins, the earlier search on ties. Only
// the first search may stop the others early (when it reaches the target,
// which they cannot beat), so the result is the same for any thread count.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/units.h"
#include "packing/member_cost.h"
#include "packing/packer.h"
#include "packing/skyline.h"

namespace memplan {

struct LocalSearchResult {
  std::vector<Bytes> offsets;  // one per item
  Bytes peak = 0;
};

// When a search must stop besides its step count: another search's flag
// (read between steps), a wall-clock deadline, and its work limit.
struct SearchStop {
  const std::atomic<bool>* flag = nullptr;  // stop when set (nullptr: never)
  std::optional<std::chrono::steady_clock::time_point> deadline;
  bool* hit_deadline = nullptr;  // set to true when the deadline stopped it
  // Work units its re-packs may count (SkylinePacker::RunWithin): the search
  // ends when they are used up, so a step that costs more than estimated
  // cannot run it past its budget (deterministic, unlike the deadline).
  double work_limit = std::numeric_limits<double>::infinity();
  double* work = nullptr;  // when set, receives the work counted
};

// Runs up to `steps` steps from `priority` (whose packing has peak `peak`),
// stopping early once the peak is at most `target` (e.g. the max-live lower
// bound, which no packing can beat; also the overhang's reference), on a
// plateau unless `restarts_on_plateau`, when `stop` says so, or when its
// re-packs have counted stop.work_limit units. Returns the
// best packing found if its peak is below `peak`, else nullopt. Cost: at
// most `steps` + 1 skyline runs plus O(n) per completed run.
std::optional<LocalSearchResult> ImproveSkylinePriority(const SkylinePacker& packer,
                                                        std::vector<std::int32_t> priority,
                                                        Bytes peak, Bytes target,
                                                        std::int64_t steps, std::uint64_t seed,
                                                        bool restarts_on_plateau,
                                                        const SearchStop& stop = {});

// The packer and the portfolio's name for a searched skyline packing.
inline constexpr std::string_view kSkylineLocalSearchName = "skyline-local-search";

// The effort's search budget is that of this many searches (seeds 1 and
// 2); with a third (SearchStarts) the three share it.
inline constexpr int kSearchesPerBudget = 2;
inline constexpr int kMaxSearches = 3;

// Fewer steps than this per search are not worth starting.
inline constexpr std::int64_t kMinSearchSteps = 10;

// Whether the searches of `effort` restart on a plateau (kMax only: a
// restarting search runs up to five plateaus longer).
bool RestartsOnPlateau(PackEffort effort);

// Steps per search (two searches) that `effort` affords for `items`: the
// effort's search work over the estimated work of a step (member_cost.h);
// 0 when that is under kMinSearchSteps.
std::int64_t LocalSearchSteps(const std::vector<PackItem>& items, PackEffort effort);

// Work units each of the two searches may count, whatever its steps cost:
// half the effort's search work (member_cost.h) plus one packing (the
// re-pack of its start).
double LocalSearchWorkLimit(const InputShape& shape, PackEffort effort);
double LocalSearchWorkLimit(const std::vector<PackItem>& items, PackEffort effort);

// What the two parallel searches found.
struct SearchOutcome {
  std::optional<PackResult> improved;  // named "skyline-local-search"; lower than the start
  bool time_limited = false;           // the deadline stopped a search
  // Work units the searches counted: both, or the first alone when it
  // reached the target (the second's count then depends on timing).
  double work = 0;
};

// A skyline packing and the priority list behind it.
struct SkylineStart {
  std::vector<std::int32_t> priority;
  std::vector<Bytes> offsets;
  Bytes peak = 0;
};

// Where the searches start: two (seeds 1 and 2) from the lower of the
// skyline-longest and skyline-area packings (longest on ties), and a third
// (seed 3) from the skyline-crowded packing when that one is lower still.
// Not all from the lowest: a lower start is not a better place to search
// from (on MiniMalloc's D, H and J, two searches from the crowded packing
// end 2-3 % higher after the exact member), while on dense traces with a
// few huge buffers only the search from the crowded packing gets within
// 1 % of the bound (docs/packing.md).
struct SearchStarts {
  SkylineStart first;
  std::optional<SkylineStart> crowded;
};

// How many searches `starts` asks for: 2 or 3.
std::size_t SearchCount(const SearchStarts& starts);
// The lowest start's peak (the crowded one's when there is one).
Bytes LowestStartPeak(const SearchStarts& starts);

// The search as run by the portfolio: SearchCount(starts)
// ImproveSkylinePriority searches from `starts`, sharing the budget of
// two (`steps` and `work_limit` units each; with three, 2/3 of them each), with or without restarts, on up to `threads` threads,
// stopping at `target` or `deadline`. `improved` is the lowest of their
// results (the earlier search's on ties); each is below its own start,
// and the starts are all at or above the lowest one's.
SearchOutcome SearchSkyline(const SkylinePacker& packer, const SearchStarts& starts, Bytes target,
                            std::int64_t steps, double work_limit, bool restarts_on_plateau,
                            int threads,
                            std::optional<std::chrono::steady_clock::time_point> deadline);

// The packing of one skyline order. Cost: one skyline run.
SkylineStart SkylineStartOf(const SkylinePacker& packer, SkylineOrder order);

// The local search's starts (SearchStarts). Cost: three skyline runs.
// StartsFrom chooses them from the three packings.
SearchStarts StartsFrom(SkylineStart longest, SkylineStart area, SkylineStart crowded);
SearchStarts BestSkylineStarts(const SkylinePacker& packer);

// The lowest of the skyline-longest, skyline-area and skyline-crowded
// packings (the earlier in that list on ties): the window search's start.
// Cost: three skyline runs.
SkylineStart BestSkylineStart(const SkylinePacker& packer);

// The skyline-local-search packer: BestSkylineStarts, then SearchSkyline with
// LocalSearchSteps(items, options.effort) steps per search down to the
// max-live lower bound. Named "skyline-local-search" even when the search
// finds nothing lower (the result is then that skyline packing); when kAuto
// at the same effort reports this name, this packer gives the same offsets
// (unless a --time-limit cut either). Cost: two skyline runs plus the search.
PackResult SkylineLocalSearchPack(const std::vector<PackItem>& items, const PackOptions& options);

}  // namespace memplan
