#include "packing/portfolio.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "packing/baselines.h"
#include "packing/best_fit.h"
#include "packing/local_search.h"
#include "packing/pack_support.h"
#include "packing/skyline.h"

namespace memplan {
namespace {

// Local search budget: about kSearchWork item-pair visits in all (a skyline
// re-pack of n items costs up to n^2 of them), at most kMaxSearchSteps steps,
// skipped below kMinSearchSteps, where it would rarely pay off. With these
// numbers a 450-item input gets 145 steps (a few tens of ms), a 150-item one
// 500, and inputs above about 1,700 items none.
constexpr std::int64_t kSearchWork = 30'000'000;
constexpr std::int64_t kMaxSearchSteps = 500;
constexpr std::int64_t kMinSearchSteps = 10;
constexpr std::uint64_t kSearchSeed = 1;

// Above this many items only the four heuristics that win most often on
// large inputs run (spatial, temporal, start-time, skyline-longest), which
// keeps 10^5 items near a second.
constexpr std::size_t kLargeInput = 20'000;

std::int64_t SearchSteps(std::int64_t n) {
  if (n < 2) return 0;
  const std::int64_t steps = std::min(kMaxSearchSteps, kSearchWork / (n * n));
  return steps < kMinSearchSteps ? 0 : steps;
}

}  // namespace

PackResult AutoPack(const std::vector<PackItem>& items, Bytes alignment) {
  const bool large = items.size() > kLargeInput;
  PackResult best = BestFitPack(items, BestFitOrder::kSpatial, alignment);
  auto consider = [&](PackResult candidate) {
    if (candidate.peak < best.peak) best = std::move(candidate);
  };
  consider(BestFitPack(items, BestFitOrder::kTemporal, alignment));
  if (!large) consider(BestFitPack(items, BestFitOrder::kBusiest, alignment));
  consider(BestFitPack(items, BestFitOrder::kStartTime, alignment));
  if (!large) consider(InOrderPack(items, alignment));

  const SkylinePacker skyline(items, alignment);
  std::vector<std::int32_t> best_priority;
  Bytes best_skyline_peak = std::numeric_limits<Bytes>::max();
  std::vector<SkylineOrder> skyline_orders = {SkylineOrder::kLongestFirst};
  if (!large) skyline_orders.push_back(SkylineOrder::kLargestArea);
  for (SkylineOrder order : skyline_orders) {
    std::vector<std::int32_t> priority = SortForSkyline(items, order);
    PackResult result = MakePackResult(
        items, *skyline.Run(priority, std::numeric_limits<Bytes>::max()),
        std::string(SkylineOrderName(order)));
    if (result.peak < best_skyline_peak) {
      best_skyline_peak = result.peak;
      best_priority = std::move(priority);
    }
    consider(std::move(result));
  }

  const std::int64_t n = static_cast<std::int64_t>(best_priority.size());
  const Bytes lower_bound = MaxLiveBytes(items);
  if (best.peak <= lower_bound) return best;  // optimal already
  std::optional<LocalSearchResult> improved =
      ImproveSkylinePriority(skyline, std::move(best_priority), best_skyline_peak, lower_bound,
                             SearchSteps(n), kSearchSeed);
  if (improved) {
    consider(MakePackResult(items, std::move(improved->offsets), "skyline-local-search"));
  }
  return best;
}

}  // namespace memplan
