#include "analysis/live_profile.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace memplan {

LiveProfile ComputeLiveProfile(const BufferSet& buffers,
                               absl::FunctionRef<bool(const Buffer&)> include) {
  LiveProfile p;
  p.time_steps = std::max<TimeStep>(0, buffers.time_steps);
  if (p.time_steps == 0) return p;
  // (time, delta): bytes becoming live at a buffer's start, dead one step
  // after its end. end <= time_steps - 1, so end + 1 cannot overflow.
  std::vector<std::pair<TimeStep, Bytes>> events;
  for (const Buffer& b : buffers.buffers) {
    const TimeStep start = std::max<TimeStep>(b.start, 0);
    const TimeStep end = std::min<TimeStep>(b.end, p.time_steps - 1);
    // A sub-allocation's bytes are its container's (Buffer::inside).
    if (start > end || b.size == 0 || b.inside || !include(b)) continue;
    events.emplace_back(start, b.size);
    if (end + 1 < p.time_steps) events.emplace_back(end + 1, -b.size);
    // A dead gap holds no data: the bytes leave at its first step and come
    // back after its last (gaps lie strictly inside [start, end]).
    for (const StepRange& gap : b.gaps) {
      if (gap.first <= start || gap.last >= end) continue;
      events.emplace_back(gap.first, -b.size);
      events.emplace_back(gap.last + 1, b.size);
    }
    // In an occupancy window it holds only hi - lo of its bytes.
    for (const OccupancyWindow& w : b.windows) {
      if (w.steps.first < start || w.steps.last > end) continue;
      const Bytes freed = b.size - (w.hi - w.lo);
      events.emplace_back(w.steps.first, -freed);
      if (w.steps.last + 1 < p.time_steps) events.emplace_back(w.steps.last + 1, freed);
    }
  }
  std::sort(events.begin(), events.end());
  p.changes.push_back({0, 0});
  p.peak_time = 0;
  Bytes live = 0;
  for (std::size_t i = 0; i < events.size();) {
    const TimeStep t = events[i].first;
    for (; i < events.size() && events[i].first == t; ++i) live += events[i].second;
    if (p.changes.back().start == t) {  // only at time 0
      p.changes.back().bytes = live;
    } else if (p.changes.back().bytes != live) {
      p.changes.push_back({t, live});
    }
    if (live > p.peak) {
      p.peak = live;
      p.peak_time = t;
    }
  }
  return p;
}

Bytes MaxLiveIn(const LiveProfile& profile, TimeStep first, TimeStep last) {
  first = std::max<TimeStep>(first, 0);
  last = std::min<TimeStep>(last, profile.time_steps - 1);
  if (first > last || profile.changes.empty()) return 0;
  // The change in force at `first`: the last one starting at or before it.
  auto it = std::upper_bound(profile.changes.begin(), profile.changes.end(), first,
                             [](TimeStep t, const LiveChange& c) { return t < c.start; });
  --it;
  Bytes most = it->bytes;
  for (++it; it != profile.changes.end() && it->start <= last; ++it) most = std::max(most, it->bytes);
  return most;
}

}  // namespace memplan
