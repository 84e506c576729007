#include "msa/control_scopes.h"

#include <algorithm>
#include <tuple>

namespace memplan {

ControlScopes::ControlScopes(const Program& program, const FlatSchedule& schedule) {
  for (OpId op : schedule.order) {
    const Op& o = program.ops[op];
    const auto region = static_cast<std::int32_t>(regions_.size());
    if (o.kind == OpKind::kWhile && o.callees.size() == 2) {
      const ComputationSpan& cond = schedule.spans[o.callees[0]];
      const ComputationSpan& body = schedule.spans[o.callees[1]];
      if (cond.first == kNoId || body.first == kNoId) continue;
      const TimeStep first = cond.first;
      const TimeStep last = std::max(cond.last, body.last);
      if (last < first) continue;  // no ops inside: nothing repeats
      regions_.push_back(Region{true, first, std::max(body.first, cond.last + 1), last});
      if (cond.last >= cond.first) parts_.push_back(Part{cond.first, cond.last, region, -1});
      if (body.last >= body.first) parts_.push_back(Part{body.first, body.last, region, -1});
    } else if (o.kind == OpKind::kConditional) {
      Region branches{false, 0, 0, -1};
      for (ComputationId callee : o.callees) {
        const ComputationSpan& span = schedule.spans[callee];
        if (span.first == kNoId || span.last < span.first) continue;
        if (branches.last < branches.first) branches.first = span.first;
        branches.first = std::min(branches.first, span.first);
        branches.last = std::max(branches.last, span.last);
        parts_.push_back(Part{span.first, span.last, region, -1});
      }
      if (branches.last < branches.first) continue;  // no branch has ops
      branches.body_first = branches.first;
      regions_.push_back(branches);
    }
  }
  if (parts_.empty()) return;
  for (std::size_t r = 0; r < regions_.size(); ++r) {
    if (regions_[r].loop) loops_by_last_.push_back(static_cast<std::int32_t>(r));
  }
  std::sort(loops_by_last_.begin(), loops_by_last_.end(),
            [&](std::int32_t a, std::int32_t b) { return regions_[a].last < regions_[b].last; });
  // Parts are laminar (nested or disjoint): outer parts first, then a stack
  // sweep gives each its innermost enclosing part and each step its part.
  std::sort(parts_.begin(), parts_.end(), [](const Part& a, const Part& b) {
    return std::make_tuple(a.first, -a.last, a.region) < std::make_tuple(b.first, -b.last, b.region);
  });
  part_at_.assign(static_cast<std::size_t>(schedule.time_steps), -1);
  std::vector<std::int32_t> stack;
  for (std::int32_t p = 0; p < static_cast<std::int32_t>(parts_.size()); ++p) {
    while (!stack.empty() && parts_[stack.back()].last < parts_[p].first) stack.pop_back();
    parts_[p].parent = stack.empty() ? -1 : stack.back();
    stack.push_back(p);
  }
  // Inner parts come later in the order, so writing in order leaves each
  // step with its innermost part (O(T x nesting depth)).
  for (std::int32_t p = 0; p < static_cast<std::int32_t>(parts_.size()); ++p) {
    for (TimeStep t = parts_[p].first; t <= parts_[p].last; ++t) part_at_[t] = p;
  }
}

std::int32_t ControlScopes::PartAt(TimeStep t) const {
  if (t < 0 || t >= static_cast<TimeStep>(part_at_.size())) return -1;
  return part_at_[t];
}

std::optional<TimeStep> ControlScopes::SegmentEnd(TimeStep start, TimeStep to) const {
  if (parts_.empty()) return to;
  // Every part holding `start` must hold `to`: the innermost one suffices.
  const std::int32_t inner = PartAt(start);
  if (inner >= 0 && !Contains(inner, to)) return std::nullopt;
  // Parts holding `to` but not `start` belong to regions entered from outside.
  TimeStep end = to;
  for (std::int32_t p = PartAt(to); p >= 0 && p != inner; p = parts_[p].parent) {
    end = std::max(end, regions_[parts_[p].region].last);
  }
  return end;
}

std::optional<ControlScopes::Region> ControlScopes::LastLoopBefore(TimeStep t) const {
  auto it = std::lower_bound(loops_by_last_.begin(), loops_by_last_.end(), t,
                             [&](std::int32_t l, TimeStep time) { return regions_[l].last < time; });
  if (it == loops_by_last_.begin()) return std::nullopt;
  return regions_[*std::prev(it)];
}

bool ControlScopes::DirectlyInBody(const Region& loop, TimeStep t) const {
  const std::int32_t p = PartAt(t);
  return loop.loop && p >= 0 && parts_[p].first == loop.body_first && parts_[p].last == loop.last &&
         loop.body_first <= loop.last;
}

std::optional<ControlScopes::Region> ControlScopes::OutermostEntered(TimeStep after, TimeStep t) const {
  std::optional<Region> outer;
  for (std::int32_t p = PartAt(t); p >= 0; p = parts_[p].parent) {
    const Region& region = regions_[parts_[p].region];
    if (region.first > after) outer = region;
  }
  return outer;
}

std::optional<TimeStep> ControlScopes::BranchesLeft(TimeStep start, TimeStep end) const {
  std::optional<TimeStep> left;
  for (std::int32_t p = PartAt(start); p >= 0 && !Contains(p, end); p = parts_[p].parent) {
    const Region& region = regions_[parts_[p].region];
    if (region.loop) return std::nullopt;
    left = region.last;
  }
  return left;
}

}  // namespace memplan
