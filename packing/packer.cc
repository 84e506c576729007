#include "packing/packer.h"

#include <string>

#include "absl/status/status.h"
#include "packing/baselines.h"
#include "packing/best_fit.h"
#include "packing/exact/exact_packer.h"
#include "packing/local_search.h"
#include "packing/online_best_fit.h"
#include "packing/parallel_tasks.h"
#include "packing/portfolio.h"
#include "packing/skyline.h"
#include "packing/window_search.h"

namespace memplan {

std::string_view PackingAlgorithmName(PackingAlgorithm algorithm) {
  switch (algorithm) {
    case PackingAlgorithm::kAuto:
      return "auto";
    case PackingAlgorithm::kBestFitSpatial:
      return BestFitOrderName(BestFitOrder::kSpatial);
    case PackingAlgorithm::kBestFitTemporal:
      return BestFitOrderName(BestFitOrder::kTemporal);
    case PackingAlgorithm::kBestFitBusiest:
      return BestFitOrderName(BestFitOrder::kBusiest);
    case PackingAlgorithm::kBestFitStartTime:
      return BestFitOrderName(BestFitOrder::kStartTime);
    case PackingAlgorithm::kInOrder:
      return "in-order";
    case PackingAlgorithm::kSkylineLongest:
      return SkylineOrderName(SkylineOrder::kLongestFirst);
    case PackingAlgorithm::kSkylineArea:
      return SkylineOrderName(SkylineOrder::kLargestArea);
    case PackingAlgorithm::kSkylineCrowded:
      return SkylineOrderName(SkylineOrder::kCrowdedFirst);
    case PackingAlgorithm::kSkylineLocalSearch:
      return kSkylineLocalSearchName;
    case PackingAlgorithm::kSkylineWindowSearch:
      return kSkylineWindowSearchName;
    case PackingAlgorithm::kOnlineBestFit:
      return "online-best-fit";
    case PackingAlgorithm::kNaive:
      return "naive";
    case PackingAlgorithm::kExact:
      return "exact";
  }
  return "unknown";
}

std::string_view SearchStatusName(SearchStatus status) {
  switch (status) {
    case SearchStatus::kNotSearched:
      return "not-searched";
    case SearchStatus::kFeasible:
      return "feasible";
    case SearchStatus::kOptimal:
      return "optimal";
    case SearchStatus::kInfeasible:
      return "infeasible";
    case SearchStatus::kStopped:
      return "stopped";
  }
  return "unknown";
}

std::vector<PackingAlgorithm> AllPackingAlgorithms() {
  return {PackingAlgorithm::kAuto,           PackingAlgorithm::kBestFitSpatial,
          PackingAlgorithm::kBestFitTemporal, PackingAlgorithm::kBestFitBusiest,
          PackingAlgorithm::kBestFitStartTime, PackingAlgorithm::kInOrder,
          PackingAlgorithm::kSkylineLongest, PackingAlgorithm::kSkylineArea,
          PackingAlgorithm::kSkylineCrowded, PackingAlgorithm::kSkylineLocalSearch, PackingAlgorithm::kSkylineWindowSearch,
          PackingAlgorithm::kOnlineBestFit,
          PackingAlgorithm::kNaive};
}

absl::StatusOr<PackingAlgorithm> ParsePackingAlgorithm(std::string_view name) {
  std::string known;
  for (PackingAlgorithm algorithm : AllPackingAlgorithms()) {
    if (PackingAlgorithmName(algorithm) == name) return algorithm;
    if (!known.empty()) known += ", ";
    known += PackingAlgorithmName(algorithm);
  }
  if (name == PackingAlgorithmName(PackingAlgorithm::kExact)) return PackingAlgorithm::kExact;
  known += ", exact";
  return absl::InvalidArgumentError("unknown packing algorithm '" + std::string(name) +
                                    "' (expected one of: " + known + ")");
}

std::string_view PackEffortName(PackEffort effort) {
  switch (effort) {
    case PackEffort::kFast:
      return "fast";
    case PackEffort::kDefault:
      return "default";
    case PackEffort::kMax:
      return "max";
  }
  return "default";
}

absl::StatusOr<PackEffort> ParsePackEffort(std::string_view name) {
  for (PackEffort effort : {PackEffort::kFast, PackEffort::kDefault, PackEffort::kMax}) {
    if (PackEffortName(effort) == name) return effort;
  }
  return absl::InvalidArgumentError("unknown effort '" + std::string(name) +
                                    "' (expected one of: fast, default, max)");
}

PackResult Pack(const std::vector<PackItem>& items, PackingAlgorithm algorithm, Bytes alignment) {
  return Pack(items, algorithm, PackOptions{.alignment = alignment});
}

namespace {

PackResult PackWith(const std::vector<PackItem>& items, PackingAlgorithm algorithm,
                    const PackOptions& options) {
  const Bytes alignment = options.alignment;
  switch (algorithm) {
    case PackingAlgorithm::kAuto:
      return AutoPack(items, options);
    case PackingAlgorithm::kBestFitSpatial:
      return BestFitPack(items, BestFitOrder::kSpatial, alignment);
    case PackingAlgorithm::kBestFitTemporal:
      return BestFitPack(items, BestFitOrder::kTemporal, alignment);
    case PackingAlgorithm::kBestFitBusiest:
      return BestFitPack(items, BestFitOrder::kBusiest, alignment);
    case PackingAlgorithm::kBestFitStartTime:
      return BestFitPack(items, BestFitOrder::kStartTime, alignment);
    case PackingAlgorithm::kInOrder:
      return InOrderPack(items, alignment);
    case PackingAlgorithm::kSkylineLongest:
      return SkylinePack(items, SkylineOrder::kLongestFirst, alignment);
    case PackingAlgorithm::kSkylineArea:
      return SkylinePack(items, SkylineOrder::kLargestArea, alignment);
    case PackingAlgorithm::kSkylineCrowded:
      return SkylinePack(items, SkylineOrder::kCrowdedFirst, alignment);
    case PackingAlgorithm::kSkylineLocalSearch:
      return SkylineLocalSearchPack(items, options);
    case PackingAlgorithm::kSkylineWindowSearch:
      return SkylineWindowSearchPack(items, options);
    case PackingAlgorithm::kOnlineBestFit:
      return OnlineBestFitPack(items, alignment);
    case PackingAlgorithm::kNaive:
      return NaivePack(items, alignment);
    case PackingAlgorithm::kExact:
      return ExactPack(items, options, PackingThreads());
  }
  return AutoPack(items, options);
}

}  // namespace

PackResult Pack(const std::vector<PackItem>& items, PackingAlgorithm algorithm,
                const PackOptions& options) {
  PackResult result = PackWith(items, algorithm, options);
  // kAuto has it already; the others are measured against max-live.
  if (result.lower_bound == 0) result.lower_bound = MaxLiveBytes(items);
  return result;
}

}  // namespace memplan
