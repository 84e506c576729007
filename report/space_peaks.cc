#include "report/space_peaks.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "analysis/live_profile.h"
#include "report/space_view.h"

namespace memplan {
namespace {

// The segments plus the window chunks of `space` (Plan::window_prefetches:
// reserved from the copy's start through the reading op, holding no
// segment) and the regions' captured copies into it (RegionCopy: from the
// copy's step through its last reader's), so that the space's max live
// counts every byte the plan holds there. `storage` keeps the copy; without
// windows or copies there the segments themselves are returned (no copy).
const BufferSet& WithWindows(const BufferSet& segments, const Plan& plan, MemorySpace space,
                             std::optional<BufferSet>& storage) {
  for (const WindowPrefetch& w : plan.window_prefetches) {
    if (w.space != space) continue;
    if (!storage) storage = segments;
    Buffer chunk;
    chunk.size = w.bytes;
    chunk.start = std::max<TimeStep>(w.start, 0);
    chunk.end = w.done;
    chunk.lifetime = Lifetime::kTransient;
    storage->buffers.push_back(std::move(chunk));
  }
  if (plan.regions) {
    for (const RegionInfo& info : plan.regions->regions) {
      for (const RegionCopy& c : info.copies) {
        if (c.to_space != space) continue;
        if (!storage) storage = segments;
        Buffer chunk;
        chunk.size = c.bytes;
        chunk.start = c.start;
        chunk.end = c.end;
        chunk.lifetime = Lifetime::kTransient;
        storage->buffers.push_back(std::move(chunk));
      }
    }
  }
  return storage ? *storage : segments;
}

}  // namespace

std::vector<SpacePeak> ComputeSpacePeaks(const BufferSet& buffers, const Plan& plan) {
  std::vector<SpacePeak> peaks;
  for (const SpaceInfo& info : plan.spaces) {
    SpacePeak peak;
    peak.space = info.id;
    const SpaceView view = ViewSpace(buffers, plan, info.id);
    const BufferSet& segments = view.segments();
    std::optional<BufferSet> with_windows;
    const LivePeak all = ComputeLivePeak(WithWindows(segments, plan, info.id, with_windows),
                                         [](const Buffer&) { return true; });
    if (all.peak > 0) {
      peak.max_live_bytes = all.peak;
      peak.peak_step = all.peak_time;
    }
    // The pools laid out once for the whole run hold their bytes at every
    // step; the other segments count when live.
    std::set<std::string, std::less<>> resident_pools;
    for (const PoolInfo& pool : plan.pools) {
      if (pool.space != info.id || pool.start || IsReusable(pool.lifetime)) continue;
      resident_pools.insert(pool.name);
      peak.resident_pools.push_back(pool.name);
      peak.resident_bytes += pool.lower_bound;
    }
    peak.resident_max_live_bytes = peak.max_live_bytes;
    peak.resident_peak_step = peak.peak_step;
    if (peak.resident_bytes > 0) {
      std::vector<bool> resident(view.size(), false);
      for (std::size_t i = 0; i < view.size(); ++i) {
        const auto origin = static_cast<std::size_t>(view.origin(i));
        // A staged chunk is held over its copy's steps only.
        resident[i] = !view.staged(i) && origin < plan.placements.size() &&
                      resident_pools.contains(static_cast<const std::string&>(plan.placements[origin].pool));
      }
      const LivePeak rest = ComputeLivePeak(segments, [&](const Buffer& b) {
        return !resident[static_cast<std::size_t>(&b - segments.buffers.data())];
      });
      peak.resident_max_live_bytes = peak.resident_bytes + rest.peak;
      peak.resident_peak_step = rest.peak > 0 ? rest.peak_time : peak.peak_step;
    }
    const auto transient = [](const Buffer& b) { return b.lifetime == Lifetime::kTransient; };
    // With only activations holding bytes here (a lifetime CSV) their peak
    // is the one above: not swept again.
    const bool only_transient =
        std::none_of(segments.buffers.begin(), segments.buffers.end(),
                     [&](const Buffer& b) { return !transient(b) && b.size > 0 && !b.inside(); });
    const LivePeak activations = only_transient ? all : ComputeLivePeak(segments, transient);
    // Segments come in buffer order: a buffer's are adjacent.
    std::int64_t distinct = 0;
    BufferId last = kNoId;
    Bytes highest_end = 0;
    for (std::size_t i = 0; i < view.size(); ++i) {
      const Buffer& s = segments.buffers[i];
      // A view that is the input holds buffers without bytes here too.
      if (!transient(s) || s.size <= 0 || s.inside()) continue;
      if (view.origin(i) != last) ++distinct;
      last = view.origin(i);
      highest_end = std::max(highest_end, view.offset(i) + s.size);
    }
    peak.transient_buffers = distinct;
    if (activations.peak > 0) peak.transient_step = activations.peak_time;
    if (info.id == kDefaultSpace) {
      peak.transient_peak = plan.peak;
      peak.transient_lower_bound = plan.lower_bound;
    } else {
      peak.transient_peak = highest_end;
      peak.transient_lower_bound = activations.peak;
    }
    peaks.push_back(peak);
  }
  return peaks;
}

}  // namespace memplan
