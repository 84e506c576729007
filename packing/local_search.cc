#include "packing/local_search.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "packing/pack_support.h"

namespace memplan {
namespace {

constexpr std::int64_t kSearchWork = 30'000'000;
constexpr std::int64_t kMaxSearchSteps = 500;
constexpr std::int64_t kMinSearchSteps = 10;
constexpr std::uint64_t kSearchSeed = 1;

}  // namespace

std::optional<LocalSearchResult> ImproveSkylinePriority(const SkylinePacker& packer,
                                                        std::vector<std::int32_t> priority,
                                                        Bytes peak, Bytes target,
                                                        std::int64_t steps, std::uint64_t seed) {
  const std::uint64_t n = priority.size();
  if (n < 2) return std::nullopt;
  std::uint64_t state = seed;
  auto next = [&] { return Mix64(state++); };
  std::optional<LocalSearchResult> best;
  Bytes current_peak = peak;  // peak of `priority`; never rises
  std::vector<std::int32_t> candidate;
  for (std::int64_t step = 0; step < steps && current_peak > target; ++step) {
    candidate = priority;
    const std::uint64_t swaps = 1 + next() % 3;
    for (std::uint64_t k = 0; k < swaps; ++k) {
      std::swap(candidate[next() % n], candidate[next() % n]);
    }
    std::optional<std::vector<Bytes>> offsets = packer.Run(candidate, current_peak + 1);
    if (!offsets) continue;  // higher peak: rejected
    priority.swap(candidate);
    current_peak = PeakOf(packer.items(), *offsets);
    if (current_peak < peak) best = LocalSearchResult{std::move(*offsets), current_peak};
  }
  return best;
}

std::int64_t LocalSearchSteps(std::int64_t n) {
  if (n < 2) return 0;
  const std::int64_t steps = std::min(kMaxSearchSteps, kSearchWork / (n * n));
  return steps < kMinSearchSteps ? 0 : steps;
}

std::optional<PackResult> SearchSkyline(const SkylinePacker& packer,
                                        std::vector<std::int32_t> priority, Bytes peak,
                                        Bytes target) {
  const std::int64_t steps = LocalSearchSteps(static_cast<std::int64_t>(priority.size()));
  std::optional<LocalSearchResult> improved =
      ImproveSkylinePriority(packer, std::move(priority), peak, target, steps, kSearchSeed);
  if (!improved) return std::nullopt;
  return MakePackResult(packer.items(), std::move(improved->offsets),
                        std::string(kSkylineLocalSearchName));
}

PackResult SkylineLocalSearchPack(const std::vector<PackItem>& items, Bytes alignment) {
  const SkylinePacker packer(items, alignment);
  std::vector<std::int32_t> best_priority;
  std::vector<Bytes> best_offsets;
  Bytes best_peak = std::numeric_limits<Bytes>::max();
  for (SkylineOrder order : {SkylineOrder::kLongestFirst, SkylineOrder::kLargestArea}) {
    std::vector<std::int32_t> priority = SortForSkyline(items, order);
    std::vector<Bytes> offsets = *packer.Run(priority, std::numeric_limits<Bytes>::max());
    const Bytes peak = PeakOf(items, offsets);
    if (peak < best_peak) {
      best_peak = peak;
      best_priority = std::move(priority);
      best_offsets = std::move(offsets);
    }
  }
  std::optional<PackResult> searched =
      SearchSkyline(packer, std::move(best_priority), best_peak, MaxLiveBytes(items));
  if (searched) return *std::move(searched);
  return MakePackResult(items, std::move(best_offsets), std::string(kSkylineLocalSearchName));
}

}  // namespace memplan
