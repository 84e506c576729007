#include "analysis/live_profile.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

namespace memplan {

namespace {

// The (time, delta) events of the live bytes of the included buffers
// (ComputeLiveProfile), sorted by time: bytes become live at a buffer's
// start and dead one step after its end. Reserved to their exact number, so
// no growth doubles them at 10^7 buffers.
std::vector<LiveChange> SortedEvents(const BufferSet& buffers, TimeStep time_steps,
                                     absl::FunctionRef<bool(const Buffer&)> include) {
  // A buffer's clamped range, or nullopt when it adds no events.
  const auto range = [&](const Buffer& b) -> std::optional<StepRange> {
    const TimeStep start = std::max<TimeStep>(b.start, 0);
    const TimeStep end = std::min<TimeStep>(b.end, time_steps - 1);
    // A sub-allocation's bytes are its container's (Buffer::inside).
    if (start > end || b.size == 0 || b.inside || !include(b)) return std::nullopt;
    return StepRange{start, end};
  };
  std::size_t count = 0;
  for (const Buffer& b : buffers.buffers) {
    if (range(b)) count += 2 * (1 + b.gaps.size() + b.windows.size());
  }
  std::vector<LiveChange> events;
  events.reserve(count);
  for (const Buffer& b : buffers.buffers) {
    const std::optional<StepRange> live = range(b);
    if (!live) continue;
    const auto [start, end] = *live;
    // end <= time_steps - 1, so end + 1 cannot overflow.
    events.push_back({start, b.size});
    if (end + 1 < time_steps) events.push_back({end + 1, -b.size});
    // A dead gap holds no data: the bytes leave at its first step and come
    // back after its last (gaps lie strictly inside [start, end]).
    for (const StepRange& gap : b.gaps) {
      if (gap.first <= start || gap.last >= end) continue;
      events.push_back({gap.first, -b.size});
      events.push_back({gap.last + 1, b.size});
    }
    // In an occupancy window it holds only hi - lo of its bytes.
    for (const OccupancyWindow& w : b.windows) {
      if (w.steps.first < start || w.steps.last > end) continue;
      const Bytes freed = b.size - (w.hi - w.lo);
      events.push_back({w.steps.first, -freed});
      if (w.steps.last + 1 < time_steps) events.push_back({w.steps.last + 1, freed});
    }
  }
  std::sort(events.begin(), events.end(), [](const LiveChange& x, const LiveChange& y) {
    return x.start < y.start;
  });
  return events;
}

// Calls change(t, live) for each time t of `events` (sorted), with the
// bytes live from t on.
template <typename Fn>
void SweepEvents(const std::vector<LiveChange>& events, Fn change) {
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
  // The changes are written over the events they sum: one vector for both.
  // A change is written when the next one begins, so after k distinct times
  // at most k - 1 are written while at least k events are read.
  std::vector<LiveChange> events = SortedEvents(buffers, p.time_steps, include);
  std::size_t written = 0;
  LiveChange pending{0, 0};
  p.peak_time = 0;
  SweepEvents(events, [&](TimeStep t, Bytes live) {
    if (pending.start == t) {  // only at time 0
      pending.bytes = live;
    } else if (pending.bytes != live) {
      events[written++] = pending;
      pending = {t, live};
    }
    if (live > p.peak) {
      p.peak = live;
      p.peak_time = t;
    }
  });
  events.resize(written);
  events.push_back(pending);
  p.changes = std::move(events);
  return p;
}

LivePeak ComputeLivePeak(const BufferSet& buffers, absl::FunctionRef<bool(const Buffer&)> include) {
  LivePeak p;
  const TimeStep time_steps = std::max<TimeStep>(0, buffers.time_steps);
  if (time_steps == 0) return p;
  p.peak_time = 0;
  SweepEvents(SortedEvents(buffers, time_steps, include), [&](TimeStep t, Bytes live) {
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
