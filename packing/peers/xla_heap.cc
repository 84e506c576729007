#include "packing/peers/xla_heap.h"

#include "packing/best_fit.h"

namespace memplan::peers {

PackResult XlaHeapPack(const std::vector<PackItem>& items, Bytes alignment) {
  std::vector<PackItem> hulls = items;
  for (PackItem& item : hulls) {
    if (item.extras) item.mutable_gaps().clear();
  }
  PackResult spatial = BestFitPack(hulls, BestFitOrder::kSpatial, alignment);
  PackResult temporal = BestFitPack(hulls, BestFitOrder::kTemporal, alignment);
  return temporal.peak < spatial.peak ? temporal : spatial;
}

}  // namespace memplan::peers
