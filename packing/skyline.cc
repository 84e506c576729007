#include "packing/skyline.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <queue>

#include "packing/live_profile.h"
#include "packing/member_cost.h"
#include "packing/pack_support.h"

namespace memplan {
namespace {

// Max of a non-decreasing step function over slots [0, m), with "raise a
// range to at least v" updates (placing an item raises the skyline over its
// range to its top). Iterative, no push-down: a slot's value is the max of the
// `raised` marks on its root path, so a range max combines `below` (the max
// inside each covering node) with the marks on the two boundary paths, which
// include every ancestor of a covering node.
class SkylineTree {
 public:
  explicit SkylineTree(std::size_t m) {
    while (leaves_ < m) leaves_ *= 2;
    raised_.assign(2 * leaves_, 0);
    below_.assign(2 * leaves_, 0);
  }

  // Max over slots [l, r), l < r.
  Bytes Max(std::size_t l, std::size_t r) const {
    Bytes best = 0;
    for (std::size_t x = l + leaves_; x > 0; x /= 2) best = std::max(best, raised_[x]);
    for (std::size_t x = r - 1 + leaves_; x > 0; x /= 2) best = std::max(best, raised_[x]);
    for (std::size_t a = l + leaves_, b = r + leaves_; a < b; a /= 2, b /= 2) {
      if (a & 1) best = std::max(best, below_[a++]);
      if (b & 1) best = std::max(best, below_[--b]);
    }
    return best;
  }

  // Raises every slot in [l, r), l < r, to at least v.
  void Raise(std::size_t l, std::size_t r, Bytes v) {
    for (std::size_t a = l + leaves_, b = r + leaves_; a < b; a /= 2, b /= 2) {
      if (a & 1) Mark(a++, v);
      if (b & 1) Mark(--b, v);
    }
    for (std::size_t x = (l + leaves_) / 2; x > 0; x /= 2) below_[x] = std::max(below_[x], v);
    for (std::size_t x = (r - 1 + leaves_) / 2; x > 0; x /= 2) below_[x] = std::max(below_[x], v);
  }

 private:
  void Mark(std::size_t node, Bytes v) {
    raised_[node] = std::max(raised_[node], v);
    below_[node] = std::max(below_[node], v);
  }

  std::size_t leaves_ = 1;
  std::vector<Bytes> raised_;  // v of raises covering the whole node
  std::vector<Bytes> below_;   // max value anywhere inside the node
};

// (make_key(item, index), index) for the non-empty items without a fixed
// offset. The keys are gathered next to their indices and sorted as one
// array: a comparison that fetched two items through their indices cost
// two cache misses apiece at 10^6-10^7 items, 3x the sort's time.
template <typename Key, typename MakeKey>
std::vector<std::pair<Key, std::int32_t>> KeyedIndices(const std::vector<PackItem>& items,
                                                       MakeKey make_key) {
  std::vector<std::pair<Key, std::int32_t>> keyed;
  // Reserved, not grown: growing by doubling held up to three times its 24
  // bytes an item while reallocating, in both skyline lanes at once (at
  // 10^7 items a peak of the plan).
  keyed.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (IsEmpty(items[i]) || items[i].fixed_offset()) continue;
    keyed.emplace_back(make_key(items[i], i), static_cast<std::int32_t>(i));
  }
  return keyed;
}

template <typename Key>
std::vector<std::int32_t> IndicesOf(const std::vector<std::pair<Key, std::int32_t>>& keyed) {
  std::vector<std::int32_t> indices(keyed.size());
  for (std::size_t k = 0; k < keyed.size(); ++k) indices[k] = keyed[k].second;
  return indices;
}

// The indices of those items, by (make_key(item, index), index).
template <typename Key, typename MakeKey>
std::vector<std::int32_t> IndicesByKey(const std::vector<PackItem>& items, MakeKey make_key) {
  std::vector<std::pair<Key, std::int32_t>> keyed = KeyedIndices<Key>(items, make_key);
  std::sort(keyed.begin(), keyed.end());
  return IndicesOf(keyed);
}

}  // namespace

std::string_view SkylineOrderName(SkylineOrder order) {
  switch (order) {
    case SkylineOrder::kLongestFirst:
      return "skyline-longest";
    case SkylineOrder::kLargestArea:
      return "skyline-area";
    case SkylineOrder::kCrowdedFirst:
      return "skyline-crowded";
  }
  return "skyline-area";
}

