#include "report/map/live_series.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

namespace memplan::memmap {

bool IsActivationLifetime(Lifetime lifetime) {
  return lifetime == Lifetime::kTransient || lifetime == Lifetime::kStaging;
}

std::vector<Lifetime> PoolLifetimes(const BufferSet& buffers, const Plan& plan) {
  std::map<std::string, Lifetime, std::less<>> by_name;
  for (const PoolInfo& pool : plan.pools) by_name.emplace(pool.name, pool.lifetime);
  std::vector<Lifetime> lifetimes;
  lifetimes.reserve(buffers.buffers.size());
  for (std::size_t i = 0; i < buffers.buffers.size(); ++i) {
    const auto found = by_name.find(PoolOf(buffers, plan, static_cast<BufferId>(i)));
    lifetimes.push_back(found != by_name.end() ? found->second : buffers.buffers[i].lifetime);
  }
  return lifetimes;
}

std::vector<bool> ActivationBuffers(const BufferSet& buffers, const Plan& plan) {
  const std::vector<Lifetime> lifetimes = PoolLifetimes(buffers, plan);
  std::vector<bool> shown(buffers.buffers.size());
  for (std::size_t i = 0; i < shown.size(); ++i) {
    shown[i] = IsActivationLifetime(lifetimes[i]) &&
               IsActivationLifetime(buffers.buffers[i].lifetime);
  }
  return shown;
}

std::vector<LiveStep> SpaceLiveProfile(const BufferSet& buffers, const Plan& plan,
                                       MemorySpace space, bool activations_only) {
  const std::vector<bool> activations =
      activations_only ? ActivationBuffers(buffers, plan) : std::vector<bool>{};
  const std::size_t placed = std::min(buffers.buffers.size(), plan.placements.size());
  std::vector<std::pair<TimeStep, Bytes>> events;
  for (std::size_t i = 0; i < placed; ++i) {
    const Bytes size = buffers.buffers[i].size;
    if (size <= 0 || (activations_only && !activations[i])) continue;
    // Steps covered by the buffer's allocations in `space`, as merged ranges.
    std::vector<std::pair<TimeStep, TimeStep>> ranges;
    for (const Allocation& a : plan.placements[i].allocations) {
      if (a.space == space && a.end >= a.start) ranges.emplace_back(a.start, a.end);
    }
    std::sort(ranges.begin(), ranges.end());
    for (std::size_t r = 0; r < ranges.size();) {
      const TimeStep first = ranges[r].first;
      TimeStep last = ranges[r].second;
      for (++r; r < ranges.size() && ranges[r].first <= last + 1; ++r) {
        last = std::max(last, ranges[r].second);
      }
      events.emplace_back(first, size);
      if (last < std::numeric_limits<TimeStep>::max()) events.emplace_back(last + 1, -size);
    }
  }
  // A staged copy's chunk holds its bytes in the intermediate level.
  for (const AsyncCopy& c : plan.copies) {
    if (!c.via || c.via->space != space || c.bytes <= 0) continue;
    const auto b = static_cast<std::size_t>(c.buffer);
    if (activations_only && (c.buffer < 0 || b >= activations.size() || !activations[b])) continue;
    const auto [first, last] = StagingSteps(c);
    if (last < first) continue;
    events.emplace_back(first, c.bytes);
    if (last < std::numeric_limits<TimeStep>::max()) events.emplace_back(last + 1, -c.bytes);
  }
  // A region's copy of a captured value (no activation) holds its fast
  // slab's bytes over its steps, as the summary's max live counts it.
  if (plan.regions && !activations_only) {
    for (const RegionInfo& info : plan.regions->regions) {
      for (const RegionCopy& c : info.copies) {
        if (c.to_space != space || c.bytes <= 0 || c.end < c.start) continue;
        events.emplace_back(c.start, c.bytes);
        events.emplace_back(c.end + 1, -c.bytes);
      }
    }
  }
  return LiveStepsOf(std::move(events));
}

std::optional<ProfilePeak> PeakOf(const std::vector<LiveStep>& profile) {
  std::optional<ProfilePeak> peak;
  for (const LiveStep& step : profile) {
    if (step.bytes > 0 && (!peak || step.bytes > peak->bytes)) peak = {step.start, step.bytes};
  }
  return peak;
}

}  // namespace memplan::memmap
