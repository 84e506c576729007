#include "packing/packer.h"

#include <string>

#include "absl/status/status.h"
#include "packing/baselines.h"
#include "packing/best_fit.h"
#include "packing/portfolio.h"

namespace memplan {

std::string_view PackingAlgorithmName(PackingAlgorithm algorithm) {
  switch (algorithm) {
    case PackingAlgorithm::kAuto:
      return "auto";
    case PackingAlgorithm::kBestFitSpatial:
      return "best-fit-spatial";
    case PackingAlgorithm::kBestFitTemporal:
      return "best-fit-temporal";
    case PackingAlgorithm::kInOrder:
      return "in-order";
    case PackingAlgorithm::kNaive:
      return "naive";
  }
  return "unknown";
}

std::vector<PackingAlgorithm> AllPackingAlgorithms() {
  return {PackingAlgorithm::kAuto, PackingAlgorithm::kBestFitSpatial,
          PackingAlgorithm::kBestFitTemporal, PackingAlgorithm::kInOrder,
          PackingAlgorithm::kNaive};
}

absl::StatusOr<PackingAlgorithm> ParsePackingAlgorithm(std::string_view name) {
  std::string known;
  for (PackingAlgorithm algorithm : AllPackingAlgorithms()) {
    if (PackingAlgorithmName(algorithm) == name) return algorithm;
    if (!known.empty()) known += ", ";
    known += PackingAlgorithmName(algorithm);
  }
  return absl::InvalidArgumentError("unknown packing algorithm '" + std::string(name) +
                                    "' (expected one of: " + known + ")");
}

PackResult Pack(const std::vector<PackItem>& items, PackingAlgorithm algorithm, Bytes alignment) {
  switch (algorithm) {
    case PackingAlgorithm::kAuto:
      return AutoPack(items, alignment);
    case PackingAlgorithm::kBestFitSpatial:
      return BestFitPack(items, BestFitOrder::kSpatial, alignment);
    case PackingAlgorithm::kBestFitTemporal:
      return BestFitPack(items, BestFitOrder::kTemporal, alignment);
    case PackingAlgorithm::kInOrder:
      return InOrderPack(items, alignment);
    case PackingAlgorithm::kNaive:
      return NaivePack(items, alignment);
  }
  return AutoPack(items, alignment);
}

}  // namespace memplan
