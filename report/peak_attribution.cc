#include "report/peak_attribution.h"

#include <algorithm>

#include "analysis/live_profile.h"

namespace memplan {

PeakAttribution AttributePeak(const BufferSet& buffers,
                              absl::FunctionRef<bool(const Buffer&)> include, std::size_t top) {
  PeakAttribution peak;
  const LivePeak profile = ComputeLivePeak(buffers, include);
  if (profile.peak <= 0) return peak;
  peak.step = profile.peak_time;
  peak.live_bytes = profile.peak;
  std::vector<BufferId> live;
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    const Buffer& b = buffers.buffers[id];
    // As the profile: a sub-allocation's bytes are its container's.
    if (!b.inside() && include(b) && HeldBytesAt(b, peak.step) > 0) live.push_back(id);
  }
  peak.live_buffers = static_cast<std::int64_t>(live.size());
  const auto larger = [&](BufferId a, BufferId b) {
    const Bytes sa = HeldBytesAt(buffers.buffers[a], peak.step);
    const Bytes sb = HeldBytesAt(buffers.buffers[b], peak.step);
    return sa != sb ? sa > sb : a < b;
  };
  const std::size_t keep = std::min(top, live.size());
  std::partial_sort(live.begin(), live.begin() + static_cast<std::ptrdiff_t>(keep), live.end(), larger);
  live.resize(keep);
  peak.largest = std::move(live);
  return peak;
}

Bytes HeldBytesAt(const Buffer& b, TimeStep t) {
  if (t < b.start || t > b.end) return 0;
  for (const StepRange& g : b.gaps()) {
    if (g.first <= t && t <= g.last) return 0;
  }
  for (const OccupancyWindow& w : b.windows()) {
    if (w.steps.first <= t && t <= w.steps.last) return w.hi - w.lo;
  }
  return b.size;
}

namespace {

// The closed hull of buffer id's default-space allocations; nullopt without any.
std::optional<StepRange> DefaultHull(const Plan& plan, BufferId id) {
  std::optional<StepRange> hull;
  if (id < static_cast<BufferId>(plan.placements.size())) {
    for (const Allocation& a : plan.placements[id].allocations) {
      if (a.space != kDefaultSpace) continue;
      hull = hull ? StepRange{std::min(hull->first, a.start), std::max(hull->last, a.end)}
                  : StepRange{a.start, a.end};
    }
  }
  return hull;
}

}  // namespace

DerivedBufferSet DefaultMemoryView(const BufferSet& buffers, const Plan& plan) {
  // Each buffer as the view holds it: unchanged when its default hull covers
  // its range (or it has no bytes to lose).
  const auto unchanged = [&](BufferId id) {
    const Buffer& b = buffers.buffers[id];
    const std::optional<StepRange> hull = DefaultHull(plan, id);
    return hull ? hull->first <= b.start && hull->last >= b.end : b.size == 0;
  };
  bool same = true;
  for (BufferId id = 0; same && id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    same = unchanged(id);
  }
  if (same) return DerivedBufferSet::Same(buffers);
  BufferSet view;
  view.input = buffers.input;
  view.time_steps = buffers.time_steps;
  view.buffers.reserve(buffers.buffers.size());
  for (BufferId id = 0; id < static_cast<BufferId>(buffers.buffers.size()); ++id) {
    Buffer b = buffers.buffers[id];
    const std::optional<StepRange> hull = DefaultHull(plan, id);
    // Keep ids aligned with `buffers`: a buffer not in default memory stays,
    // with size 0, so it counts nowhere.
    if (!hull) {
      b.size = 0;
    } else {
      b.start = std::max(b.start, hull->first);
      b.end = std::min(b.end, hull->last);
      if (b.start > b.end) b.size = 0;
    }
    view.buffers.push_back(std::move(b));
  }
  return DerivedBufferSet::Copy(std::move(view));
}

std::optional<std::string> DescribeOpAt(const Program& program, const FlatSchedule& schedule,
                                        TimeStep step) {
  for (OpId op : schedule.order) {
    if (schedule.op_time[op] != step) continue;
    return DescribeOp(program, op);
  }
  return std::nullopt;
}

std::string DescribeOp(const Program& program, OpId op) {
  const Op& o = program.ops[op];
  if (o.results.empty()) return o.opcode + "#" + std::to_string(op);
  return "%" + program.values[o.results.front()].name + " = " + o.opcode;
}

}  // namespace memplan
