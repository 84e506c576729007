#include "report/space_view.h"

#include <algorithm>
#include <utility>

namespace memplan {
namespace {

// Whether the segments of `plan` in `space` are the buffers themselves:
// each buffer that takes bytes (size > 0, not a sub-allocation) has exactly
// one segment there, over its whole live range (so its gaps and windows
// stay as they are).
bool SegmentsAreTheBuffers(const BufferSet& buffers, const Plan& plan, MemorySpace space) {
  if (plan.placements.size() != buffers.buffers.size()) return false;
  for (const AsyncCopy& c : plan.copies) {
    if (c.via && c.via->space == space) return false;
  }
  for (std::size_t id = 0; id < buffers.buffers.size(); ++id) {
    const Buffer& b = buffers.buffers[id];
    if (b.size <= 0 || b.inside()) continue;
    int in_space = 0;
    for (const Allocation& a : plan.placements[id].allocations) {
      if (a.space != space) continue;
      if (++in_space > 1 || a.start != b.start || a.end != b.end) return false;
    }
    if (in_space != 1) return false;
  }
  return true;
}

}  // namespace

Bytes SpaceView::offset(std::size_t i) const {
  if (same_ == nullptr) return offset_[i];
  for (const Allocation& a : plan_->placements[i].allocations) {
    if (a.space == space_) return a.offset;
  }
  return 0;  // a buffer without bytes in the space
}

SpaceView ViewSpace(const BufferSet& buffers, const Plan& plan, MemorySpace space) {
  SpaceView view;
  if (SegmentsAreTheBuffers(buffers, plan, space)) {
    view.same_ = &buffers;
    view.plan_ = &plan;
    view.space_ = space;
    return view;
  }
  view.copy_.input = buffers.input;
  view.copy_.time_steps = buffers.time_steps;
  const std::size_t n = std::min(buffers.buffers.size(), plan.placements.size());
  // Staged copies through `space`, by buffer, so that a buffer's entries
  // stay adjacent.
  std::vector<const AsyncCopy*> staged;
  for (const AsyncCopy& c : plan.copies) {
    if (c.via && c.via->space == space && c.buffer >= 0 && static_cast<std::size_t>(c.buffer) < n &&
        c.bytes > 0 && c.done >= std::max<TimeStep>(c.start, 0)) {
      staged.push_back(&c);
    }
  }
  std::stable_sort(staged.begin(), staged.end(),
                   [](const AsyncCopy* x, const AsyncCopy* y) { return x->buffer < y->buffer; });
  auto next_staged = staged.begin();
  for (std::size_t id = 0; id < n; ++id) {
    const Buffer& b = buffers.buffers[id];
    // An entry of `b`'s in this space: `size` bytes over [start, end].
    const auto entry = [&](Bytes size, TimeStep start, TimeStep end) {
      Buffer s;
      s.name = b.name;
      s.size = size;
      s.alignment = b.alignment;
      s.lifetime = b.lifetime;
      s.space = b.space;
      s.start = start;
      s.end = end;
      return s;
    };
    const auto add = [&](Buffer s, Bytes offset, bool staged_chunk) {
      view.copy_.buffers.push_back(std::move(s));
      view.origin_.push_back(static_cast<BufferId>(id));
      view.offset_.push_back(offset);
      view.staged_.push_back(staged_chunk);
    };
    // A staged chunk holds the copy's bytes throughout, without gaps or windows.
    for (; next_staged != staged.end() && static_cast<std::size_t>((*next_staged)->buffer) == id;
         ++next_staged) {
      const AsyncCopy& c = **next_staged;
      const auto [start, end] = StagingSteps(c);
      add(entry(c.bytes, start, end), c.via->offset, true);
    }
    if (b.size <= 0 || b.inside()) continue;  // a sub-allocation: its container's bytes
    for (const Allocation& a : plan.placements[id].allocations) {
      if (a.space != space || a.start > a.end) continue;
      Buffer s = entry(b.size, a.start, a.end);
      for (const StepRange& g : b.gaps()) {
        if (g.first > a.start && g.last < a.end) s.mutable_gaps().push_back(g);
      }
      for (const OccupancyWindow& w : b.windows()) {
        if (w.steps.last < a.start || w.steps.first > a.end) continue;
        s.mutable_windows().push_back(
            {{std::max(w.steps.first, a.start), std::min(w.steps.last, a.end)}, w.lo, w.hi});
      }
      add(std::move(s), a.offset, false);
    }
  }
  return view;
}

}  // namespace memplan
