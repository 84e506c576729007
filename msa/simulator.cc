#include "msa/simulator.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "msa/residency.h"
#include "msa/step_timeline.h"
#include "msa/window_prefetch.h"

namespace memplan {

SimulationResult SimulateMsa(const ProgramAnalysis& analysis, const CostModel& cost,
                             const MsaResult& result) {
  const AlternateResidency residency(result);
  // Window prefetches (msa/window_prefetch.h) by op: each speeds its op up
  // and its copy takes the DMA queue like any other.
  std::vector<std::vector<const WindowPrefetch*>> windows(analysis.op_buffers.size());
  for (const WindowPrefetch& w : result.window_prefetches) {
    if (w.op >= 0 && static_cast<std::size_t>(w.op) < windows.size()) {
      windows[static_cast<std::size_t>(w.op)].push_back(&w);
    }
  }
  std::vector<int> operands, results;
  const StepTimes steps = TimeSteps(analysis, cost, [&](OpId op) {
    const TimeStep t = analysis.schedule.op_time[op];
    const OpBuffers& ob = analysis.op_buffers[op];
    residency.AlternatePositions(ob, t, operands, results);
    return WindowedOpElapsed(cost, op, operands, results, windows[static_cast<std::size_t>(op)],
                             analysis.buffers.buffers);
  });
  // One DMA queue serves every copy; window copies are issued after the
  // other copies started at their step.
  std::vector<AsyncCopy> copies = result.copies;
  for (const WindowPrefetch& w : result.window_prefetches) {
    AsyncCopy c;
    c.buffer = w.buffer;
    c.start = w.start;
    c.done = w.done;
    c.bytes = w.bytes;
    copies.push_back(c);
  }
  std::stable_sort(copies.begin(), copies.end(),
                   [](const AsyncCopy& a, const AsyncCopy& b) { return a.start < b.start; });
  double queue_free = 0;
  return RunStepTimeline(steps, copies, [&](std::size_t c) {
    return CopyService{&queue_free, cost.CopySeconds(copies[c].bytes)};
  });
}

double TimeAllDefault(const ProgramAnalysis& analysis, const CostModel& cost) {
  return TotalSeconds(
      TimeSteps(analysis, cost, [&](OpId op) { return cost.OpElapsedAllDefault(op); }));
}

double TimeAllFast(const ProgramAnalysis& analysis, const CostModel& cost) {
  return TotalSeconds(
      TimeSteps(analysis, cost, [&](OpId op) { return cost.OpElapsedAllAlternate(op); }));
}

std::int64_t MaxOutstandingCopies(std::span<const AsyncCopy> copies) {
  // (time, phase): phase 0 opens a copy at its start, phase 1 closes it after
  // its done step, so copies meeting at one step count together.
  std::vector<std::pair<TimeStep, int>> events;
  events.reserve(copies.size() * 2);
  for (const AsyncCopy& c : copies) {
    events.emplace_back(c.start, 0);
    events.emplace_back(std::max(c.start, c.done) + 1, -1);
  }
  std::sort(events.begin(), events.end());
  std::int64_t open = 0, most = 0;
  for (const auto& [time, phase] : events) {
    open += phase == 0 ? 1 : -1;
    most = std::max(most, open);
  }
  return most;
}

void CountCopies(std::span<const AsyncCopy> copies, const MsaOptions& options, MsaStats& stats) {
  for (const AsyncCopy& c : copies) {
    if (c.kind == CopyKind::kPrefetch) {
      ++stats.prefetches;
      stats.prefetch_bytes += c.bytes;
      if (c.slice_count > 1) {
        ++stats.prefetch_slices;
        if (c.slice_index == 0) ++stats.sliced_prefetches;
      }
      if (c.block) ++stats.block_prefetches;
    } else {
      ++stats.evictions;
      stats.eviction_bytes += c.bytes;
    }
  }
  stats.max_outstanding_copies = MaxOutstandingCopies(copies);
  stats.max_outstanding_prefetches = options.max_outstanding_prefetches;
  stats.max_outstanding_evictions = options.max_outstanding_evictions;
}

}  // namespace memplan
