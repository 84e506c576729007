#include "packing/portfolio.h"

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "packing/baselines.h"
#include "packing/best_fit.h"
#include "packing/live_profile.h"
#include "packing/local_search.h"
#include "packing/online_best_fit.h"
#include "packing/pack_support.h"
#include "packing/skyline.h"

namespace memplan {
namespace {

// Above this many items only the first kLargeInputMembers global members are
// candidates: on long sparse inputs their O(n log n) parts dominate, and
// these four win most often there.
constexpr std::size_t kLargeInput = 20'000;
constexpr std::size_t kLargeInputMembers = 4;

// The global members, in the order they are given the pair budget. `rank` is
// the position in the tie-break list (portfolio.h).
enum class Member {
  kSpatial,
  kStartTime,
  kSkylineLongest,
  kTemporal,
  kBusiest,
  kInOrder,
  kSkylineArea,
};
constexpr Member kByPriority[] = {Member::kSpatial,   Member::kSkylineLongest, Member::kTemporal,
                                  Member::kStartTime, Member::kBusiest,        Member::kInOrder,
                                  Member::kSkylineArea};

int Rank(Member member) {
  switch (member) {
    case Member::kSpatial: return 0;
    case Member::kTemporal: return 1;
    case Member::kBusiest: return 2;
    case Member::kStartTime: return 3;
    case Member::kInOrder: return 4;
    case Member::kSkylineLongest: return 5;
    case Member::kSkylineArea: return 6;
  }
  return 0;
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
    const Member member = kByPriority[k];
    switch (member) {
      case Member::kSpatial:
        consider(BestFitPack(items, BestFitOrder::kSpatial, alignment), Rank(member));
        break;
      case Member::kTemporal:
        consider(BestFitPack(items, BestFitOrder::kTemporal, alignment), Rank(member));
        break;
      case Member::kBusiest:
        consider(BestFitPack(items, BestFitOrder::kBusiest, alignment), Rank(member));
        break;
      case Member::kStartTime:
        consider(BestFitPack(items, BestFitOrder::kStartTime, alignment), Rank(member));
        break;
      case Member::kInOrder:
        consider(InOrderPack(items, alignment), Rank(member));
        break;
      case Member::kSkylineLongest:
        consider(run_skyline(SkylineOrder::kLongestFirst), Rank(member));
        break;
      case Member::kSkylineArea:
        consider(run_skyline(SkylineOrder::kLargestArea), Rank(member));
        break;
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
