// The while loops and conditionals of a program on the flattened time line,
// as memory space assignment sees them (msa.md §3 "While loops /
// conditionals / calls"); verify/verifier.h rule 9 checks the same rules
// independently.
//
// A loop's condition and body each run many times; a conditional runs one
// of its branches. The flattened time line lays every one of them out once:
// a loop occupies [first, last] = its condition's span followed by its
// body's span, a conditional [first, last] = its branches' spans in order,
// and the while or conditional op's own step `last + 1` follows. These spans
// are the region's *parts*. Every piece of state that spans a part's
// boundary must be the same whichever way control reaches it (the next
// iteration, the other branch, the code after the region). So a residency
// segment [start, end] of a buffer is legal when, for every region it
// touches, it either covers the whole region from before it (start < first
// and end >= last) or stays inside one part; and a copy is legal when its
// start and done lie in the same innermost part (or outside every part), so
// no copy starts outside a loop or branch and completes inside it, or the
// other way round. Calls are straight-line code and impose nothing (the
// pickers keep a copy on the own steps of one computation; the rewrite
// writes a copy done at a callee's first step, or started after its last,
// around the call: msa/rewrite.h).
//
// Two exceptions:
//  * an *origin segment* of a buffer produced inside branches (a
//    conditional's result, which every branch writes into the buffer's one
//    chunk) may begin inside a branch and continue after the conditional:
//    the walker opens it from the first write through the first access
//    after the conditional (BranchesLeft);
//  * an *exit segment*: a segment opened by a copy inside a loop's body
//    (done inside it) may outlive the loop when its chunk is also reserved
//    during the loop's condition. Every iteration refills the chunk, and
//    after the last one only the condition runs before the loop exits, so
//    the data survives (the reference's prefetch of a loop output inside the
//    body, msa.md §6 scenario 7). The walker builds those itself. Branches
//    run once, so they have no such case.
//
// Example: entry steps 0, 3, 4 around `while` (cond = [1,1], body = [2,2],
// while at 3): SegmentEnd(0, 2) = 2 (the segment must cover the loop through
// its last step 2), SegmentEnd(0, 1) = 2 as well, SegmentEnd(2, 4) = nullopt
// (a segment opened inside the body cannot outlive it), SameScope(0, 3) =
// true, SameScope(0, 2) = false. The same steps around `conditional` with
// branches [1,1] and [2,2] give the same answers, and BranchesLeft(1, 4) =
// 2 (a result first written at step 1 and read at 4 leaves the conditional
// whose last step is 2).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/schedule.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

class ControlScopes {
 public:
  ControlScopes() = default;
  // O(T x nesting depth + regions log regions).
  ControlScopes(const Program& program, const FlatSchedule& schedule);

  struct Region {
    bool loop = true;         // a while loop, else a conditional
    TimeStep first = 0;       // the first part's first step
    TimeStep body_first = 0;  // a loop's body's first step (first + condition steps)
    TimeStep last = 0;        // the last part's last step
  };

  // The smallest end >= `to` that makes [start, end] legal (covers every
  // region it enters from outside through the region's last step), or
  // nullopt when `start` lies in a part that `to` does not. `start` may be -1.
  std::optional<TimeStep> SegmentEnd(TimeStep start, TimeStep to) const;

  // True if steps a and b lie in the same innermost part (or both outside
  // every part): a copy from a to b is legal.
  bool SameScope(TimeStep a, TimeStep b) const { return PartAt(a) == PartAt(b); }

  // The outermost loop or conditional that contains step t and starts after
  // step `after` (the region a buffer live since `after` enters to reach t),
  // if any.
  std::optional<Region> OutermostEntered(TimeStep after, TimeStep t) const;

  // The loop whose last step is the latest one before step t (the loop a
  // buffer read at t left last), if any. Conditionals are not considered.
  std::optional<Region> LastLoopBefore(TimeStep t) const;

  // True if step t lies in `loop`'s body and in no part nested inside it.
  bool DirectlyInBody(const Region& loop, TimeStep t) const;

  // For a buffer produced at step `start` and live through step `end`: when
  // `start` lies inside branches that `end` is outside of (a conditional's
  // result, read after the conditional), the last step of the outermost
  // such conditional — the origin segment must reach past it. nullopt when
  // `start` leaves no branch, or would leave a loop part (never legal).
  // Example: branches [1,1] and [2,2], conditional at 3: BranchesLeft(1, 4)
  // = 2, BranchesLeft(1, 1) = nullopt, BranchesLeft(0, 4) = nullopt.
  std::optional<TimeStep> BranchesLeft(TimeStep start, TimeStep end) const;

  bool empty() const { return parts_.empty(); }

 private:
  struct Part {
    TimeStep first = 0;
    TimeStep last = 0;
    std::int32_t region = 0;  // index into regions_
    std::int32_t parent = -1; // innermost enclosing part
  };
  std::int32_t PartAt(TimeStep t) const;
  bool Contains(std::int32_t part, TimeStep t) const {
    return parts_[part].first <= t && t <= parts_[part].last;
  }

  std::vector<Region> regions_;
  std::vector<std::int32_t> loops_by_last_;  // loop indices by increasing last step
  std::vector<Part> parts_;
  std::vector<std::int32_t> part_at_;  // per step: innermost part, -1 if none
};

}  // namespace memplan
