#include "packing/presorted_interval_tree.h"

#include <algorithm>
#include <numeric>

namespace memplan {

PresortedIntervalTree::PresortedIntervalTree(
    const std::vector<std::pair<TimeStep, TimeStep>>& ranges) {
  const std::int32_t n = static_cast<std::int32_t>(ranges.size());
  std::vector<std::int32_t> sorted(n);
  std::iota(sorted.begin(), sorted.end(), 0);
  std::sort(sorted.begin(), sorted.end(), [&](std::int32_t a, std::int32_t b) {
    return ranges[a].first < ranges[b].first || (ranges[a].first == ranges[b].first && a < b);
  });
  keys_.resize(n);
  stored_.resize(n);
  range_end_.resize(n);
  position_.resize(n);
  for (std::int32_t pos = 0; pos < n; ++pos) {
    const std::int32_t slot = sorted[pos];
    position_[slot] = pos;
    keys_[pos] = {ranges[slot].first, kEmpty};
    stored_[pos] = {kEmpty, 0, 0};
    range_end_[pos] = ranges[slot].second;
  }
}

void PresortedIntervalTree::FixPath(std::int32_t pos) {
  // Walk down to `pos`, remembering the path, then recompute bottom-up.
  std::int32_t path[64];
  std::int32_t bounds[64][2];
  int depth = 0;
  std::int32_t lo = 0;
  std::int32_t hi = static_cast<std::int32_t>(keys_.size());
  while (true) {
    const std::int32_t mid = lo + (hi - lo) / 2;
    path[depth] = mid;
    bounds[depth][0] = lo;
    bounds[depth][1] = hi;
    ++depth;
    if (mid == pos) break;
    if (pos < mid) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  for (int d = depth - 1; d >= 0; --d) {
    const std::int32_t mid = path[d];
    TimeStep best = stored_[mid].end;
    const std::int32_t l = bounds[d][0];
    const std::int32_t h = bounds[d][1];
    if (l < mid) best = std::max(best, keys_[l + (mid - l) / 2].max_end);
    if (mid + 1 < h) best = std::max(best, keys_[mid + 1 + (h - mid - 1) / 2].max_end);
    keys_[mid].max_end = best;
  }
}

void PresortedIntervalTree::Insert(std::int32_t slot, Bytes offset, Bytes size) {
  const std::int32_t pos = position_[slot];
  stored_[pos] = {range_end_[pos], offset, size};
  FixPath(pos);
}

void PresortedIntervalTree::Remove(std::int32_t slot) {
  const std::int32_t pos = position_[slot];
  stored_[pos].end = kEmpty;
  FixPath(pos);
}

}  // namespace memplan
