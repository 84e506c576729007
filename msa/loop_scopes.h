// The while loops of a program on the flattened time line, as memory space
// assignment sees them (msa.md §3 "While loops / conditionals / calls").
//
// A loop's condition and body each run many times, so every piece of state
// that spans an iteration boundary must be the same at the start and at the
// end of an iteration. On the flattened time line a loop occupies
// [first, last] = its condition's span followed by its body's span, and the
// while op's own step `last + 1` follows; the two spans are the loop's
// *parts*. A residency segment [start, end] of a buffer is legal when, for
// every loop it touches, it either covers the whole loop from before it
// (start < first and end >= last) or stays inside one part. A copy is legal
// when its start and done lie in the same innermost part (or outside every
// loop), so no copy starts outside a loop and completes inside it, or the
// other way round. Calls are straight-line code and impose nothing;
// conditionals are not parts (buffers reaching into branches stay in default
// memory, msa/problem.h).
//
// One exception, an *exit segment*: a segment opened by a copy inside a
// loop's body (done inside it) may outlive the loop when its chunk is also
// reserved during the loop's condition. Every iteration refills the chunk,
// and after the last one only the condition runs before the loop exits, so
// the data survives (the reference's prefetch of a loop output inside the
// body, msa.md §6 scenario 7). The walker builds those itself.
//
// Example: entry steps 0, 3, 4 around `while` (cond = [1,1], body = [2,2],
// while at 3): SegmentEnd(0, 2) = 2 (the segment must cover the loop through
// its last step 2), SegmentEnd(0, 1) = 2 as well, SegmentEnd(2, 4) = nullopt
// (a segment opened inside the body cannot outlive it), SameScope(0, 3) =
// true, SameScope(0, 2) = false.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/schedule.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

class LoopScopes {
 public:
  LoopScopes() = default;
  // O(T + loops log loops).
  LoopScopes(const Program& program, const FlatSchedule& schedule);

  struct Loop {
    TimeStep first = 0;       // the condition's first step
    TimeStep body_first = 0;  // the body's first step (first + condition steps)
    TimeStep last = 0;        // the body's last step
  };

  // The smallest end >= `to` that makes [start, end] legal (covers every
  // loop it enters from outside through the loop's last step), or nullopt
  // when `start` lies in a part that `to` does not. `start` may be -1.
  std::optional<TimeStep> SegmentEnd(TimeStep start, TimeStep to) const;

  // True if steps a and b lie in the same innermost part (or both outside
  // every loop): a copy from a to b is legal.
  bool SameScope(TimeStep a, TimeStep b) const { return PartAt(a) == PartAt(b); }

  // The outermost loop that contains step t and starts after step `after`
  // (the loop a buffer live since `after` enters to reach t), if any.
  std::optional<Loop> OutermostEntered(TimeStep after, TimeStep t) const;

  // The loop whose last step is the latest one before step t (the loop a
  // buffer read at t left last), if any.
  std::optional<Loop> LastLoopBefore(TimeStep t) const;

  // True if step t lies in `loop`'s body and in no loop nested inside it.
  bool DirectlyInBody(const Loop& loop, TimeStep t) const;

  bool empty() const { return parts_.empty(); }

 private:
  struct Part {
    TimeStep first = 0;
    TimeStep last = 0;
    std::int32_t loop = 0;    // index into loops_
    std::int32_t parent = -1; // innermost enclosing part
  };
  std::int32_t PartAt(TimeStep t) const;
  bool Contains(std::int32_t part, TimeStep t) const {
    return parts_[part].first <= t && t <= parts_[part].last;
  }

  std::vector<Loop> loops_;
  std::vector<std::int32_t> by_last_;  // loop indices by increasing last step
  std::vector<Part> parts_;
  std::vector<std::int32_t> part_at_;  // per step: innermost part, -1 if none
};

}  // namespace memplan
