#include "analysis/live_profile.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace memplan {

namespace {

// Calls event(t, delta) for the changes of the live bytes of the included
// buffers (ComputeLiveProfile), buffer by buffer: bytes become live at a
// buffer's start and dead one step after its end. Returns the number of
// calls made.
template <typename Fn>
std::size_t ForEachEvent(const BufferSet& buffers, TimeStep time_steps,
                         absl::FunctionRef<bool(const Buffer&)> include, Fn event) {
  std::size_t count = 0;
  const auto add = [&](TimeStep t, Bytes delta) {
    event(t, delta);
    ++count;
  };
  for (const Buffer& b : buffers.buffers) {
    const TimeStep start = std::max<TimeStep>(b.start, 0);
    const TimeStep end = std::min<TimeStep>(b.end, time_steps - 1);
    // A sub-allocation's bytes are its container's (Buffer::inside).
    if (start > end || b.size == 0 || b.inside() || !include(b)) continue;
    // end <= time_steps - 1, so end + 1 cannot overflow.
    add(start, b.size);
    if (end + 1 < time_steps) add(end + 1, -b.size);
    // A dead gap holds no data: the bytes leave at its first step and come
    // back after its last (gaps lie strictly inside [start, end]).
    for (const StepRange& gap : b.gaps()) {
      if (gap.first <= start || gap.last >= end) continue;
      add(gap.first, -b.size);
      add(gap.last + 1, b.size);
    }
    // In an occupancy window it holds only hi - lo of its bytes.
    for (const OccupancyWindow& w : b.windows()) {
      if (w.steps.first < start || w.steps.last > end) continue;
      const Bytes freed = b.size - (w.hi - w.lo);
      add(w.steps.first, -freed);
      if (w.steps.last + 1 < time_steps) add(w.steps.last + 1, freed);
    }
  }
  return count;
}

// Calls change(t, live) in increasing t with the bytes live from t on, at
// least at every t where an event falls (and perhaps at others, where live
// is unchanged). Where time_steps is at most about twice the events (every
// compiler trace: a buffer or more per op), the events' deltas are summed
// in a table over the steps, O(n + time_steps) and 8 bytes a step; above,
// the events are sorted, O(n log n) and 16 bytes an event.
template <typename Fn>
void SweepLiveBytes(const BufferSet& buffers, TimeStep time_steps,
                    absl::FunctionRef<bool(const Buffer&)> include, Fn change) {
  const std::size_t count = ForEachEvent(buffers, time_steps, include, [](TimeStep, Bytes) {});
  if (static_cast<std::uint64_t>(time_steps) <= 2 * static_cast<std::uint64_t>(count) + 4096) {
    std::vector<Bytes> delta(static_cast<std::size_t>(time_steps), 0);
    ForEachEvent(buffers, time_steps, include,
                 [&](TimeStep t, Bytes d) { delta[static_cast<std::size_t>(t)] += d; });
    Bytes live = 0;
    for (TimeStep t = 0; t < time_steps; ++t) {
      live += delta[static_cast<std::size_t>(t)];
      change(t, live);
    }
    return;
  }
  std::vector<LiveChange> events;
  events.reserve(count);
  ForEachEvent(buffers, time_steps, include,
               [&](TimeStep t, Bytes d) { events.push_back({t, d}); });
  std::sort(events.begin(), events.end(),
            [](const LiveChange& x, const LiveChange& y) { return x.start < y.start; });
  Bytes live = 0;
  for (std::size_t i = 0; i < events.size();) {
    const TimeStep t = events[i].start;
    for (; i < events.size() && events[i].start == t; ++i) live += events[i].bytes;
    change(t, live);
  }
}

}  // namespace

LiveProfile ComputeLiveProfile(const BufferSet& buffers,
                               absl::FunctionRef<bool(const Buffer&)> include) {
  LiveProfile p;
  p.time_steps = std::max<TimeStep>(0, buffers.time_steps);
  if (p.time_steps == 0) return p;
  // A change is kept when the live bytes differ from the last one kept.
  LiveChange pending{0, 0};
  p.peak_time = 0;
  SweepLiveBytes(buffers, p.time_steps, include, [&](TimeStep t, Bytes live) {
    if (pending.start == t) {  // only at time 0
      pending.bytes = live;
    } else if (pending.bytes != live) {
      p.changes.push_back(pending);
      pending = {t, live};
    }
    if (live > p.peak) {
      p.peak = live;
      p.peak_time = t;
    }
  });
  p.changes.push_back(pending);
  return p;
}

LivePeak ComputeLivePeak(const BufferSet& buffers, absl::FunctionRef<bool(const Buffer&)> include) {
  LivePeak p;
  const TimeStep time_steps = std::max<TimeStep>(0, buffers.time_steps);
  if (time_steps == 0) return p;
  p.peak_time = 0;
  SweepLiveBytes(buffers, time_steps, include, [&](TimeStep t, Bytes live) {
    if (live > p.peak) {
      p.peak = live;
      p.peak_time = t;
    }
  });
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
