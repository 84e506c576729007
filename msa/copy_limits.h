// The committed async copies of a memory space assignment run, indexed for
// the two limits the allocator enforces (msa.md §3):
//  * outstanding copies: a new prefetch (eviction) over [start, done] is
//    refused when `limit` committed prefetches (evictions) already overlap
//    that closed range. Counting every overlapping copy, not the peak at one
//    step, is the reference's conservative rule; it implies that no time step
//    has more than `limit` copies of a kind in flight.
//  * FIFO ordering (optional): prefetches complete in the order they start,
//    i.e. no prefetch lies strictly inside another (s1 < s2 and d2 < d1).
//    Equal starts or equal dones never conflict.
// Example: committed prefetches (3,11) (1,8) (5,14) (7,14). FifoConflict
// reports (2,16) (contains (3,11)), (9,12) (inside (7,14)) and (6,17)
// (contains (7,14)); (5,13) and (5,14) are fine.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include "ir/plan.h"
#include "ir/units.h"
#include "packing/interval_tree.h"

namespace memplan {

class AsyncCopyLimits {
 public:
  struct Handle {
    CopyKind kind = CopyKind::kPrefetch;
    IntervalTree::Handle tree = -1;
    TimeStep start = 0;
    TimeStep done = 0;
  };

  // Records a copy (start <= done). Expected O(log n).
  Handle Add(CopyKind kind, TimeStep start, TimeStep done);
  // Forgets a copy recorded by Add.
  void Remove(const Handle& handle);

  // Number of committed copies of `kind` whose ranges overlap [start, done].
  // O(k log n) for k overlapping copies.
  std::int64_t CountOverlapping(CopyKind kind, TimeStep start, TimeStep done) const;

  // True if a new copy of `kind` over [start, done] would break `limit`
  // (limit < 0: unlimited).
  bool ExceedsLimit(CopyKind kind, TimeStep start, TimeStep done, std::int64_t limit) const;

  // A committed prefetch that a new prefetch over [start, done] would nest
  // with, preferring one inside it (which tells how early the new one must
  // complete); nullopt if none. Assumes every committed prefetch passed this
  // check (then sorting by start also sorts by done). O(log n).
  std::optional<std::pair<TimeStep, TimeStep>> FifoConflict(TimeStep start, TimeStep done) const;

 private:
  IntervalTree prefetches_;
  IntervalTree evictions_;
  std::multiset<std::pair<TimeStep, TimeStep>> prefetch_ranges_;
};

}  // namespace memplan
