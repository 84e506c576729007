#include "packing/portfolio.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "packing/live_profile.h"
#include "packing/local_search.h"
#include "packing/online_best_fit.h"
#include "packing/packer.h"
#include "packing/pack_support.h"
#include "packing/skyline.h"

namespace memplan {
namespace {

// Above this many items only the first kLargeInputMembers global members are
// candidates: on long sparse inputs their O(n log n) parts dominate, and
// these four win most often there.
constexpr std::size_t kLargeInput = 20'000;
constexpr std::size_t kLargeInputMembers = 4;

// The global members, in the order they are given the pair budget.
constexpr PackingAlgorithm kByPriority[] = {
    PackingAlgorithm::kBestFitSpatial,   PackingAlgorithm::kSkylineLongest,
    PackingAlgorithm::kBestFitTemporal,  PackingAlgorithm::kBestFitStartTime,
    PackingAlgorithm::kBestFitBusiest,   PackingAlgorithm::kInOrder,
    PackingAlgorithm::kSkylineArea};
// The same members in the tie-break order (portfolio.h).
constexpr PackingAlgorithm kByRank[] = {
    PackingAlgorithm::kBestFitSpatial,   PackingAlgorithm::kBestFitTemporal,
    PackingAlgorithm::kBestFitBusiest,   PackingAlgorithm::kBestFitStartTime,
    PackingAlgorithm::kInOrder,          PackingAlgorithm::kSkylineLongest,
    PackingAlgorithm::kSkylineArea};

int Rank(PackingAlgorithm member) {
  return static_cast<int>(std::find(std::begin(kByRank), std::end(kByRank), member) -
                          std::begin(kByRank));
}
constexpr int kOnlineRank = 7;
constexpr int kSearchRank = 8;

}  // namespace

std::size_t PortfolioGlobalMembers(std::size_t n, std::int64_t pairs) {
  std::size_t count = n > kLargeInput ? kLargeInputMembers : std::size(kByPriority);
  if (pairs > 0) {
    const std::int64_t budget = kPairBudget + kPairsPerItem * static_cast<std::int64_t>(n);
    const std::int64_t affordable = budget / pairs;
    if (affordable < static_cast<std::int64_t>(count)) count = static_cast<std::size_t>(affordable);
  }
  return count;
}

PackResult AutoPack(const std::vector<PackItem>& items, Bytes alignment) {
  PackResult best = OnlineBestFitPack(items, alignment);
  int best_rank = kOnlineRank;
  auto consider = [&](PackResult candidate, int rank) {
    if (candidate.peak < best.peak || (candidate.peak == best.peak && rank < best_rank)) {
      best = std::move(candidate);
      best_rank = rank;
    }
  };

  const std::size_t members = PortfolioGlobalMembers(items.size(), IntersectingPairs(items));
  std::optional<SkylinePacker> skyline;
  std::vector<std::int32_t> best_priority;
  Bytes best_skyline_peak = std::numeric_limits<Bytes>::max();
  int skylines_run = 0;
  // Runs one skyline order; keeps its priority list if it is the lowest so
  // far (longest wins ties: it runs first), the start of the local search.
  auto run_skyline = [&](SkylineOrder order) {
    if (!skyline) skyline.emplace(items, alignment);
    std::vector<std::int32_t> priority = SortForSkyline(items, order);
    PackResult result =
        MakePackResult(items, *skyline->Run(priority, std::numeric_limits<Bytes>::max()),
                       std::string(SkylineOrderName(order)));
    if (result.peak < best_skyline_peak) {
      best_skyline_peak = result.peak;
      best_priority = std::move(priority);
    }
    ++skylines_run;
    return result;
  };
  for (std::size_t k = 0; k < members; ++k) {
    const PackingAlgorithm member = kByPriority[k];
    if (member == PackingAlgorithm::kSkylineLongest) {
      consider(run_skyline(SkylineOrder::kLongestFirst), Rank(member));
    } else if (member == PackingAlgorithm::kSkylineArea) {
      consider(run_skyline(SkylineOrder::kLargestArea), Rank(member));
    } else {
      consider(Pack(items, member, alignment), Rank(member));
    }
  }

  // Skyline-longest runs before skyline-area, so the search starts where
  // SkylineLocalSearchPack's does and reproduces its offsets.
  const Bytes lower_bound = MaxLiveBytes(items);
  if (skylines_run < 2 || best.peak <= lower_bound) return best;
  std::optional<PackResult> searched =
      SearchSkyline(*skyline, std::move(best_priority), best_skyline_peak, lower_bound);
  if (searched) consider(*std::move(searched), kSearchRank);
  return best;
}

}  // namespace memplan
