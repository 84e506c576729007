#include "packing/exact/incumbent.h"

#include <limits>
#include <optional>
#include <string>

#include "packing/baselines.h"
#include "packing/best_fit.h"
#include "packing/local_search.h"
#include "packing/online_best_fit.h"
#include "packing/parallel_tasks.h"
#include "packing/skyline.h"

namespace memplan::exact {

std::vector<Bytes> ExactIncumbent(const std::vector<PackItem>& items, Bytes alignment, bool search,
                                  const PackDeadline& deadline) {
  constexpr double kNoWorkLimit = std::numeric_limits<double>::infinity();
  std::optional<PackResult> best;
  const auto keep_if_lower = [&best](std::optional<PackResult> candidate) {
    if (candidate && (!best || candidate->peak < best->peak)) best = std::move(candidate);
  };
  const SkylinePacker skyline(items, alignment);
  // The local search starts from the lower of these two skyline packings,
  // longest first on ties (SearchStarts::first, without packing either
  // again; not from skyline-crowded too, which the exact search's measured
  // results predate).
  std::optional<SkylineStart> start;
  for (SkylineOrder order : {SkylineOrder::kLargestArea, SkylineOrder::kLongestFirst}) {
    double work = 0;
    std::vector<std::int32_t> priority = SortForSkyline(items, order);
    std::optional<std::vector<Bytes>> offsets = skyline.RunWithin(
        priority, std::numeric_limits<Bytes>::max(), kNoWorkLimit, &work, deadline);
    if (!offsets) continue;
    PackResult packed = MakePackResult(items, *std::move(offsets), std::string(SkylineOrderName(order)));
    if (!start || packed.peak <= start->peak) start = SkylineStart{priority, packed.offsets, packed.peak};
    keep_if_lower(std::move(packed));
  }
  for (BestFitOrder order : {BestFitOrder::kSpatial, BestFitOrder::kTemporal, BestFitOrder::kBusiest,
                             BestFitOrder::kStartTime}) {
    double work = 0;
    std::optional<std::vector<Bytes>> offsets = BestFitInOrderWithin(
        items, SortForBestFit(items, order), alignment, kNoWorkLimit, &work, deadline);
    if (offsets) {
      keep_if_lower(MakePackResult(items, *std::move(offsets), std::string(BestFitOrderName(order))));
    }
  }
  double work = 0;
  keep_if_lower(InOrderPackWithin(items, alignment, kNoWorkLimit, &work, deadline));
  // O(n log n), no deadline: there is always a packing.
  keep_if_lower(OnlineBestFitPack(items, alignment));
  // skyline-local-search at the default effort (SkylineLocalSearchPack).
  if (search && start && !(deadline && PackClock::now() >= *deadline)) {
    constexpr PackEffort kEffort = PackEffort::kDefault;
    keep_if_lower(SearchSkyline(skyline, {*start, std::nullopt}, MaxLiveBytes(items),
                                LocalSearchSteps(items, kEffort), LocalSearchWorkLimit(items, kEffort),
                                RestartsOnPlateau(kEffort), PackingThreads(), deadline.at)
                      .improved);
  }
  return std::move(best->offsets);
}

}  // namespace memplan::exact
