#include "packing/local_search.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "packing/live_profile.h"
#include "packing/member_cost.h"
#include "packing/pack_support.h"
#include "packing/parallel_tasks.h"

namespace memplan {
namespace {

constexpr std::uint64_t kSearchSeeds[] = {1, 2, 3};
// A search gives up (or, with restarts, kicks its best list) after
// max(kMinPatience, kPatiencePerItem x n) steps in a row that lowered
// neither the peak nor the overhang. A kick is kMinKick + (restarts mod
// kKickRange) random swaps.
constexpr std::int64_t kMinPatience = 500;
constexpr std::int64_t kPatiencePerItem = 8;
constexpr std::uint64_t kMinKick = 4;
constexpr std::uint64_t kKickRange = 8;
// A search with restarts ends after this many restarts in a row that found
// no lower peak, so that max effort does not always spend its whole budget.
constexpr std::uint64_t kMaxFruitlessRestarts = 4;

// The search's second measure (lower is better), which tells apart
// packings of the same peak: the bytes x steps of the packing above
// `target` (the max-live bound). A step that leaves the peak where it is but
// lowers what sticks out above the bound is progress towards a lower peak;
// with the peak alone, nearly every step lands on a plateau.
double Overhang(const std::vector<PackItem>& items, const std::vector<Bytes>& offsets,
                Bytes target) {
  double total = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Bytes top = offsets[i] + items[i].size;
    if (top <= target) continue;
    const Bytes above = std::min(items[i].size, top - target);
    total += static_cast<double>(above) * static_cast<double>(items[i].end - items[i].start + 1);
  }
  return total;
}

bool ShouldStop(const SearchStop& stop) {
  if (stop.flag && stop.flag->load(std::memory_order_relaxed)) return true;
  if (stop.deadline && std::chrono::steady_clock::now() >= *stop.deadline) {
    if (stop.hit_deadline) *stop.hit_deadline = true;
    return true;
  }
  return false;
}

}  // namespace

