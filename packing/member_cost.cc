#include "packing/member_cost.h"

#include <algorithm>
#include <cmath>

namespace memplan {
namespace {

// Fitted constants (work units = ns of one reference core; docs/packing.md).
// Global best fit: a sort plus a tree query per item, and about one visit,
// sort step and hole check per overlapping pair.
constexpr double kBestFitPerItemLog = 90;
constexpr double kBestFitPerPair = 70;
// Online best fit: a few ordered-map operations per item.
constexpr double kOnlinePerItemLog = 40;
// Skyline: up to SkylinePacker's scan limit an O(n) pass per placement;
// above it a queue and a segment tree, with stale floors refreshed about
// once per overlapping pair.
constexpr std::int64_t kSkylineScanLimit = 2048;
constexpr double kSkylineScanPerItemSquared = 1.5;
constexpr double kSkylineQueuePerItemLog = 60;
constexpr double kSkylineQueuePerPairLog = 8;
// A search step re-packs with a cutoff and is often abandoned part way.
constexpr double kSearchStepShare = 0.6;

// Budgets.
constexpr double kDefaultWorkAt1e5 = 3e9;
constexpr double kDefaultWorkFloor = 1.2e9;
constexpr double kFastNearLinearFactor = 400;
constexpr double kFastWorkPerNLogN = 1500;
constexpr double kMaxSearchFactor = 10;

double SkylineWork(const InputShape& shape) {
  const double n = static_cast<double>(shape.items);
  if (shape.items <= kSkylineScanLimit) return kSkylineScanPerItemSquared * n * n + 1000;
  return kSkylineQueuePerItemLog * NLogN(shape.items) +
         kSkylineQueuePerPairLog * static_cast<double>(shape.pairs) * std::log2(n);
}

}  // namespace

double NLogN(std::int64_t n) {
  const double x = static_cast<double>(std::max<std::int64_t>(n, 1));
  return n < 2 ? x : x * std::log2(x);
}

double EstimatedWork(PackingAlgorithm member, const InputShape& shape) {
  const double pairs = static_cast<double>(shape.pairs);
  switch (member) {
    case PackingAlgorithm::kOnlineBestFit:
    case PackingAlgorithm::kNaive:
      return kOnlinePerItemLog * NLogN(shape.items) + 1000;
    case PackingAlgorithm::kSkylineLongest:
    case PackingAlgorithm::kSkylineArea:
    case PackingAlgorithm::kSkylineLocalSearch:
      return SkylineWork(shape);
    default:  // best fit, in-order; kAuto is never asked
      return kBestFitPerItemLog * NLogN(shape.items) + kBestFitPerPair * pairs + 1000;
  }
}

double EstimatedSearchStepWork(const InputShape& shape) {
  return kSearchStepShare * SkylineWork(shape);
}

EffortBudget BudgetFor(PackEffort effort, const InputShape& shape) {
  const double scaled = kDefaultWorkAt1e5 * NLogN(shape.items) / NLogN(100'000);
  const double default_work = std::max(kDefaultWorkFloor, scaled);
  EffortBudget budget;
  switch (effort) {
    case PackEffort::kFast:
      budget.member_work = kFastWorkPerNLogN * NLogN(shape.items);
      budget.near_linear_factor = kFastNearLinearFactor;
      break;
    case PackEffort::kDefault:
      budget.member_work = default_work;
      budget.search_work = default_work;
      break;
    case PackEffort::kMax:
      budget.member_work = kMaxSearchFactor * default_work;
      budget.search_work = kMaxSearchFactor * default_work;
      budget.every_member = true;
      break;
  }
  return budget;
}

}  // namespace memplan
