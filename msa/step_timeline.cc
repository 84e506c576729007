#include "msa/step_timeline.h"

namespace memplan {

double TotalSeconds(const StepTimes& steps) {
  double total = 0;
  for (double x : steps.seconds) total += x;
  return total;
}

SimulationResult RunStepTimeline(const StepTimes& steps, std::span<const AsyncCopy> copies,
                                 const std::function<CopyService(std::size_t)>& serve) {
  const std::size_t n = steps.seconds.size();
  // issued[s + 1]: copies issued after step s (s = -1: before step 0);
  // awaited[d]: copies whose done sits before step d (d = n: at the end).
  std::vector<std::vector<std::size_t>> issued(n + 1), awaited(n + 1);
  const auto last = static_cast<TimeStep>(n);
  for (std::size_t c = 0; c < copies.size(); ++c) {
    const TimeStep start = std::clamp<TimeStep>(copies[c].start, -1, last - 1);
    const TimeStep done = std::clamp<TimeStep>(copies[c].done, start + 1, last);
    issued[static_cast<std::size_t>(start + 1)].push_back(c);
    awaited[static_cast<std::size_t>(done)].push_back(c);
  }

  SimulationResult out;
  std::vector<double> finish(copies.size(), 0);
  double clock = 0;
  auto issue = [&](std::size_t slot, double count) {
    for (std::size_t c : issued[slot]) {
      const CopyService service = serve(c);
      const double begin = std::max(clock, *service.queue_free);
      const double busy = service.seconds * count;
      finish[c] = begin + busy;
      *service.queue_free = finish[c];
      out.copy_busy_s += busy;
      if (service.next_queue_free) {
        const double next_busy = service.next_seconds * count;
        finish[c] = std::max(finish[c], *service.next_queue_free) + next_busy;
        *service.next_queue_free = finish[c];
        out.copy_busy_s += next_busy;
      }
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
  out.step_start_s.assign(n, 0);
  for (std::size_t t = 0; t < n; ++t) {
    await(t);
    out.step_start_s[t] = clock;
    clock += steps.seconds[t];
    out.op_s += steps.seconds[t];
    issue(t + 1, steps.count[t]);
  }
  await(n);
  out.elapsed_s = clock;
  return out;
}

}  // namespace memplan
