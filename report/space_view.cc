#include "report/space_view.h"

#include <algorithm>
#include <utility>

namespace memplan {

SpaceView ViewSpace(const BufferSet& buffers, const Plan& plan, MemorySpace space) {
  SpaceView view;
  view.segments.input = buffers.input;
  view.segments.time_steps = buffers.time_steps;
  const std::size_t n = std::min(buffers.buffers.size(), plan.placements.size());
  for (std::size_t id = 0; id < n; ++id) {
    const Buffer& b = buffers.buffers[id];
    if (b.size <= 0 || b.inside) continue;  // a sub-allocation: its container's bytes
    for (const Allocation& a : plan.placements[id].allocations) {
      if (a.space != space || a.start > a.end) continue;
      Buffer s;
      s.name = b.name;
      s.size = b.size;
      s.alignment = b.alignment;
      s.lifetime = b.lifetime;
      s.space = b.space;
      s.start = a.start;
      s.end = a.end;
      for (const StepRange& g : b.gaps) {
        if (g.first > a.start && g.last < a.end) s.gaps.push_back(g);
      }
      for (const OccupancyWindow& w : b.windows) {
        if (w.steps.last < a.start || w.steps.first > a.end) continue;
        s.windows.push_back({{std::max(w.steps.first, a.start), std::min(w.steps.last, a.end)},
                             w.lo, w.hi});
      }
      view.segments.buffers.push_back(std::move(s));
      view.origin.push_back(static_cast<BufferId>(id));
      view.offset.push_back(a.offset);
    }
  }
  return view;
}

}  // namespace memplan
