#include "packing/skyline.h"

#include <algorithm>
#include <cstdint>
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

PackResult SkylinePack(const std::vector<PackItem>& items, SkylineOrder order, Bytes alignment) {
  // Compress time to the slots between consecutive range boundaries.
  std::vector<TimeStep> bounds;
  for (const PackItem& item : items) {
    if (IsEmpty(item)) continue;
    bounds.push_back(item.start);
    bounds.push_back(EndOf(item) + 1);
  }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  auto slot = [&](TimeStep t) {
    return static_cast<std::size_t>(std::lower_bound(bounds.begin(), bounds.end(), t) -
                                    bounds.begin());
  };

  // Queue entries: (floor, tie-break key, index); smallest first. A floor may be
  // stale (too low); it is recomputed when the entry reaches the front.
  using Entry = std::tuple<Bytes, double, Bytes, std::int32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const PackItem& item = items[i];
    if (IsEmpty(item)) continue;
    const double length = static_cast<double>(EndOf(item) - item.start + 1);
    const double size = static_cast<double>(item.size);
    const double key = order == SkylineOrder::kLongestFirst ? -length : -size * length;
    const Bytes second = order == SkylineOrder::kLongestFirst ? -item.size
                                                             : -(EndOf(item) - item.start);
    queue.emplace(0, key, second, static_cast<std::int32_t>(i));
  }

  std::vector<Bytes> offsets(items.size(), 0);
  SkylineTree skyline(bounds.empty() ? 0 : bounds.size() - 1);
  while (!queue.empty()) {
    Entry entry = queue.top();
    queue.pop();
    const PackItem& item = items[std::get<3>(entry)];
    const std::size_t l = slot(item.start);
    const std::size_t r = slot(EndOf(item) + 1);
    const Bytes floor = AlignUp(skyline.Max(l, r), EffectiveAlignment(item, alignment));
    if (floor > std::get<0>(entry)) {
      std::get<0>(entry) = floor;
      queue.push(entry);
      continue;
    }
    offsets[std::get<3>(entry)] = floor;
    skyline.Assign(l, r, floor + item.size);
  }
  return MakePackResult(items, std::move(offsets), order == SkylineOrder::kLongestFirst
                                                        ? "skyline-longest"
                                                        : "skyline-area");
}

}  // namespace memplan
