#include "msa/simulator.h"

#include "msa/residency.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace memplan {
namespace {

std::size_t StepCount(const ProgramAnalysis& analysis) {
  return static_cast<std::size_t>(std::max<TimeStep>(1, analysis.schedule.time_steps));
}

// Weighted seconds of every step when each op takes `op_seconds(op)`.
template <typename OpSeconds>
std::vector<double> StepSeconds(const ProgramAnalysis& analysis, const CostModel& cost,
                                OpSeconds op_seconds) {
  std::vector<double> seconds(StepCount(analysis), 0);
  for (OpId op : analysis.schedule.order) {
    const auto t = static_cast<std::size_t>(analysis.schedule.op_time[op]);
    seconds[t] = std::max(seconds[t], op_seconds(op) * cost.ExecutionCount(op));
  }
  return seconds;
}

double Sum(const std::vector<double>& v) {
  double total = 0;
  for (double x : v) total += x;
  return total;
}

}  // namespace

SimulationResult SimulateMsa(const ProgramAnalysis& analysis, const CostModel& cost,
                             const MsaResult& result) {
  const AlternateResidency residency(result);
  std::vector<int> operands, results;
  const std::vector<double> step_seconds = StepSeconds(analysis, cost, [&](OpId op) {
    const TimeStep t = analysis.schedule.op_time[op];
    const OpBuffers& ob = analysis.op_buffers[op];
    operands.clear();
    results.clear();
    for (std::size_t i = 0; i < ob.operands.size(); ++i) {
      if (residency.InAlternate(ob.operands[i], t)) operands.push_back(static_cast<int>(i));
    }
    for (std::size_t i = 0; i < ob.results.size(); ++i) {
      if (residency.InAlternate(ob.results[i], t)) results.push_back(static_cast<int>(i));
    }
    return cost.OpElapsed(op, operands, results);
  });
  const std::size_t steps = step_seconds.size();
  std::vector<double> step_count(steps, 1);
  for (OpId op : analysis.schedule.order) {
    step_count[static_cast<std::size_t>(analysis.schedule.op_time[op])] = cost.ExecutionCount(op);
  }

  // issued[s + 1]: copies issued after step s (s = -1: before step 0);
  // awaited[d]: copies whose done sits before step d (d = steps: at the end).
  std::vector<std::vector<std::size_t>> issued(steps + 1), awaited(steps + 1);
  const auto last = static_cast<TimeStep>(steps);
  for (std::size_t c = 0; c < result.copies.size(); ++c) {
    const TimeStep start = std::clamp<TimeStep>(result.copies[c].start, -1, last - 1);
    const TimeStep done = std::clamp<TimeStep>(result.copies[c].done, start + 1, last);
    issued[static_cast<std::size_t>(start + 1)].push_back(c);
    awaited[static_cast<std::size_t>(done)].push_back(c);
  }

  SimulationResult out;
  std::vector<double> finish(result.copies.size(), 0);
  double clock = 0;
  double queue_free = 0;
  auto issue = [&](std::size_t slot, double count) {
    for (std::size_t c : issued[slot]) {
      const double begin = std::max(clock, queue_free);
      const double busy = cost.CopySeconds(result.copies[c].bytes) * count;
      finish[c] = begin + busy;
      queue_free = finish[c];
      out.copy_busy_s += busy;
    }
  };
  auto await = [&](std::size_t slot) {
    for (std::size_t c : awaited[slot]) {
      if (finish[c] > clock) {
        out.copy_wait_s += finish[c] - clock;
        clock = finish[c];
      }
    }
  };
  issue(0, 1);
  for (std::size_t t = 0; t < steps; ++t) {
    await(t);
    clock += step_seconds[t];
    out.op_s += step_seconds[t];
    issue(t + 1, step_count[t]);
  }
  await(steps);
  out.elapsed_s = clock;
  return out;
}

double TimeAllDefault(const ProgramAnalysis& analysis, const CostModel& cost) {
  return Sum(StepSeconds(analysis, cost, [&](OpId op) { return cost.OpElapsedAllDefault(op); }));
}

double TimeAllFast(const ProgramAnalysis& analysis, const CostModel& cost) {
  return Sum(StepSeconds(analysis, cost, [&](OpId op) { return cost.OpElapsedAllAlternate(op); }));
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
