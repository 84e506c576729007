#include "msa/loop_scopes.h"

#include <algorithm>
#include <tuple>

namespace memplan {

LoopScopes::LoopScopes(const Program& program, const FlatSchedule& schedule) {
  for (OpId op : schedule.order) {
    const Op& o = program.ops[op];
    if (o.kind != OpKind::kWhile || o.callees.size() != 2) continue;
    const ComputationSpan& cond = schedule.spans[o.callees[0]];
    const ComputationSpan& body = schedule.spans[o.callees[1]];
    if (cond.first == kNoId || body.first == kNoId) continue;
    const TimeStep first = cond.first;
    const TimeStep last = std::max(cond.last, body.last);
    if (last < first) continue;  // no ops inside: nothing repeats
    const auto loop = static_cast<std::int32_t>(loops_.size());
    loops_.push_back(Loop{first, std::max(body.first, cond.last + 1), last});
    if (cond.last >= cond.first) parts_.push_back(Part{cond.first, cond.last, loop, -1});
    if (body.last >= body.first) parts_.push_back(Part{body.first, body.last, loop, -1});
  }
  if (parts_.empty()) return;
  by_last_.resize(loops_.size());
  for (std::size_t l = 0; l < loops_.size(); ++l) by_last_[l] = static_cast<std::int32_t>(l);
  std::sort(by_last_.begin(), by_last_.end(),
            [&](std::int32_t a, std::int32_t b) { return loops_[a].last < loops_[b].last; });
  // Parts are laminar (nested or disjoint): outer parts first, then a stack
  // sweep gives each its innermost enclosing part and each step its part.
  std::sort(parts_.begin(), parts_.end(), [](const Part& a, const Part& b) {
    return std::make_tuple(a.first, -a.last, a.loop) < std::make_tuple(b.first, -b.last, b.loop);
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

std::int32_t LoopScopes::PartAt(TimeStep t) const {
  if (t < 0 || t >= static_cast<TimeStep>(part_at_.size())) return -1;
  return part_at_[t];
}

std::optional<TimeStep> LoopScopes::SegmentEnd(TimeStep start, TimeStep to) const {
  if (parts_.empty()) return to;
  // Every part holding `start` must hold `to`: the innermost one suffices.
  const std::int32_t inner = PartAt(start);
  if (inner >= 0 && !Contains(inner, to)) return std::nullopt;
  // Parts holding `to` but not `start` belong to loops entered from outside.
  TimeStep end = to;
  for (std::int32_t p = PartAt(to); p >= 0 && p != inner; p = parts_[p].parent) {
    end = std::max(end, loops_[parts_[p].loop].last);
  }
  return end;
}

std::optional<LoopScopes::Loop> LoopScopes::LastLoopBefore(TimeStep t) const {
  auto it = std::lower_bound(by_last_.begin(), by_last_.end(), t,
                             [&](std::int32_t l, TimeStep time) { return loops_[l].last < time; });
  if (it == by_last_.begin()) return std::nullopt;
  return loops_[*std::prev(it)];
}

bool LoopScopes::DirectlyInBody(const Loop& loop, TimeStep t) const {
  const std::int32_t p = PartAt(t);
  return p >= 0 && parts_[p].first == loop.body_first && parts_[p].last == loop.last &&
         loop.body_first <= loop.last;
}

std::optional<LoopScopes::Loop> LoopScopes::OutermostEntered(TimeStep after, TimeStep t) const {
  std::optional<Loop> outer;
  for (std::int32_t p = PartAt(t); p >= 0; p = parts_[p].parent) {
    const Loop& loop = loops_[parts_[p].loop];
    if (loop.first > after) outer = loop;
  }
  return outer;
}

}  // namespace memplan
