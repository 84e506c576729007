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

void PresortedIntervalTree::Insert(std::int32_t slot, Bytes offset, Bytes size) {
  const std::int32_t pos = position_[slot];
  const TimeStep end = range_end_[pos];
  stored_[pos] = {end, offset, size};
  // Every node on the root path now has this chunk in its subtree.
  std::int32_t lo = 0;
  std::int32_t hi = static_cast<std::int32_t>(keys_.size());
  while (true) {
    const std::int32_t mid = lo + (hi - lo) / 2;
    keys_[mid].max_end = std::max(keys_[mid].max_end, end);
    if (mid == pos) return;
    if (pos < mid) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
}

}  // namespace memplan
