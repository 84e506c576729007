#include "packing/window_search.h"

#include <algorithm>
#include <string>
#include <limits>
#include <utility>

#include "packing/best_fit.h"
#include "packing/fixed_items.h"
#include "packing/local_search.h"
#include "packing/member_cost.h"
#include "packing/pack_support.h"
#include "packing/presorted_interval_tree.h"
#include "packing/skyline.h"

namespace memplan {
namespace {

// A window's widenings, in multiples of the item's own length on each side.
constexpr TimeStep kPadFactors[] = {0, 1, 2, 4, 8};
// A window re-packs at most this many items (its packers cost about the
// square of it).
constexpr std::size_t kMaxWindowItems = 2048;
// Work units (member_cost.h) of building the time index, per n log2 n, and
// of looking at one item (a scan for the items at the peak, a window's
// items gathered and copied).
constexpr double kIndexWorkPerNLogN = 30;
constexpr double kScanWorkPerItem = 2;

// The items live during a range of time: an interval index over every
// item's live range, built once (the chunks' offsets hold item indices).
class TimeIndex {
 public:
  explicit TimeIndex(const std::vector<PackItem>& items) : tree_(LiveRanges(items)) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!IsEmpty(items[i])) tree_.Insert(static_cast<std::int32_t>(i), static_cast<Bytes>(i), 1);
    }
  }
  template <typename Visitor>
  void ForEachLiveDuring(TimeStep s, TimeStep e, Visitor&& visit) const {
    tree_.ForEachOverlapping(s, e, [&](const PlacedChunk& c) {
      visit(static_cast<std::int32_t>(c.offset));
    });
  }

 private:
  PresortedIntervalTree tree_;
};

// One window's sub-problem: its re-packed items first, then its obstacles.
struct Window {
  std::vector<std::int32_t> free;       // item indices re-packed
  std::vector<PackItem> items;          // free items, then obstacles (fixed)
  std::size_t inside = 0;               // items live only inside it (free ones and more)
};

// The window [s, e]: the items live only inside it are re-packed, or, when
// there are more than kMaxWindowItems of them, the kMaxWindowItems that
// reach highest (a band at the top of the window, where the peak is); every
// other item live during it is an obstacle.
Window MakeWindow(const std::vector<PackItem>& items, const std::vector<Bytes>& offsets,
                  const TimeIndex& index, TimeStep s, TimeStep e) {
  Window window;
  std::vector<std::int32_t> obstacles;
  index.ForEachLiveDuring(s, e, [&](std::int32_t i) {
    const PackItem& item = items[i];
    const bool inside = item.start >= s && EndOf(item) <= e;
    (inside && !item.fixed_offset() ? window.free : obstacles).push_back(i);
  });
  window.inside = window.free.size();
  if (window.free.size() > kMaxWindowItems) {
    const auto top = [&](std::int32_t i) { return offsets[i] + items[i].size; };
    std::nth_element(window.free.begin(), window.free.begin() + kMaxWindowItems,
                     window.free.end(), [&](std::int32_t a, std::int32_t b) {
                       return top(a) != top(b) ? top(a) > top(b) : a < b;
                     });
    obstacles.insert(obstacles.end(), window.free.begin() + kMaxWindowItems, window.free.end());
    window.free.resize(kMaxWindowItems);
  }
  // Index order, so the window does not depend on the index's visiting order.
  std::sort(window.free.begin(), window.free.end());
  std::sort(obstacles.begin(), obstacles.end());
  window.items.reserve(window.free.size() + obstacles.size());
  for (std::int32_t i : window.free) window.items.push_back(items[i]);
  for (std::int32_t i : obstacles) {
    window.items.push_back(items[i]);
    window.items.back().mutable_fixed_offset() = offsets[i];
  }
  return window;
}

