#include "msa/hierarchy_simulator.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <map>
#include <utility>

#include "msa/residency.h"
#include "msa/step_timeline.h"

namespace memplan {
namespace {

// Seconds of one execution of `op` when position bytes move at
// `bandwidth(buffer, write)` bytes/s; unattributed bytes at the slowest
// writable level's read bandwidth.
template <typename Bandwidth>
double LevelOpSeconds(const ProgramAnalysis& analysis, const CostModel& cost, const Target& target,
                 OpId op, Bandwidth bandwidth) {
  const OpBuffers& ob = analysis.op_buffers[op];
  double memory = 0, attributed = 0;
  auto add = [&](BufferId b, double bytes, bool write) {
    if (b == kNoId || !(bytes > 0)) return;
    memory += bytes / bandwidth(b, write);
    attributed += bytes;
  };
  for (std::size_t i = 0; i < ob.operands.size(); ++i) {
    add(ob.operands[i], cost.OperandBytesAccessed(op, static_cast<int>(i)), false);
  }
  for (std::size_t i = 0; i < ob.results.size(); ++i) {
    add(ob.results[i], cost.ResultBytesAccessed(op, static_cast<int>(i)), true);
  }
  const double rest = cost.TotalBytesAccessed(op) - attributed;
  if (rest > 0) {
    memory +=
        rest / target.spaces[static_cast<std::size_t>(SlowestWritableSpace(target))].read_bandwidth;
  }
  return std::max(cost.ComputeSeconds(op), memory);
}

}  // namespace

double HierarchyTimeAllFastest(const ProgramAnalysis& analysis, const CostModel& cost,
                               const Target& target) {
  double read = target.spaces[0].read_bandwidth, write = target.spaces[0].write_bandwidth;
  for (const MemorySpaceSpec& s : target.spaces) {
    read = std::max(read, s.read_bandwidth);
    write = std::max(write, s.write_bandwidth);
  }
  return TotalSeconds(TimeSteps(analysis, cost, [&](OpId op) {
    return LevelOpSeconds(analysis, cost, target, op,
                          [&](BufferId, bool w) { return w ? write : read; });
  }));
}

SimulationResult SimulateHierarchy(const ProgramAnalysis& analysis, const CostModel& cost,
                                   const Target& target, const MsaResult& fast,
                                   const std::vector<MemorySpace>& home) {
  const AlternateResidency residency(fast);
  const int slowest = SlowestWritableSpace(target);
  auto home_level = [&](BufferId b) {
    const int level = b >= 0 && static_cast<std::size_t>(b) < home.size()
                          ? LevelOfSpace(target, home[b])
                          : -1;
    return level < 0 ? slowest : level;
  };
  const StepTimes steps = TimeSteps(analysis, cost, [&](OpId op) {
    const TimeStep t = analysis.schedule.op_time[op];
    return LevelOpSeconds(analysis, cost, target, op, [&](BufferId b, bool write) {
      const int level = residency.InAlternate(b, t) ? 0 : home_level(b);
      const MemorySpaceSpec& s = target.spaces[static_cast<std::size_t>(level)];
      return write ? s.write_bandwidth : s.read_bandwidth;
    });
  });
  // Queues per (from level, to level): when each of its queues is free.
  std::map<std::pair<int, int>, std::vector<double>> queues;
  // One leg from level `from` to `to`: the first free queue of its link
  // and its seconds (the source's latency plus bytes / bandwidth).
  auto leg = [&](int from, int to, Bytes bytes) -> std::pair<double*, double> {
    const LinkSpec* link = FindLink(target, from, to);
    std::vector<double>& free = queues[{from, to}];
    if (free.empty()) free.assign(static_cast<std::size_t>(link ? link->queues : 1), 0);
    return {&*std::min_element(free.begin(), free.end()), CopyLegSeconds(target, from, to, bytes)};
  };
  return RunStepTimeline(steps, fast.copies, [&](std::size_t c) {
    const AsyncCopy& copy = fast.copies[c];
    const int other = home_level(copy.buffer);
    const int from = copy.kind == CopyKind::kPrefetch ? other : 0;
    const int to = copy.kind == CopyKind::kPrefetch ? 0 : other;
    const int via = copy.via ? LevelOfSpace(target, copy.via->space) : -1;
    if (via < 0) {
      const auto [queue, seconds] = leg(from, to, copy.bytes);
      return CopyService{queue, seconds};
    }
    const auto [first_queue, first_seconds] = leg(from, via, copy.bytes);
    const auto [second_queue, second_seconds] = leg(via, to, copy.bytes);
    return CopyService{first_queue, first_seconds, second_queue, second_seconds};
  });
}

double HierarchyTimeBound(const ProgramAnalysis& analysis, const CostModel& cost,
                          const Target& target) {
  // Levels by charged bandwidth, fastest first; the slowest writable level
  // takes whatever does not fit the others.
  struct Level {
    double bandwidth;
    double capacity;
  };
  std::vector<Level> order;
  const int slowest = SlowestWritableSpace(target);
  for (std::size_t l = 0; l < target.spaces.size(); ++l) {
    const MemorySpaceSpec& s = target.spaces[l];
    const bool catch_all = static_cast<int>(l) == slowest;
    order.push_back({std::max(s.read_bandwidth, s.write_bandwidth),
                     catch_all ? std::numeric_limits<double>::infinity()
                               : static_cast<double>(s.capacity_bytes)});
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const Level& x, const Level& y) { return x.bandwidth > y.bandwidth; });
  const double slow_bw =
      std::max(target.spaces[static_cast<std::size_t>(slowest)].read_bandwidth,
               target.spaces[static_cast<std::size_t>(slowest)].write_bandwidth);
  struct Item {
    double weight;
    double value;
  };
  std::vector<Item> items;
  std::map<BufferId, std::size_t> index;
  return TotalSeconds(TimeSteps(analysis, cost, [&](OpId op) {
    items.clear();
    index.clear();
    const OpBuffers& ob = analysis.op_buffers[op];
    double attributed = 0;
    auto add = [&](BufferId b, double bytes) {
      if (b == kNoId || !(bytes > 0)) return;
      attributed += bytes;
      const Buffer& buffer = analysis.buffers.buffers[b];
      auto [it, fresh] = index.emplace(b, items.size());
      if (fresh) items.push_back({buffer.inside() ? 0.0 : static_cast<double>(buffer.size), 0});
      items[it->second].value += bytes;
    };
    for (std::size_t i = 0; i < ob.operands.size(); ++i) {
      add(ob.operands[i], cost.OperandBytesAccessed(op, static_cast<int>(i)));
    }
    for (std::size_t i = 0; i < ob.results.size(); ++i) {
      add(ob.results[i], cost.ResultBytesAccessed(op, static_cast<int>(i)));
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& x, const Item& y) {
      // value / weight descending, zero weights first.
      return x.value * y.weight > y.value * x.weight;
    });
    double memory = std::max(0.0, cost.TotalBytesAccessed(op) - attributed) / slow_bw;
    std::size_t level = 0;
    double room = order.empty() ? 0 : order[0].capacity;
    for (Item item : items) {
      while (item.value > 0) {
        if (level >= order.size()) {
          memory += item.value / slow_bw;
          break;
        }
        if (item.weight <= room) {
          memory += item.value / order[level].bandwidth;
          room -= item.weight;
          break;
        }
        const double share = room / item.weight;
        memory += item.value * share / order[level].bandwidth;
        item.value -= item.value * share;
        item.weight -= room;
        ++level;
        room = level < order.size() ? order[level].capacity : 0;
      }
    }
    return std::max(cost.ComputeSeconds(op), memory);
  }));
}

}  // namespace memplan
