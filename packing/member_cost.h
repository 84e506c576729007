// The cost model behind kAuto's effort levels (portfolio.h): an estimate of
// each member's work before it runs, and the work each effort may spend.
//
// Work is counted in units of about one nanosecond of one core of the
// reference machine (2 cores, release build), estimated from the input's
// shape alone: n non-empty items, p intersecting pairs and t time slots
// (IntersectingPairs and TimeSlots, live_profile.h), all counted in
// O(n log n) before anything runs. Budgets are work, not wall-clock time, so the members that
// run (and the plan) are the same on every machine, load and thread count;
// the constants were fitted to measured member times (docs/packing.md).
//
// Example: 10^5 items with p = 3 x 10^6 at default effort: best-fit-spatial
// is estimated 20 x n log2 n (sort) + (50 + 40 log2 n) n (queries) + p x
// (0.25 log2 n + 5 log2 (p / n + 1)) (visits) = 0.19 x 10^9 standard units,
// times its order's scale 0.62 (BestFitWorkScale): 0.12 x 10^9; the default
// budget for 10^5 items is 0.9 x 10^9 units in two lanes (the members run
// in parallel).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "packing/packer.h"

namespace memplan {

// The input measures the estimates read.
struct InputShape {
  std::int64_t items = 0;  // non-empty items
  std::int64_t pairs = 0;  // intersecting pairs of non-empty items
  bool fixed = false;      // some item has a fixed offset (the skyline's lazy queue)
  // Distinct alignments of the non-empty items (the skyline sweep asks
  // each run once per alignment class; a larger --alignment can only merge
  // classes).
  std::int64_t alignments = 1;
  // Time slots of the non-empty items (TimeSlots, live_profile.h): the
  // skyline sweep's queries cost about log2 of it.
  std::int64_t slots = 1;
};

// The shape of `items`: O(n log n).
InputShape ShapeOf(const std::vector<PackItem>& items);

// Estimated work units of one run of `member` (a global member,
// kOnlineBestFit, or kSkylineLocalSearch's skyline runs without the search)
// on an input of `shape`.
double EstimatedWork(PackingAlgorithm member, const InputShape& shape);

// Estimated work units of one skyline re-pack in the local search: a whole
// packing (a re-pack abandoned at the cutoff costs less, but most run to
// the end).
double EstimatedSearchStepWork(const InputShape& shape);

// What an effort level lets kAuto spend.
struct EffortBudget {
  // Work units all the members together may spend (each member's estimate
  // counted once it is admitted); members that do not fit are skipped.
  double member_work = 0;
  // Work units of the local search (split between its parallel searches).
  double search_work = 0;
  // kFast: only members whose estimate is within near_linear_factor x
  // n log2 n units (their overlap work is a small multiple of n log n), or
  // within kNegligibleWork (on a tiny input the estimates' constant term
  // alone can pass the first), are candidates; 0 = no such rule.
  double near_linear_factor = 0;
  // Work units of kAuto's exact member (exact_member.h), its node budget
  // times ExactNodeWork; 0 = not run.
  double exact_work = 0;
  // Every member runs whatever its estimate (no effort level sets it; kept
  // for callers that want the whole portfolio at any cost).
  bool every_member = false;
};

// Work units below which a member's estimate is negligible (0.1 ms of one
// reference core, less than the process takes to start): --effort fast
// does not call such a member "not near n log n", and gives each of its two
// lanes at least this much, so on a tiny input (a few buffers, where the
// estimates' constant term is more than 400 n log2 n) every member runs.
inline constexpr double kNegligibleWork = 1e5;

// The budget of `effort` for an input of `shape`:
// * kFast: members within 400 x n log2 n units each (or kNegligibleWork),
//   member work 320 x n log2 n in all, at least 2 x kNegligibleWork (online
//   best fit and both skylines at 10^6-10^7 items, no member whose work
//   grows with the pairs on traces of about 100 live at once; up to about
//   95 items every member that fits two lanes of 0.1 ms); no member borrows
//   from the other lane; no search.
// * kDefault: with s = (n log2 n) / (10^5 log2 10^5), member work
//   W = 0.9 x 10^9 x max(1, s) units in two lanes of W / 2 (0.45 s each up
//   to 10^5 items, 5.4 s at 10^6); search work max(7.5 x 10^8, 0.45 x 10^9 x s)
//   (the local search's two threads share it; the window search, on one,
//   has a quarter).
// * kMax: 10 x the default's member and search work.
// Exact work: none at kFast; at kDefault 40,000 n^2 units within
// [10^6, 2 x 10^9]
// (2 x 10^9 from about 220 buffers: some 690,000 nodes at 300 buffers, 1 s
// on two cores; 6.4 x 10^7 at 40 buffers; the exact member runs only where
// its first round of restarts fits, up to about 3,600 buffers, fewer when
// buffers have over 200 neighbours, ExactNodeWork); 10x at
// kMax.
EffortBudget BudgetFor(PackEffort effort, const InputShape& shape);

// Work units of one node of the exact search on an input of `shape`:
// 1,000 + 6 n (canonical_search.h: a node costs O(u + s + k log k), mostly
// proportional to n) plus 4.5 (d - 200) log2 d where d, the mean number of
// time-overlap neighbours (2 pairs / n), is above 200 (the k log k sort).
double ExactNodeWork(const InputShape& shape);

// Work units counted by a best-fit placement that gathered `visits` placed
// chunks from an interval tree of `items` items: a query, the visits
// (each a share of the tree walk, log2 items) and their sort.
double PlacementWork(std::size_t visits, std::size_t items);

// How much of the standard best-fit work (EstimatedWork, PlacementWork) a
// best-fit order's or in-order's run costs: from 0.43 (start time, whose
// placements gather chunks nearly sorted by offset) to 0.62 (spatial), each
// the geometric middle of its measured / standard ratios on the member cost
// table's inputs (idle machine, docs/packing.md). kAuto scales the member's
// counted work by it, so that its count tracks its time as its estimate does.
double BestFitWorkScale(PackingAlgorithm member);

// skyline-crowded's estimate over the other skylines' (SkylineWork): the
// same sweep after the crowds (MaxLiveDuring, O(n log n)) and their sort.
// Measured 1.01-1.28x skyline-area's CPU time, side by side, on the member
// cost table's inputs from 10^4 buffers, median 1.19 (0.80 on
// synthetic-1000, a 1 ms row; bench/member_cost_table.sh, 8 December 2026).
inline constexpr double kSkylineCrowdedScale = 1.2;

// Work units counted per skyline step: a queue entry popped (and its floor
// read from the segment tree), or, up to SkylinePacker's scan limit, one
// pending item passed over (about 2 ns of CPU measured on the member cost
// table's scan rows, synthetic-1000 and SOMAS ResNet-50).
inline constexpr double kSkylinePopWork = 350;
inline constexpr double kSkylineScanWork = 2.2;

// Work units of one skyline queue pop among `queued` items: kSkylinePopWork
// up to 10^5 items, then growing with log10 of the size up to 2x at 10^6
// and beyond. Above 10^5 items the queue (16 B a entry) and the segment
// tree outgrow the cache and every pop is a few random reads from memory:
// measured 1.6-2.0 ns of CPU per unit of 350 a pop at 3 x 10^5 and
// 1.8-2.9 at 10^6, against 1.0-1.3 at 10^5 (docs/packing.md). Example:
// 10^5 -> 350, 3 x 10^5 -> 517, 10^6 and more -> 700.
double SkylinePopWork(std::int64_t queued);

// Work units counted by the skyline sweep (skyline_sweep.cc) on `items`
// items over `slots` time slots, per run asked (a query per alignment
// class) and per placement (a removal): 0.9 x log2 n x log2 (slots + 1)
// each (the indexes' queries walk O(log n) levels, each a search among the
// ranges of a span of slots), times a growth from 1 at 10^5 items to 1.6 at
// 10^6 and beyond (the indexes outgrow the cache). A packing asks 1 to 3
// runs an item (1 when every item is live throughout: one slot). Example:
// 10^5 items over 10^5 slots -> 248 units a step, 10^6 over 10^6 -> 572;
// 10^4 items in one slot -> 12.
double SkylineSweepStepWork(std::int64_t items, std::int64_t slots);

// n log2 n for n >= 2 (n for smaller n): the unit of near-linear work.
double NLogN(std::int64_t n);

// Work units as seconds of one reference core, for messages: "1.25 s", or
// "0.042 ms" below 0.01 s (small budgets must not read as "0.00 s").
std::string WorkSeconds(double work);

// What a user can do about a member skipped or stopped for want of work
// budget: " (raise --effort)" below kMax when the max effort's budget would
// be enough (`max_effort_helps`), else " (--algorithm NAME runs it alone)"
// with the member's name: a higher effort would not change the outcome.
// Example: the exact member on 18,692 buffers, whose first round of
// restarts is over even the max effort's budget -> " (--algorithm exact
// runs it alone)".
std::string RaiseEffortHint(PackEffort effort, bool max_effort_helps, std::string_view member);

}  // namespace memplan