// Re-packs `window` with each packer in turn until one puts every free item
// below `peak`; its offsets (of window.items), or nullopt. Counts the
// packers' work into `*work`, none past `work_limit`.
std::optional<std::vector<Bytes>> RepackBelow(const Window& window, Bytes peak, Bytes alignment,
                                              double work_limit, double* work,
                                              const PackDeadline& deadline) {
  const auto below = [&](const std::vector<Bytes>& offsets) {
    for (std::size_t k = 0; k < window.free.size(); ++k) {
      if (offsets[k] + window.items[k].size >= peak) return false;
    }
    return true;
  };
  for (BestFitOrder order : {BestFitOrder::kSpatial, BestFitOrder::kTemporal,
                             BestFitOrder::kBusiest}) {
    std::optional<std::vector<Bytes>> offsets =
        BestFitInOrderWithin(window.items, SortForBestFit(window.items, order), alignment,
                             work_limit, work, deadline);
    if (!offsets) return std::nullopt;  // out of work or time
    if (below(*offsets)) return offsets;
  }
  return std::nullopt;
}

}  // namespace

WindowSearchOutcome SearchWindows(const std::vector<PackItem>& items, std::vector<Bytes> offsets,
                                  Bytes target, Bytes alignment, double work_limit,
                                  const PackDeadline& deadline) {
  WindowSearchOutcome outcome;
  const Bytes start_peak = PeakOf(items, offsets);
  outcome.peak = start_peak;
  const TimeIndex index(items);
  outcome.work += kIndexWorkPerNLogN * NLogN(static_cast<std::int64_t>(items.size()));
  Bytes peak = start_peak;
  std::vector<bool> passed(items.size(), false);  // no window helped it at this peak
  while (peak > target && outcome.work < work_limit) {
    // The first item at the peak not passed over yet.
    std::optional<std::int32_t> hot;
    bool any_at_peak = false;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (IsEmpty(items[i]) || offsets[i] + items[i].size != peak) continue;
      any_at_peak = true;
      if (items[i].fixed_offset()) break;  // a fixed item holds the peak up
      if (!passed[i]) {
        hot = static_cast<std::int32_t>(i);
        break;
      }
    }
    outcome.work += kScanWorkPerItem * static_cast<double>(items.size());
    if (!any_at_peak) {  // every item at the peak was lowered
      peak = PeakOf(items, offsets);
      std::fill(passed.begin(), passed.end(), false);
      continue;
    }
    if (!hot) break;  // stuck (or a fixed item is at the peak)
    const PackItem& item = items[*hot];
    const TimeStep length = EndOf(item) - item.start + 1;
    bool kept = false;
    // A wider window holds every item of a narrower one: the same counts
    // are the same window.
    std::pair<std::size_t, std::size_t> last_counts = {0, 0};
    for (TimeStep factor : kPadFactors) {
      const Window window = MakeWindow(items, offsets, index, item.start - factor * length,
                                       EndOf(item) + factor * length);
      outcome.work += kScanWorkPerItem * static_cast<double>(window.items.size());
      const std::pair<std::size_t, std::size_t> counts = {window.inside, window.items.size()};
      if (counts == last_counts) continue;
      last_counts = counts;
      ++outcome.windows;
      std::optional<std::vector<Bytes>> packed =
          RepackBelow(window, peak, alignment, work_limit, &outcome.work, deadline);
      if (deadline && PackClock::now() >= *deadline) outcome.time_limited = true;
      if (!packed) {
        if (outcome.work >= work_limit || outcome.time_limited) break;
        continue;
      }
      for (std::size_t k = 0; k < window.free.size(); ++k) offsets[window.free[k]] = (*packed)[k];
      ++outcome.improved;
      kept = true;
      break;
    }
    if (outcome.time_limited) break;
    if (!kept) passed[*hot] = true;
  }
  const Bytes final_peak = PeakOf(items, offsets);
  if (final_peak < start_peak) {
    outcome.peak = final_peak;
    outcome.offsets = std::move(offsets);
  }
  return outcome;
}

double WindowSearchWork(const EffortBudget& budget) { return budget.search_work / 4; }

PackResult SkylineWindowSearchPack(const std::vector<PackItem>& items, const PackOptions& options) {
  const SkylinePacker packer(items, options.alignment);
  SkylineStart start = BestSkylineStart(packer);
  const double work = WindowSearchWork(BudgetFor(options.effort, ShapeOf(items)));
  WindowSearchOutcome searched =
      SearchWindows(items, start.offsets, MaxLiveBytes(items), options.alignment, work,
                    DeadlineAfter(options.time_limit_seconds));
  return MakePackResult(items, searched.offsets ? *std::move(searched.offsets) : start.offsets,
                        std::string(kSkylineWindowSearchName));
}

}  // namespace memplan
