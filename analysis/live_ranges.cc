#include "analysis/live_ranges.h"

#include <algorithm>

namespace memplan {
namespace {

TimeStep DefinitionTime(const Program& program, const FlatSchedule& schedule, const Value& value) {
  if (value.defining_op != kNoId) return schedule.op_time[value.defining_op];
  if (value.computation == program.entry) return 0;
  return schedule.spans[value.computation].first;  // kNoId when unreachable
}

}  // namespace

std::vector<LiveRange> ComputeValueLiveRanges(const Program& program, const FlatSchedule& schedule) {
  std::vector<LiveRange> ranges(program.values.size());
  for (ValueId v = 0; v < static_cast<ValueId>(program.values.size()); ++v) {
    const Value& value = program.values[v];
    if (value.is_timepoint) continue;
    const TimeStep start = DefinitionTime(program, schedule, value);
    ranges[v] = LiveRange{start, start};
  }
  const auto extend = [&](ValueId v, TimeStep t) {
    if (ranges[v].start != kNoId) ranges[v].end = std::max(ranges[v].end, t);
  };
  for (OpId op_id : schedule.order) {
    const Op& op = program.ops[op_id];
    const TimeStep t = schedule.op_time[op_id];
    OpId extended_start = kNoId;
    for (ValueId v : op.operands) {
      extend(v, t);
      // An X-done's operand is its X-start's result: keep that start's
      // operands live until now (once per start, however many results).
      const OpId producer = program.values[v].defining_op;
      if (op.kind == OpKind::kAsyncDone && producer != kNoId && producer != extended_start &&
          program.ops[producer].kind == OpKind::kAsyncStart) {
        for (ValueId start_operand : program.ops[producer].operands) extend(start_operand, t);
        extended_start = producer;
      }
    }
  }
  for (ComputationId c = 0; c < static_cast<ComputationId>(program.computations.size()); ++c) {
    // The caller reads entry results after the run; initializer results
    // persist like globals.
    const bool to_the_end = c == program.entry || program.computations[c].initializer;
    const TimeStep last = to_the_end ? schedule.time_steps - 1 : schedule.spans[c].last;
    for (ValueId v : program.computations[c].results) extend(v, last);
  }
  return ranges;
}

}  // namespace memplan
