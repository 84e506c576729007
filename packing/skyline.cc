#include "packing/skyline.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <queue>
#include <tuple>

#include "packing/pack_support.h"

namespace memplan {
namespace {

// Max of a step function over slots [0, m), with "set a range to v" updates.
// Every update raises the range to one value >= its current max, as placing
// an item does to the skyline.
class SkylineTree {
 public:
  explicit SkylineTree(std::size_t m) : m_(m), max_(4 * std::max<std::size_t>(m, 1), 0),
                                        assign_(max_.size(), -1) {}

  Bytes Max(std::size_t l, std::size_t r) const { return Max(1, 0, m_, l, r); }
  void Assign(std::size_t l, std::size_t r, Bytes v) { Assign(1, 0, m_, l, r, v); }

 private:
  void Push(std::size_t node) {
    if (assign_[node] < 0) return;
    for (std::size_t child : {2 * node, 2 * node + 1}) {
      max_[child] = assign_[node];
      assign_[child] = assign_[node];
    }
    assign_[node] = -1;
  }
  Bytes Max(std::size_t node, std::size_t lo, std::size_t hi, std::size_t l, std::size_t r) const {
    if (r <= lo || hi <= l) return 0;
    if (l <= lo && hi <= r) return max_[node];
    if (assign_[node] >= 0) return assign_[node];  // the whole node holds one value
    const std::size_t mid = (lo + hi) / 2;
    return std::max(Max(2 * node, lo, mid, l, r), Max(2 * node + 1, mid, hi, l, r));
  }
  void Assign(std::size_t node, std::size_t lo, std::size_t hi, std::size_t l, std::size_t r,
              Bytes v) {
    if (r <= lo || hi <= l) return;
    if (l <= lo && hi <= r) {
      max_[node] = v;
      assign_[node] = v;
      return;
    }
    Push(node);
    const std::size_t mid = (lo + hi) / 2;
    Assign(2 * node, lo, mid, l, r, v);
    Assign(2 * node + 1, mid, hi, l, r, v);
    max_[node] = std::max(max_[2 * node], max_[2 * node + 1]);
  }

  std::size_t m_;
  std::vector<Bytes> max_;
  std::vector<Bytes> assign_;  // pending "whole node = value" (-1: none)
};

}  // namespace

std::string_view SkylineOrderName(SkylineOrder order) {
  return order == SkylineOrder::kLongestFirst ? "skyline-longest" : "skyline-area";
}

std::vector<std::int32_t> SortForSkyline(const std::vector<PackItem>& items, SkylineOrder order) {
  std::vector<std::int32_t> by_key;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!IsEmpty(items[i])) by_key.push_back(static_cast<std::int32_t>(i));
  }
  auto length = [&](std::int32_t i) { return EndOf(items[i]) - items[i].start + 1; };
  if (order == SkylineOrder::kLongestFirst) {
    std::sort(by_key.begin(), by_key.end(), [&](std::int32_t a, std::int32_t b) {
      return std::make_tuple(-length(a), -items[a].size, a) <
             std::make_tuple(-length(b), -items[b].size, b);
    });
  } else {
    auto area = [&](std::int32_t i) { return static_cast<double>(items[i].size) * length(i); };
    std::sort(by_key.begin(), by_key.end(), [&](std::int32_t a, std::int32_t b) {
      return std::make_tuple(-area(a), -length(a), a) < std::make_tuple(-area(b), -length(b), b);
    });
  }
  return by_key;
}

SkylinePacker::SkylinePacker(const std::vector<PackItem>& items, Bytes alignment)
    : items_(items), alignment_(alignment), first_slot_(items.size(), 0),
      end_slot_(items.size(), 0) {
  // Compress time to the slots between consecutive range boundaries.
  std::vector<TimeStep> bounds;
  for (const PackItem& item : items) {
    if (IsEmpty(item)) continue;
    bounds.push_back(item.start);
    bounds.push_back(EndOf(item) + 1);
  }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  slots_ = bounds.empty() ? 0 : bounds.size() - 1;
  auto slot = [&](TimeStep t) {
    return static_cast<std::size_t>(std::lower_bound(bounds.begin(), bounds.end(), t) -
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
  return priority.size() <= kScanLimit ? RunByScan(priority, cutoff)
                                       : RunByQueue(priority, cutoff);
}

std::optional<std::vector<Bytes>> SkylinePacker::RunByScan(
    const std::vector<std::int32_t>& priority, Bytes cutoff) const {
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
  std::vector<Pending> pending;
  pending.reserve(priority.size());
  for (std::int32_t i : priority) {
    pending.push_back({i, static_cast<std::int32_t>(first_slot_[i]),
                       static_cast<std::int32_t>(end_slot_[i]),
                       EffectiveAlignment(items_[i], alignment_), 0});
  }
  std::vector<Bytes> offsets(items_.size(), 0);
  std::size_t next = 0;  // every floor is 0 at first: the first in priority goes
  while (!pending.empty()) {
    const std::size_t placed_at = next;
    const Pending placed = pending[placed_at];
    const Bytes top = placed.floor + items_[placed.item].size;
    if (top >= cutoff) return std::nullopt;
    offsets[placed.item] = placed.floor;
    std::size_t kept = 0;
    Bytes lowest = std::numeric_limits<Bytes>::max();
    for (std::size_t p = 0; p < pending.size(); ++p) {
      if (p == placed_at) continue;
      Pending entry = pending[p];
      if (entry.first_slot < placed.end_slot && entry.end_slot > placed.first_slot) {
        entry.floor = std::max(entry.floor, AlignUp(top, entry.alignment));
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
    const std::vector<std::int32_t>& priority, Bytes cutoff) const {
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

  std::vector<Bytes> offsets(items_.size(), 0);
  SkylineTree skyline(slots_);
  while (!queue.empty()) {
    Entry entry = queue.top();
    queue.pop();
    const std::int32_t i = priority[entry.second];
    const PackItem& item = items_[i];
    const std::size_t l = first_slot_[i];
    const std::size_t r = end_slot_[i];
    const Bytes floor = AlignUp(skyline.Max(l, r), EffectiveAlignment(item, alignment_));
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
    skyline.Assign(l, r, floor + item.size);
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
