#include "analysis/live_profile.h"

#include <algorithm>
#include <cstddef>

namespace memplan {

LiveProfile ComputeLiveProfile(const BufferSet& buffers,
                               absl::FunctionRef<bool(const Buffer&)> include) {
  LiveProfile p;
  const TimeStep steps = std::max<TimeStep>(0, buffers.time_steps);
  // delta[t] = bytes becoming live at t minus bytes dead since t.
  std::vector<Bytes> delta(static_cast<std::size_t>(steps) + 1, 0);
  for (const Buffer& b : buffers.buffers) {
    const TimeStep start = std::max<TimeStep>(b.start, 0);
    const TimeStep end = std::min<TimeStep>(b.end, steps - 1);
    if (start > end || !include(b)) continue;
    delta[start] += b.size;
    delta[end + 1] -= b.size;
  }
  p.bytes.resize(static_cast<std::size_t>(steps));
  Bytes live = 0;
  for (TimeStep t = 0; t < steps; ++t) {
    live += delta[t];
    p.bytes[t] = live;
    if (p.peak_time == kNoId || live > p.peak) {
      p.peak = live;
      p.peak_time = t;
    }
  }
  return p;
}

}  // namespace memplan
