#include "msa/simulator.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace memplan {
namespace {

// Per buffer, its alternate segments and the step from which each holds the
// data (the opening prefetch's done, else the segment's start).
class AlternateResidency {
 public:
  explicit AlternateResidency(const MsaResult& result) : result_(result) {
    arrival_.resize(result.alternate.size());
    for (std::size_t b = 0; b < result.alternate.size(); ++b) {
      for (const Allocation& a : result.alternate[b]) arrival_[b].push_back(a.start);
    }
    for (const AsyncCopy& c : result.copies) {
      if (c.kind != CopyKind::kPrefetch || c.buffer < 0 ||
          static_cast<std::size_t>(c.buffer) >= result.alternate.size()) {
        continue;
      }
      const std::vector<Allocation>& segs = result.alternate[c.buffer];
      for (std::size_t k = 0; k < segs.size(); ++k) {
        // A prefetch issued before the first op (-1) opens a segment at 0.
        if (segs[k].start == std::max<TimeStep>(c.start, 0)) {
          arrival_[c.buffer][k] = std::max(c.start, c.done);
        }
      }
    }
  }

  bool InAlternate(BufferId b, TimeStep t) const {
    if (b < 0 || static_cast<std::size_t>(b) >= result_.alternate.size()) return false;
    const std::vector<Allocation>& segs = result_.alternate[b];
    auto it = std::upper_bound(segs.begin(), segs.end(), t,
                               [](TimeStep time, const Allocation& a) { return time < a.start; });
    if (it == segs.begin()) return false;
    const auto k = static_cast<std::size_t>(std::prev(it) - segs.begin());
    return segs[k].end >= t && t >= arrival_[b][k];
  }

 private:
  const MsaResult& result_;
  std::vector<std::vector<TimeStep>> arrival_;
};

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

}  // namespace memplan
