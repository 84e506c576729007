#include "msa/copy_limits.h"

#include <iterator>
#include <limits>

namespace memplan {

AsyncCopyLimits::Handle AsyncCopyLimits::Add(CopyKind kind, TimeStep start, TimeStep done) {
  IntervalTree& tree = kind == CopyKind::kPrefetch ? prefetches_ : evictions_;
  Handle handle{kind, tree.Insert(PlacedChunk{start, done, 0, 0}), start, done};
  if (kind == CopyKind::kPrefetch) prefetch_ranges_.insert({start, done});
  return handle;
}

void AsyncCopyLimits::Remove(const Handle& handle) {
  if (handle.kind == CopyKind::kPrefetch) {
    prefetches_.Remove(handle.tree);
    prefetch_ranges_.erase(prefetch_ranges_.find({handle.start, handle.done}));
  } else {
    evictions_.Remove(handle.tree);
  }
}

std::int64_t AsyncCopyLimits::CountOverlapping(CopyKind kind, TimeStep start,
                                               TimeStep done) const {
  const IntervalTree& tree = kind == CopyKind::kPrefetch ? prefetches_ : evictions_;
  std::int64_t count = 0;
  tree.ForEachOverlapping(start, done, [&](const PlacedChunk&) { ++count; });
  return count;
}

bool AsyncCopyLimits::ExceedsLimit(CopyKind kind, TimeStep start, TimeStep done,
                                   std::int64_t limit) const {
  return limit >= 0 && CountOverlapping(kind, start, done) >= limit;
}

std::optional<std::pair<TimeStep, TimeStep>> AsyncCopyLimits::FifoConflict(TimeStep start,
                                                                           TimeStep done) const {
  // Committed ranges sorted by start have non-decreasing dones, so the first
  // one starting later has the earliest done among those, and the last one
  // starting earlier has the latest done among those.
  constexpr TimeStep kLowest = std::numeric_limits<TimeStep>::min();
  auto later = prefetch_ranges_.lower_bound({start + 1, kLowest});
  if (later != prefetch_ranges_.end() && later->second < done) return *later;
  auto earlier = prefetch_ranges_.lower_bound({start, kLowest});
  if (earlier != prefetch_ranges_.begin() && std::prev(earlier)->second > done) {
    return *std::prev(earlier);
  }
  return std::nullopt;
}

}  // namespace memplan