std::vector<std::int32_t> SortForSkyline(const std::vector<PackItem>& items, SkylineOrder order) {
  const auto length = [](const PackItem& item) { return EndOf(item) - item.start + 1; };
  const auto area = [&](const PackItem& item) {
    return static_cast<double>(item.size) * static_cast<double>(length(item));
  };
  switch (order) {
    case SkylineOrder::kLongestFirst:
      // Longer range, then larger size, then index.
      return IndicesByKey<std::pair<TimeStep, Bytes>>(items, [&](const PackItem& item, std::size_t) {
        return std::make_pair(-length(item), -item.size);
      });
    case SkylineOrder::kCrowdedFirst: {
      // Higher max live bytes during the range, then larger area, then
      // longer range, then index. The range's length is looked up only on
      // ties of the other two, so a key is 24 bytes, not 32 (at 10^7 items
      // the sort's array runs beside the other lane's packer), and the
      // crowds are freed before the sort.
      std::vector<Bytes> crowd = MaxLiveDuring(items);
      std::vector<std::pair<std::pair<Bytes, double>, std::int32_t>> keyed =
          KeyedIndices<std::pair<Bytes, double>>(items, [&](const PackItem& item, std::size_t i) {
            return std::make_pair(-crowd[i], -area(item));
          });
      std::vector<Bytes>().swap(crowd);
      std::sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
        if (x.first != y.first) return x.first < y.first;
        const TimeStep lx = length(items[static_cast<std::size_t>(x.second)]);
        const TimeStep ly = length(items[static_cast<std::size_t>(y.second)]);
        if (lx != ly) return lx > ly;
        return x.second < y.second;
      });
      return IndicesOf(keyed);
    }
    case SkylineOrder::kLargestArea:
      break;
  }
  // Larger size x range length, then longer range, then index.
  return IndicesByKey<std::pair<double, TimeStep>>(items, [&](const PackItem& item, std::size_t) {
    return std::make_pair(-area(item), -length(item));
  });
}

SkylinePacker::SkylinePacker(const std::vector<PackItem>& items, Bytes alignment)
    : items_(items), alignment_(alignment), fixed_(items), first_slot_(items.size(), 0),
      end_slot_(items.size(), 0) {
  // Compress time to the slots between consecutive range boundaries: a
  // boundary's slot is the number of distinct boundaries below it.
  // Dense boundaries (DenseSpan: compiler traces, one or more buffers per
  // op) are ranked in a table over their span, O(n + span), sequential;
  // sorting 2n boundaries and searching them per item took 3 s at 10^7
  // items. Wider spans sort; both give the same slots.
  if (const auto dense = DenseSpan(items)) {
    const auto [lo, hi] = *dense;
    std::vector<std::int32_t> rank(static_cast<std::size_t>(hi - lo) + 1, 0);
    for (const PackItem& item : items) {
      if (IsEmpty(item)) continue;
      rank[item.start - lo] = 1;
      rank[EndOf(item) + 1 - lo] = 1;
    }
    std::int32_t below = 0;
    for (std::int32_t& r : rank) below += std::exchange(r, below);
    slots_ = static_cast<std::size_t>(below) - 1;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (IsEmpty(items[i])) continue;
      first_slot_[i] = rank[items[i].start - lo];
      end_slot_[i] = rank[EndOf(items[i]) + 1 - lo];
    }
    return;
  }
  const std::vector<TimeStep> bounds = SortedBoundaries(items);
  if (bounds.empty()) return;  // no non-empty items: no slots
  slots_ = bounds.size() - 1;
  auto slot = [&](TimeStep t) {
    return static_cast<std::int32_t>(std::lower_bound(bounds.begin(), bounds.end(), t) -
                                     bounds.begin());
  };
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (IsEmpty(items[i])) continue;
    first_slot_[i] = slot(items[i].start);
    end_slot_[i] = slot(EndOf(items[i]) + 1);
  }
}

std::optional<std::vector<Bytes>> SkylinePacker::Run(const std::vector<std::int32_t>& priority,
                                                     Bytes cutoff) const {
  double work = 0;
  return RunWithin(priority, cutoff, std::numeric_limits<double>::infinity(), &work);
}

std::optional<std::vector<Bytes>> SkylinePacker::RunWithin(
    const std::vector<std::int32_t>& priority, Bytes cutoff, double work_limit, double* work,
    const PackDeadline& deadline) const {
  DeadlinePoll poll(deadline);
  if (priority.size() <= kScanLimit) return RunByScan(priority, cutoff, work_limit, work, poll);
  if (fixed_.empty()) return RunBySweep(priority, cutoff, work_limit, work, poll);
  return RunByQueue(priority, cutoff, work_limit, work, poll);
}

