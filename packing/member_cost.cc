#include "packing/member_cost.h"

#include <algorithm>
#include <cmath>

#include "fmt/format.h"
#include "ir/packing_report.h"
#include "packing/live_profile.h"
#include "packing/pack_support.h"

namespace memplan {
namespace {

// Fitted constants (work units = ns of one reference core; measured with
// bench/member_cost_bench, docs/packing.md).
// Counted per best-fit placement (PlacementWork): a query, then per visited
// chunk its share of the interval tree's walk (log2 n) and of the sort
// (log2 of the chunks visited), fitted by bench/member_cost_table.sh on the
// shared inputs and the generated families.
constexpr double kPlacementWork = 50;
constexpr double kPlacementWalkWork = 40;
constexpr double kVisitWalkWork = 0.25;
constexpr double kVisitSortWork = 5;
constexpr double kSortPerItemLog = 30;
constexpr double kBestFitSortPerItemLog = 20;
// Online best fit: a few ordered-map operations per item (measured 7.5-39
// units per n log2 n: fewest when nothing is freed, most on random rows).
// With one time slot (every buffer live at once) nothing is freed before
// the end: each allocation only extends the top.
constexpr double kOnlinePerItemLog = 22;
constexpr double kOnlineNoFreePerItemLog = 7.5;
// Skyline above SkylinePacker's scan limit without fixed items: its order's
// sort and the packer's set-up, 10 n log2 n, then the sweep, about 2.6 runs
// asked an item (1.0-3.0 measured) and a placement, each
// SkylineSweepStepWork. The step's constant puts the measured / estimated
// ratios of the member cost table (idle machine) around 1: the cheapest
// steps are on inputs whose ranges nest or come in few lengths (synthetic
// DNN schedules, training and weights traces: 0.6-0.7), the dearest on
// dense random ones (1.4-1.9). With fixed items: the lazy queue, about one
// pop per item plus a stale floor refresh per four overlapping pairs (0.03
// to 0.6 per pair measured, depending on the order).
constexpr std::int64_t kSkylineScanLimit = 1024;
constexpr double kSweepSetupPerItemLog = 10;
constexpr double kSweepStepWorkPerLogs = 0.9;
constexpr double kSweepAsksPerItem = 2.6;
// A search step re-packs with a cutoff; it may be abandoned part way, but
// on A-K most steps run to the end (equal peaks are accepted), so a step is
// estimated at a whole packing.
constexpr double kSearchStepShare = 1.0;

// Budgets.
// Default effort: two lanes of 0.45 s at up to 10^5 items, growing with
// n log n above, so that a plan of 10^5 buffers (with parse and
// verification, about 0.8 s more) takes under 2 s on two cores also where
// the members run 1.5-1.9 x their estimates (the dense families); the search
// gets half that, scaled with n log n below 10^5 too, at least 7.5 x 10^8
// (kScanSearchFloor up to the skyline's scan limit).
constexpr double kDefaultWorkAt1e5 = 0.9e9;
constexpr double kDefaultSearchShare = 0.5;
constexpr double kDefaultSearchFloor = 7.5e8;
// Inputs the skyline packs by its scan (up to kSkylineScanLimit buffers:
// MiniMalloc's A-K) need fewer seconds to converge: 3.4 x 10^8, at
// least the steps their results were measured at (2.2 units a scanned
// item; 7.5 x 10^8 at the 5 it was counted at before).
constexpr double kScanSearchFloor = 3.4e8;
constexpr double kFastNearLinearFactor = 400;
// Fast effort: online best fit and both skylines at 10^6-10^7 buffers
// (the skylines' estimates grow with log2 t and their cache growth: about
// 105 n log2 n at 10^6, 131 at 10^7, online best fit 22), with no room
// for a best-fit member on traces of about 100 live at once.
constexpr double kFastWorkPerNLogN = 320;
constexpr double kMaxFactor = 10;
// The exact member's budget at default effort (its search at the bound
// gets 3/4: enough for the eight of MiniMalloc's A-K that pack at their
// bound but H, which needs 10^6 nodes; on inputs where it finds nothing it
// spends all of it, about 2 s of CPU), and its cost per node: a base plus a
// share per buffer (measured on MiniMalloc's A-K at their bound: 2.0-2.8 us
// a node at 154-454 buffers, docs/packing.md).
constexpr double kDefaultExactWork = 2e9;
// Below about 220 buffers the exact budget shrinks with n^2: a small input's
// decision concludes in far fewer nodes, or runs out whatever it is given
// (E, 215 buffers, needs 1.25 x 10^9 at its bound).
constexpr double kExactWorkPerItemSquared = 40000;
// At least about 1,000 nodes: a first round of restarts on the smallest inputs.
constexpr double kMinExactWork = 1e6;
constexpr double kExactNodeWorkBase = 1000;
constexpr double kExactNodeWorkPerItem = 6;
constexpr double kExactNodeSortFrom = 200;
constexpr double kExactNodeWorkPerComparison = 4.5;

double SkylineWork(const InputShape& shape) {
  const double n = static_cast<double>(shape.items);
  // The scan passes over the pending items at each placement: n^2 / 2.
  if (shape.items <= kSkylineScanLimit) return kSkylineScanWork * n * n / 2 + 1000;
  if (shape.fixed) {
    return SkylinePopWork(shape.items) * (n + static_cast<double>(shape.pairs) / 4) +
           kSortPerItemLog * NLogN(shape.items);
  }
  const double asks = kSweepAsksPerItem * static_cast<double>(std::max<std::int64_t>(shape.alignments, 1));
  return (asks + 1) * n * SkylineSweepStepWork(shape.items, shape.slots) +
         kSweepSetupPerItemLog * NLogN(shape.items);
}

double ExactWork(const InputShape& shape) {
  const double n = static_cast<double>(shape.items);
  return std::clamp(kExactWorkPerItemSquared * n * n, kMinExactWork, kDefaultExactWork);
}

}  // namespace

double SkylinePopWork(std::int64_t queued) {
  // Sizes where the cache effect starts and where it is fully there.
  constexpr double kInCache = 1e5;
  constexpr double kGrowth = 1.0;  // 1 + kGrowth at kInCache x 10 and beyond
  const double decades =
      std::clamp(std::log10(static_cast<double>(std::max<std::int64_t>(queued, 1)) / kInCache),
                 0.0, 1.0);
  return kSkylinePopWork * (1 + kGrowth * decades);
}

double SkylineSweepStepWork(std::int64_t items, std::int64_t slots) {
  constexpr double kInCache = 1e5;
  constexpr double kGrowth = 0.6;  // 1 + kGrowth at kInCache x 10 and beyond
  const double x = static_cast<double>(std::max<std::int64_t>(items, 2));
  const double decades = std::clamp(std::log10(x / kInCache), 0.0, 1.0);
  const double log_slots = std::log2(static_cast<double>(std::max<std::int64_t>(slots, 1)) + 1);
  return kSweepStepWorkPerLogs * std::log2(x) * log_slots * (1 + kGrowth * decades);
}

InputShape ShapeOf(const std::vector<PackItem>& items) {
  InputShape shape;
  std::vector<Bytes> alignments;
  for (const PackItem& item : items) {
    if (IsEmpty(item)) continue;
    ++shape.items;
    shape.fixed = shape.fixed || item.fixed_offset().has_value();
    if (alignments.size() < 64 &&
        std::find(alignments.begin(), alignments.end(), item.alignment) == alignments.end()) {
      alignments.push_back(item.alignment);
    }
  }
  shape.alignments = std::max<std::int64_t>(1, static_cast<std::int64_t>(alignments.size()));
  shape.pairs = IntersectingPairs(items);
  shape.slots = TimeSlots(items);
  return shape;
}

double PlacementWork(std::size_t visits, std::size_t items) {
  const double k = static_cast<double>(visits);
  const double log_n = std::log2(static_cast<double>(std::max<std::size_t>(items, 2)));
  return kPlacementWork + kPlacementWalkWork * log_n +
         k * (kVisitWalkWork * log_n + kVisitSortWork * std::log2(k + 1));
}

double BestFitWorkScale(PackingAlgorithm member) {
  // The same visits cost less in some orders: placed in time order, the
  // chunks a placement gathers come nearly sorted by offset. Each scale puts
  // the order's lowest and highest measured / estimated ratios on the member
  // cost table (bench/member_cost_table.sh, idle machine) equally far from 1.
  switch (member) {
    case PackingAlgorithm::kBestFitSpatial:
      return 0.62;
    case PackingAlgorithm::kBestFitTemporal:
    case PackingAlgorithm::kBestFitBusiest:
      return 0.52;
    case PackingAlgorithm::kBestFitStartTime:
      return 0.43;
    case PackingAlgorithm::kInOrder:
      return 0.6;
    default:
      return 1.0;
  }
}

double ExactNodeWork(const InputShape& shape) {
  const double n = static_cast<double>(shape.items);
  // Neighbours per buffer: a node sorts the unplaced buffers of its open
  // sections (canonical_search.h), about this many, at about 4.5 units a
  // comparison; below about 200 that is lost in the per-item loops
  // (MiniMalloc's A-K: 20-140 neighbours), above it dominates (dense traces
  // of 1,000-3,000 live at once: 3-5x the per-item cost alone).
  const double neighbours = n > 0 ? 2 * static_cast<double>(shape.pairs) / n : 0;
  const double sort =
      neighbours > kExactNodeSortFrom
          ? kExactNodeWorkPerComparison * (neighbours - kExactNodeSortFrom) * std::log2(neighbours)
          : 0;
  return kExactNodeWorkBase + kExactNodeWorkPerItem * n + sort;
}

std::string WorkSeconds(double work) {
  const double seconds = work * kSecondsPerWorkUnit;
  if (seconds >= 0.01) return fmt::format("{:.2f} s", seconds);
  return fmt::format("{:.3f} ms", seconds * 1e3);
}

std::string RaiseEffortHint(PackEffort effort, bool max_effort_helps, std::string_view member) {
  if (effort != PackEffort::kMax && max_effort_helps) return " (raise --effort)";
  return fmt::format(" (--algorithm {} runs it alone)", member);
}

double NLogN(std::int64_t n) {
  const double x = static_cast<double>(std::max<std::int64_t>(n, 1));
  return n < 2 ? x : x * std::log2(x);
}

double EstimatedWork(PackingAlgorithm member, const InputShape& shape) {
  const double pairs = static_cast<double>(shape.pairs);
  switch (member) {
    case PackingAlgorithm::kOnlineBestFit:
    case PackingAlgorithm::kNaive:
      return (shape.slots == 1 ? kOnlineNoFreePerItemLog : kOnlinePerItemLog) *
                 NLogN(shape.items) +
             1000;
    case PackingAlgorithm::kSkylineLongest:
    case PackingAlgorithm::kSkylineArea:
    case PackingAlgorithm::kSkylineLocalSearch:
      return SkylineWork(shape);
    case PackingAlgorithm::kSkylineCrowded:
      return kSkylineCrowdedScale * SkylineWork(shape);
    default: {  // best fit, in-order; kAuto is never asked
      // Each pair is visited once, by the later placed of its two items;
      // an item visits about p / n placed chunks on average.
      const double n = static_cast<double>(std::max<std::int64_t>(shape.items, 1));
      const double log_n = std::log2(std::max(n, 2.0));
      return BestFitWorkScale(member) *
             (kBestFitSortPerItemLog * NLogN(shape.items) +
              (kPlacementWork + kPlacementWalkWork * log_n) * n +
              pairs * (kVisitWalkWork * log_n + kVisitSortWork * std::log2(pairs / n + 1)) +
              1000);
    }
  }
}

double EstimatedSearchStepWork(const InputShape& shape) {
  return kSearchStepShare * SkylineWork(shape);
}

EffortBudget BudgetFor(PackEffort effort, const InputShape& shape) {
  const double scale = NLogN(shape.items) / NLogN(100'000);
  const double default_work = kDefaultWorkAt1e5 * std::max(1.0, scale);
  const double floor = shape.items <= kSkylineScanLimit ? kScanSearchFloor : kDefaultSearchFloor;
  const double default_search = std::max(floor, kDefaultSearchShare * kDefaultWorkAt1e5 * scale);
  EffortBudget budget;
  switch (effort) {
    case PackEffort::kFast:
      // Two lanes of at least kNegligibleWork each.
      budget.member_work = std::max(kFastWorkPerNLogN * NLogN(shape.items), 2 * kNegligibleWork);
      budget.near_linear_factor = kFastNearLinearFactor;
      break;
    case PackEffort::kDefault:
      budget.member_work = default_work;
      budget.search_work = default_search;
      budget.exact_work = ExactWork(shape);
      break;
    case PackEffort::kMax:
      budget.member_work = kMaxFactor * default_work;
      budget.search_work = kMaxFactor * default_search;
      budget.exact_work = kMaxFactor * ExactWork(shape);
      break;
  }
  return budget;
}

}  // namespace memplan
