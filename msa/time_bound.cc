#include "msa/time_bound.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace memplan {
namespace {

// One knapsack item of an op: the buffers of one outermost container that
// the op accesses.
struct Item {
  BufferId group = kNoId;  // the outermost container
  std::size_t first = 0;   // the op's first access of the group (operands, then results)
  Bytes weight = 0;        // the smallest member's size
  double value = 0;        // bytes the op accesses through the members
};

BufferId OutermostContainer(const BufferSet& buffers, BufferId b) {
  while (buffers.buffers[b].inside()) b = buffers.buffers[b].inside()->container;
  return b;
}

// Merges the accesses (one item per position) of each group into one item,
// in order of first access. O(k log k).
void MergeGroups(std::vector<Item>& items) {
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.group < b.group; });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (kept > 0 && items[kept - 1].group == items[i].group) {
      items[kept - 1].weight = std::min(items[kept - 1].weight, items[i].weight);
      items[kept - 1].value += items[i].value;
    } else {
      items[kept++] = items[i];
    }
  }
  items.resize(kept);
  std::sort(items.begin(), items.end(),
            [](const Item& a, const Item& b) { return a.first < b.first; });
}

// The fractional knapsack's optimum: the most bytes an op can access in
// alternate memory when its items share `capacity` bytes (with `windows`,
// items heavier than the capacity stay in, to be taken in part). Items in order
// of value per byte (weightless items first; ties keep the order of first
// access, so the sum is deterministic). O(k log k).
double MostAlternateBytes(std::vector<Item>& items, Bytes capacity, bool windows) {
  if (!windows) std::erase_if(items, [&](const Item& item) { return item.weight > capacity; });
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    if ((a.weight == 0) != (b.weight == 0)) return a.weight == 0;
    return a.value * static_cast<double>(b.weight) > b.value * static_cast<double>(a.weight);
  });
  double bytes = 0;
  Bytes left = capacity;
  for (const Item& item : items) {
    if (item.weight <= left) {
      bytes += item.value;
      left -= item.weight;
    } else {
      bytes += item.value * static_cast<double>(left) / static_cast<double>(item.weight);
      break;
    }
  }
  return bytes;
}

}  // namespace

double TimeBound(const ProgramAnalysis& analysis, const CostModel& cost, Bytes capacity_bytes,
                 bool windows) {
  const BufferSet& buffers = analysis.buffers;
  std::vector<double> step_seconds(
      static_cast<std::size_t>(std::max<TimeStep>(1, analysis.schedule.time_steps)), 0);
  std::vector<Item> items;
  for (OpId op : analysis.schedule.order) {
    const OpBuffers& ob = analysis.op_buffers[op];
    items.clear();
    // Timepoints (kNoId) have no storage and no bytes.
    for (std::size_t i = 0; i < ob.operands.size(); ++i) {
      if (ob.operands[i] == kNoId) continue;
      items.push_back({OutermostContainer(buffers, ob.operands[i]), i,
                       buffers.buffers[ob.operands[i]].size,
                       cost.OperandBytesAccessed(op, static_cast<int>(i))});
    }
    for (std::size_t i = 0; i < ob.results.size(); ++i) {
      if (ob.results[i] == kNoId) continue;
      items.push_back({OutermostContainer(buffers, ob.results[i]), ob.operands.size() + i,
                       buffers.buffers[ob.results[i]].size,
                       cost.ResultBytesAccessed(op, static_cast<int>(i))});
    }
    MergeGroups(items);
    const double seconds =
        cost.OpElapsedWithAlternateBytes(op, MostAlternateBytes(items, capacity_bytes, windows));
    double& step = step_seconds[static_cast<std::size_t>(analysis.schedule.op_time[op])];
    step = std::max(step, seconds * cost.ExecutionCount(op));
  }
  double total = 0;
  for (double s : step_seconds) total += s;
  return total;
}

}  // namespace memplan
