#include "regions/allocation_split.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace memplan {

std::vector<SplitGroup> SplitStacked(const std::vector<LayoutItem>& items,
                                     const LayoutOptions& options, Bytes limit) {
  std::vector<SplitGroup> groups;
  Bytes used = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Bytes size = PlanningBytes(items[i], options);
    if (size > limit) {
      groups.push_back(SplitGroup{{i}, true, {}});
      used = limit;  // nothing joins an over-limit group
      continue;
    }
    const Bytes offset = AlignUp(used, options.offset_alignment);
    if (groups.empty() || groups.back().over_limit || offset + size > limit) {
      groups.push_back(SplitGroup{{i}, false, {}});
      used = size;
    } else {
      groups.back().items.push_back(i);
      used = offset + size;
    }
  }
  return groups;
}

std::vector<SplitGroup> SplitPacked(const std::vector<LayoutItem>& items,
                                    const LayoutOptions& options, Bytes limit) {
  std::vector<Bytes> sizes(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) sizes[i] = PlanningBytes(items[i], options);
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });

  struct Placed {
    std::size_t item;
    Bytes offset;
  };
  std::vector<std::vector<Placed>> bins;
  std::vector<bool> over(0);
  std::vector<std::pair<Bytes, Bytes>> conflicts;  // (offset, end) of items live together
  for (std::size_t i : order) {
    bool placed = false;
    for (std::size_t g = 0; g < bins.size() && !placed && sizes[i] <= limit; ++g) {
      if (over[g]) continue;
      conflicts.clear();
      for (const Placed& p : bins[g]) {
        if (items[p.item].start <= items[i].end && items[i].start <= items[p.item].end) {
          conflicts.emplace_back(p.offset, p.offset + sizes[p.item]);
        }
      }
      std::sort(conflicts.begin(), conflicts.end());
      Bytes candidate = 0;
      for (const auto& [begin, end] : conflicts) {
        if (AlignUp(candidate, options.offset_alignment) + sizes[i] <= begin) break;
        candidate = std::max(candidate, end);
      }
      const Bytes offset = AlignUp(candidate, options.offset_alignment);
      if (offset + sizes[i] > limit) continue;
      bins[g].push_back(Placed{i, offset});
      placed = true;
    }
    if (!placed) {
      bins.push_back({Placed{i, 0}});
      over.push_back(sizes[i] > limit);
    }
  }

  std::vector<SplitGroup> groups;
  for (std::size_t g = 0; g < bins.size(); ++g) {
    std::sort(bins[g].begin(), bins[g].end(),
              [](const Placed& a, const Placed& b) { return a.item < b.item; });
    SplitGroup group;
    group.over_limit = over[g];
    for (const Placed& p : bins[g]) {
      group.items.push_back(p.item);
      group.planning_offsets.push_back(p.offset);
    }
    groups.push_back(std::move(group));
  }
  // Groups in the order of their first item, so allocations follow definition order.
  std::sort(groups.begin(), groups.end(), [](const SplitGroup& a, const SplitGroup& b) {
    return a.items.front() < b.items.front();
  });
  return groups;
}

}  // namespace memplan