std::optional<LocalSearchResult> ImproveSkylinePriority(const SkylinePacker& packer,
                                                        std::vector<std::int32_t> priority,
                                                        Bytes peak, Bytes target,
                                                        std::int64_t steps, std::uint64_t seed,
                                                        bool restarts_on_plateau,
                                                        const SearchStop& stop) {
  const std::vector<PackItem>& items = packer.items();
  const std::uint64_t n = priority.size();
  if (n < 2) return std::nullopt;
  std::uint64_t state = seed;
  auto next = [&] { return Mix64(state++); };
  std::optional<LocalSearchResult> best;
  Bytes current_peak = peak;  // peak of `priority`; rises only at a restart
  // Offsets of `priority`'s packing.
  std::optional<std::vector<Bytes>> current;
  const std::int64_t patience = std::max<std::int64_t>(kMinPatience, kPatiencePerItem * n);
  std::int64_t since_better = 0;
  std::vector<std::int32_t> candidate;
  std::vector<std::uint64_t> above_target;
  double work = 0;  // counted by the re-packs, up to stop.work_limit
  auto repack = [&](const std::vector<std::int32_t>& list, Bytes cutoff) {
    return packer.RunWithin(list, cutoff, stop.work_limit, &work, stop.deadline);
  };
  auto out_of_work = [&] { return work > stop.work_limit; };
  struct ReportWork {  // hands the count to stop.work on every return
    const SearchStop& stop;
    const double& work;
    ~ReportWork() {
      if (stop.work) *stop.work = work;
    }
  } report_work{stop, work};
  current = repack(priority, std::numeric_limits<Bytes>::max());
  if (!current) return std::nullopt;  // the deadline passed, or no work left
  double current_overhang = Overhang(items, *current, target);
  std::vector<std::int32_t> best_priority = priority;  // the start's, or best's
  std::uint64_t restarts = 0;
  std::uint64_t fruitless_restarts = 0;  // in a row, since the best peak last fell
  for (std::int64_t step = 0; step < steps && current_peak > target; ++step) {
    if (ShouldStop(stop) || out_of_work()) break;
    if (since_better++ >= patience) {
      if (!restarts_on_plateau || fruitless_restarts++ >= kMaxFruitlessRestarts) break;
      // Stuck: kick the best list and go on from there, whatever its peak.
      priority = best_priority;
      const std::uint64_t kicks = kMinKick + restarts++ % kKickRange;
      for (std::uint64_t k = 0; k < kicks; ++k) {
        std::swap(priority[next() % n], priority[next() % n]);
      }
      current = repack(priority, std::numeric_limits<Bytes>::max());
      if (!current) break;  // the deadline passed, or no work left
      current_peak = PeakOf(items, *current);
      current_overhang = Overhang(items, *current, target);
      since_better = 0;
      continue;
    }
    candidate = priority;
    if (next() % 2 == 0) {
      // Guided: move an item that reaches above the target (one of those
      // that make the overhang) to a random earlier position, so that it is
      // placed lower. (Items at the peak only: 1.5 % higher peaks on A-K.)
      above_target.clear();
      for (std::uint64_t p = 0; p < n; ++p) {
        const std::int32_t i = candidate[p];
        if ((*current)[i] + items[i].size > target) above_target.push_back(p);
      }
      if (above_target.empty()) break;  // `peak` overstated the start: nothing to lower
      const std::uint64_t from = above_target[next() % above_target.size()];
      const std::uint64_t to = from == 0 ? 0 : next() % from;
      std::rotate(candidate.begin() + static_cast<std::ptrdiff_t>(to),
                  candidate.begin() + static_cast<std::ptrdiff_t>(from),
                  candidate.begin() + static_cast<std::ptrdiff_t>(from) + 1);
    } else {
      const std::uint64_t swaps = 1 + next() % 3;
      for (std::uint64_t k = 0; k < swaps; ++k) {
        std::swap(candidate[next() % n], candidate[next() % n]);
      }
    }
    std::optional<std::vector<Bytes>> offsets = repack(candidate, current_peak + 1);
    if (!offsets) continue;  // higher peak (rejected), the deadline passed or no work left
    const Bytes new_peak = PeakOf(items, *offsets);
    const double new_overhang = Overhang(items, *offsets, target);
    if (new_peak == current_peak && new_overhang > current_overhang) continue;  // rejected
    if (new_peak < current_peak || new_overhang < current_overhang) since_better = 0;
    priority.swap(candidate);
    current_peak = new_peak;
    current_overhang = new_overhang;
    if (current_peak < peak && (!best || current_peak < best->peak)) {
      best = LocalSearchResult{*offsets, current_peak};
      best_priority = priority;
      fruitless_restarts = 0;
    }
    current = std::move(offsets);
  }
  return best;
}

bool RestartsOnPlateau(PackEffort effort) { return effort == PackEffort::kMax; }

std::int64_t LocalSearchSteps(const std::vector<PackItem>& items, PackEffort effort) {
  const InputShape shape = ShapeOf(items);
  const double work = BudgetFor(effort, shape).search_work;
  const double per_search = work / kSearchesPerBudget / EstimatedSearchStepWork(shape);
  const std::int64_t steps = static_cast<std::int64_t>(std::min(per_search, 1e9));
  return steps < kMinSearchSteps ? 0 : steps;
}

double LocalSearchWorkLimit(const InputShape& shape, PackEffort effort) {
  return BudgetFor(effort, shape).search_work / kSearchesPerBudget +
         EstimatedWork(PackingAlgorithm::kSkylineLocalSearch, shape);
}

double LocalSearchWorkLimit(const std::vector<PackItem>& items, PackEffort effort) {
  const InputShape shape = ShapeOf(items);
  return LocalSearchWorkLimit(shape, effort);
}

