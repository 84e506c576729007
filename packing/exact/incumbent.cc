#include "packing/exact/incumbent.h"

#include "packing/baselines.h"
#include "packing/best_fit.h"
#include "packing/local_search.h"
#include "packing/online_best_fit.h"
#include "packing/skyline.h"

namespace memplan::exact {

std::vector<Bytes> ExactIncumbent(const std::vector<PackItem>& items, Bytes alignment, bool search) {
  PackResult best = SkylinePack(items, SkylineOrder::kLargestArea, alignment);
  const auto keep_if_lower = [&best](PackResult candidate) {
    if (candidate.peak < best.peak) best = std::move(candidate);
  };
  keep_if_lower(SkylinePack(items, SkylineOrder::kLongestFirst, alignment));
  for (BestFitOrder order : {BestFitOrder::kSpatial, BestFitOrder::kTemporal, BestFitOrder::kBusiest,
                             BestFitOrder::kStartTime}) {
    keep_if_lower(BestFitPack(items, order, alignment));
  }
  keep_if_lower(InOrderPack(items, alignment));
  keep_if_lower(OnlineBestFitPack(items, alignment));
  if (search) keep_if_lower(SkylineLocalSearchPack(items, PackOptions{.alignment = alignment}));
  return std::move(best.offsets);
}

}  // namespace memplan::exact