std::optional<std::vector<Bytes>> SkylinePacker::RunByScan(
    const std::vector<std::int32_t>& priority, Bytes cutoff, double work_limit, double* work,
    DeadlinePoll& poll) const {
  // The unplaced items in priority order, with their floors kept exact. Each
  // step places the first item with the lowest floor, then one pass drops it
  // from the list, raises the floors of the items overlapping it, and finds
  // the next lowest floor (the first one found wins ties).
  struct Pending {
    std::int32_t item;
    std::int32_t first_slot;
    std::int32_t end_slot;
    Bytes alignment;
    Bytes floor;
  };
  // The lowest offset at or above `floor` that no fixed item blocks.
  const auto lifted = [&](std::int32_t i, Bytes floor, Bytes alignment) {
    return fixed_.empty() ? floor
                          : fixed_.Lift(items_[i].start, EndOf(items_[i]), items_[i].size,
                                        alignment, floor);
  };
  std::vector<Pending> pending;
  pending.reserve(priority.size());
  std::size_t next = 0;  // the first entry with the lowest floor
  for (std::int32_t i : priority) {
    const Bytes alignment = EffectiveAlignment(items_[i], alignment_);
    pending.push_back({i, first_slot_[i], end_slot_[i], alignment,
                       lifted(i, 0, alignment)});
    if (pending.back().floor < pending[next].floor) next = pending.size() - 1;
  }
  std::vector<Bytes> offsets = InitialOffsets(items_);
  while (!pending.empty()) {
    const std::size_t placed_at = next;
    const Pending placed = pending[placed_at];
    const Bytes top = placed.floor + items_[placed.item].size;
    if (top >= cutoff) return std::nullopt;
    *work += kSkylineScanWork * static_cast<double>(pending.size());
    if (*work > work_limit || poll.Passed()) return std::nullopt;
    offsets[placed.item] = placed.floor;
    std::size_t kept = 0;
    Bytes lowest = std::numeric_limits<Bytes>::max();
    for (std::size_t p = 0; p < pending.size(); ++p) {
      if (p == placed_at) continue;
      Pending entry = pending[p];
      if (entry.first_slot < placed.end_slot && entry.end_slot > placed.first_slot &&
          entry.floor < top) {
        entry.floor = lifted(entry.item, AlignUp(top, entry.alignment), entry.alignment);
      }
      if (entry.floor < lowest) {
        lowest = entry.floor;
        next = kept;
      }
      pending[kept++] = entry;
    }
    pending.resize(kept);
  }
  return offsets;
}

std::optional<std::vector<Bytes>> SkylinePacker::RunByQueue(
    const std::vector<std::int32_t>& priority, Bytes cutoff, double work_limit, double* work,
    DeadlinePoll& poll) const {
  // Queue entries: (floor, position in `priority`); smallest first. A floor
  // may be stale (too low); it is recomputed when the entry reaches the front.
  using Entry = std::pair<Bytes, std::int32_t>;
  std::vector<Entry> initial;
  initial.reserve(priority.size());
  for (std::size_t rank = 0; rank < priority.size(); ++rank) {
    initial.emplace_back(0, static_cast<std::int32_t>(rank));
  }
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue(
      std::greater<Entry>(), std::move(initial));

  std::vector<Bytes> offsets = InitialOffsets(items_);
  SkylineTree skyline(slots_);
  const double pop_work = SkylinePopWork(static_cast<std::int64_t>(priority.size()));
  while (!queue.empty()) {
    Entry entry = queue.top();
    queue.pop();
    *work += pop_work;
    if (*work > work_limit || poll.Passed()) return std::nullopt;
    const std::int32_t i = priority[entry.second];
    const PackItem& item = items_[i];
    const auto l = static_cast<std::size_t>(first_slot_[i]);
    const auto r = static_cast<std::size_t>(end_slot_[i]);
    const Bytes alignment = EffectiveAlignment(item, alignment_);
    const Bytes top = skyline.Max(l, r);
    const Bytes floor = fixed_.empty()
                            ? AlignUp(top, alignment)
                            : fixed_.Lift(item.start, EndOf(item), item.size, alignment, top);
    if (floor > entry.first) {
      entry.first = floor;
      // Still the lowest entry: place it now instead of queueing it again.
      if (!queue.empty() && queue.top() < entry) {
        queue.push(entry);
        continue;
      }
    }
    if (floor + item.size >= cutoff) return std::nullopt;
    offsets[i] = floor;
    skyline.Raise(l, r, floor + item.size);
  }
  return offsets;
}

PackResult SkylinePack(const std::vector<PackItem>& items, SkylineOrder order, Bytes alignment) {
  const SkylinePacker packer(items, alignment);
  std::vector<Bytes> offsets =
      *packer.Run(SortForSkyline(items, order), std::numeric_limits<Bytes>::max());
  return MakePackResult(items, std::move(offsets), std::string(SkylineOrderName(order)));
}

}  // namespace memplan
