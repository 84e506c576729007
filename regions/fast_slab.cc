#include "regions/fast_slab.h"

#include <algorithm>

namespace memplan {

FastSlabChoice ChooseFastSlices(const std::vector<LayoutItem>& items,
                                const std::vector<double>& benefit, Bytes capacity,
                                const LayoutOptions& layout, bool in_order,
                                PackingAlgorithm algorithm) {
  std::vector<Bytes> padded(items.size(), 0);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < items.size(); ++i) {
    padded[i] = PlanningBytes(items[i], layout);
    if (items[i].size.IsConstant() && benefit[i] > 0 && padded[i] > 0 && padded[i] <= capacity) {
      order.push_back(i);
    }
  }
  const auto density = [&](std::size_t i) { return benefit[i] / static_cast<double>(padded[i]); };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return density(a) > density(b); });

  std::vector<std::size_t> taken;  // in decreasing density
  std::vector<PackItem> live;
  for (std::size_t i : order) {
    live.push_back(PackItem{padded[i], 1, items[i].start, items[i].end});
    if (MaxLiveBytes(live) <= capacity) {
      taken.push_back(i);
    } else {
      live.pop_back();
    }
  }
  FastSlabChoice choice;
  while (!taken.empty()) {
    choice.fast = taken;
    std::sort(choice.fast.begin(), choice.fast.end());
    std::vector<LayoutItem> chosen;
    for (std::size_t i : choice.fast) chosen.push_back(items[i]);
    choice.layout = in_order ? InOrderLayout(chosen, layout)
                             : PackedLayout(chosen, algorithm, layout);
    if (choice.layout.total.Evaluate(layout.planning_point).value_or(capacity + 1) <= capacity) {
      return choice;
    }
    taken.pop_back();
  }
  return FastSlabChoice{};
}

}  // namespace memplan
