#include "msa/loop_detect.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "absl/strings/str_cat.h"

namespace memplan {
namespace {

// The periods worth checking: distances to the next equal key, frequent
// enough to make min_iterations iterations, the most frequent first.
std::vector<TimeStep> CandidatePeriods(std::span<const std::int64_t> keys,
                                       std::int64_t min_iterations) {
  std::unordered_map<std::int64_t, TimeStep> last_seen;
  std::unordered_map<TimeStep, std::int64_t> count;
  for (std::size_t t = 0; t < keys.size(); ++t) {
    if (keys[t] < 0) continue;
    auto [it, inserted] = last_seen.try_emplace(keys[t], static_cast<TimeStep>(t));
    if (!inserted) {
      ++count[static_cast<TimeStep>(t) - it->second];
      it->second = static_cast<TimeStep>(t);
    }
  }
  std::vector<std::pair<std::int64_t, TimeStep>> ranked;  // (-count, period)
  for (const auto& [period, n] : count) {
    if (n >= min_iterations - 1) ranked.emplace_back(-n, period);
  }
  std::sort(ranked.begin(), ranked.end());
  if (ranked.size() > kMaxCandidatePeriods) ranked.resize(kMaxCandidatePeriods);
  std::vector<TimeStep> periods;
  for (const auto& [n, period] : ranked) periods.push_back(period);
  return periods;
}

}  // namespace

std::optional<DetectedLoop> FindRepeatingRun(std::span<const std::int64_t> keys,
                                             std::int64_t min_iterations) {
  const auto n = static_cast<TimeStep>(keys.size());
  std::optional<DetectedLoop> best;
  auto better = [&](const DetectedLoop& c) {
    if (!best) return true;
    const TimeStep covered = c.period * c.iterations, best_covered = best->period * best->iterations;
    return std::make_tuple(-covered, c.period, c.start) <
           std::make_tuple(-best_covered, best->period, best->start);
  };
  for (TimeStep period : CandidatePeriods(keys, min_iterations)) {
    // Runs of steps t with keys[t] == keys[t + period]: a run of r such
    // steps from s makes [s, s + r + period) periodic.
    TimeStep t = 0;
    while (t + period < n) {
      if (keys[t] < 0 || keys[t] != keys[t + period]) {
        ++t;
        continue;
      }
      const TimeStep s = t;
      while (t + period < n && keys[t] >= 0 && keys[t] == keys[t + period]) ++t;
      const DetectedLoop candidate{s, period, (t - s + period) / period};
      if (candidate.iterations >= min_iterations && better(candidate)) best = candidate;
    }
  }
  return best;
}

std::vector<std::int64_t> StepFingerprints(const Program& program, const ProgramAnalysis& analysis) {
  const FlatSchedule& schedule = analysis.schedule;
  const auto steps = static_cast<std::size_t>(std::max<TimeStep>(0, schedule.time_steps));
  std::vector<OpId> op_at(steps, kNoId);
  std::vector<int> ops_at(steps, 0);
  for (OpId op : schedule.order) {
    const auto t = static_cast<std::size_t>(schedule.op_time[op]);
    op_at[t] = op;
    ++ops_at[t];
  }
  std::unordered_map<std::string, std::int64_t> ids;
  std::vector<std::int64_t> keys(steps, -1);
  for (std::size_t t = 0; t < steps; ++t) {
    if (ops_at[t] != 1) continue;
    const Op& op = program.ops[op_at[t]];
    if (op.kind != OpKind::kCompute || op.computation != program.entry) continue;
    std::string text = absl::StrCat(op.opcode, "|", op.cost.flops, "|", op.cost.transcendentals, "|",
                                    op.cost.bytes_accessed.value_or(-1), "|", op.scratch_bytes, "|");
    for (ValueId v : op.operands) absl::StrAppend(&text, program.values[v].size, ",");
    absl::StrAppend(&text, "|");
    for (ValueId v : op.results) absl::StrAppend(&text, program.values[v].size, ",");
    keys[t] = ids.try_emplace(std::move(text), static_cast<std::int64_t>(ids.size())).first->second;
  }
  return keys;
}

std::optional<DetectedLoop> DetectLoop(const Program& program, const ProgramAnalysis& analysis,
                                       std::int64_t min_iterations) {
  const std::vector<std::int64_t> keys = StepFingerprints(program, analysis);
  return FindRepeatingRun(keys, min_iterations);
}

}  // namespace memplan
