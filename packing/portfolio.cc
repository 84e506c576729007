#include "packing/portfolio.h"

#include <utility>

#include "packing/baselines.h"
#include "packing/best_fit.h"
#include "packing/skyline.h"

namespace memplan {

PackResult AutoPack(const std::vector<PackItem>& items, Bytes alignment) {
  PackResult best = BestFitPack(items, BestFitOrder::kSpatial, alignment);
  auto consider = [&](PackResult candidate) {
    if (candidate.peak < best.peak) best = std::move(candidate);
  };
  consider(BestFitPack(items, BestFitOrder::kTemporal, alignment));
  consider(BestFitPack(items, BestFitOrder::kBusiest, alignment));
  consider(BestFitPack(items, BestFitOrder::kStartTime, alignment));
  consider(InOrderPack(items, alignment));
  consider(SkylinePack(items, SkylineOrder::kLongestFirst, alignment));
  consider(SkylinePack(items, SkylineOrder::kLargestArea, alignment));
  return best;
}

}  // namespace memplan