SearchOutcome SearchSkyline(const SkylinePacker& packer, const SearchStarts& starts, Bytes target,
                            std::int64_t steps, double work_limit, bool restarts_on_plateau,
                            int threads,
                            std::optional<std::chrono::steady_clock::time_point> deadline) {
  static_assert(std::size(kSearchSeeds) == kMaxSearches);
  const std::size_t searches = SearchCount(starts);
  std::optional<LocalSearchResult> found[kMaxSearches];
  bool hit_deadline[kMaxSearches] = {false, false, false};
  double work[kMaxSearches] = {0, 0, 0};
  std::atomic<bool> first_reached_target{false};
  // The searches share the budget of two: with a third, each gets 2/3.
  if (searches > kSearchesPerBudget) {
    steps = steps * kSearchesPerBudget / static_cast<std::int64_t>(searches);
    work_limit = work_limit * kSearchesPerBudget / static_cast<double>(searches);
  }
  RunTasks(searches, threads, [&](std::size_t k) {
    // Only the first search stops the others: a search that reaches the
    // target wins every tie, so their results are then unused.
    SearchStop stop{k == 0 ? nullptr : &first_reached_target, deadline, &hit_deadline[k],
                    work_limit, &work[k]};
    const SkylineStart& start = k < 2 ? starts.first : *starts.crowded;
    found[k] = ImproveSkylinePriority(packer, start.priority, start.peak, target, steps,
                                      kSearchSeeds[k], restarts_on_plateau, stop);
    if (k == 0 && found[k] && found[k]->peak <= target) first_reached_target = true;
  });
  SearchOutcome outcome;
  outcome.time_limited = std::any_of(hit_deadline, hit_deadline + searches, [](bool hit) { return hit; });
  // The other searches' counts are left out when the first reached the
  // target: they were then stopped at a moment that depends on timing.
  outcome.work = work[0];
  if (!first_reached_target) outcome.work = std::accumulate(work, work + searches, 0.0);
  const std::optional<LocalSearchResult>* best = nullptr;
  for (std::size_t k = 0; k < searches; ++k) {
    if (found[k] && (!best || found[k]->peak < (*best)->peak)) best = &found[k];
  }
  // The first two searches may end below their start and above the
  // third's.
  if (best && (*best)->peak < LowestStartPeak(starts)) {
    outcome.improved = MakePackResult(packer.items(), (*best)->offsets,
                                      std::string(kSkylineLocalSearchName));
  }
  return outcome;
}

std::size_t SearchCount(const SearchStarts& starts) { return starts.crowded ? 3 : 2; }

Bytes LowestStartPeak(const SearchStarts& starts) {
  return starts.crowded ? starts.crowded->peak : starts.first.peak;
}

SkylineStart SkylineStartOf(const SkylinePacker& packer, SkylineOrder order) {
  std::vector<std::int32_t> priority = SortForSkyline(packer.items(), order);
  std::vector<Bytes> offsets = *packer.Run(priority, std::numeric_limits<Bytes>::max());
  const Bytes peak = PeakOf(packer.items(), offsets);
  return {std::move(priority), std::move(offsets), peak};
}

SearchStarts StartsFrom(SkylineStart longest, SkylineStart area, SkylineStart crowded) {
  SearchStarts starts{area.peak < longest.peak ? std::move(area) : std::move(longest),
                      std::nullopt};
  if (crowded.peak < starts.first.peak) starts.crowded = std::move(crowded);
  return starts;
}

SearchStarts BestSkylineStarts(const SkylinePacker& packer) {
  return StartsFrom(SkylineStartOf(packer, SkylineOrder::kLongestFirst),
                    SkylineStartOf(packer, SkylineOrder::kLargestArea),
                    SkylineStartOf(packer, SkylineOrder::kCrowdedFirst));
}

SkylineStart BestSkylineStart(const SkylinePacker& packer) {
  SearchStarts starts = BestSkylineStarts(packer);
  return starts.crowded ? *std::move(starts.crowded) : std::move(starts.first);
}

PackResult SkylineLocalSearchPack(const std::vector<PackItem>& items, const PackOptions& options) {
  const SkylinePacker packer(items, options.alignment);
  SearchStarts starts = BestSkylineStarts(packer);
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (options.time_limit_seconds > 0) {
    deadline = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(options.time_limit_seconds));
  }
  SearchOutcome searched =
      SearchSkyline(packer, starts, MaxLiveBytes(items), LocalSearchSteps(items, options.effort),
                    LocalSearchWorkLimit(items, options.effort), RestartsOnPlateau(options.effort),
                    PackingThreads(), deadline);
  if (searched.improved) return *std::move(searched.improved);
  SkylineStart& lower = starts.crowded ? *starts.crowded : starts.first;
  return MakePackResult(items, std::move(lower.offsets), std::string(kSkylineLocalSearchName));
}

}  // namespace memplan
