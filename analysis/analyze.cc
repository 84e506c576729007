#include "analysis/analyze.h"

#include <algorithm>
#include <string>
#include <utility>

#include "analysis/alias_sets.h"
#include "analysis/control_regions.h"
#include "ir/diagnostic.h"

namespace memplan {
namespace {

// Each computation must have exactly one place in the flattened schedule:
// roots (the entry and the initializers) none, the others one call site.
absl::Status CheckCallGraph(const Program& program, const FlatSchedule& schedule) {
  const auto num_computations = static_cast<ComputationId>(program.computations.size());
  if (program.entry < 0 || program.entry >= num_computations) {
    return LocatedError(program.source, SourceLocation{}, "program has no entry computation");
  }
  const std::string entry_name = "@" + program.computations[program.entry].name;
  std::vector<bool> called(program.computations.size(), false);
  for (const Op& op : program.ops) {
    for (ComputationId c : op.callees) {
      if (c < 0 || c >= num_computations) continue;  // nothing to place
      if (c == program.entry) {
        return LocatedError(program.source, op.loc,
                            "entry computation " + entry_name + " must not be called");
      }
      if (program.computations[c].initializer) {
        return LocatedError(program.source, op.loc,
                            "initializer @" + program.computations[c].name + " must not be called");
      }
      if (called[c]) {
        return LocatedError(program.source, op.loc,
                            "computation @" + program.computations[c].name +
                                " is called more than once");
      }
      called[c] = true;
    }
  }
  for (ComputationId c = 0; c < num_computations; ++c) {
    if (schedule.spans[c].first == kNoId) {
      return LocatedError(program.source, program.computations[c].loc,
                          "computation @" + program.computations[c].name +
                              " is not reachable from the entry computation " + entry_name +
                              " or an initializer");
    }
  }
  return absl::OkStatus();
}

// The steps of [hull start, hull end] covered by no member's live range.
// A buffer holds data only while one of its values is live: storage passes
// from one member to the next at an op that reads the old one (tie, view,
// call, while, X-done: the ranges touch) or at the end of a conditional's
// branch (the op's result), and only the taken branch runs, so a branch
// that has not yet defined its result holds nothing of it. Sorting the
// members' ranges costs O(m log m) for m members; at most m - 1 gaps.
std::vector<StepRange> DeadGaps(const AliasSet& set, const std::vector<LiveRange>& ranges) {
  std::vector<StepRange> live;
  for (ValueId v : set.members) {
    if (ranges[v].start != kNoId) live.push_back({ranges[v].start, ranges[v].end});
  }
  std::sort(live.begin(), live.end(), [](const StepRange& a, const StepRange& b) {
    return a.first < b.first || (a.first == b.first && a.last < b.last);
  });
  std::vector<StepRange> gaps;
  TimeStep covered = kNoId;  // last step covered by the ranges seen so far
  for (const StepRange& r : live) {
    if (covered != kNoId && r.first > covered + 1) gaps.push_back({covered + 1, r.first - 1});
    covered = covered == kNoId ? r.last : std::max(covered, r.last);
  }
  return gaps;
}

Buffer MakeBuffer(const Program& program, const AliasSet& set,
                  const std::vector<LiveRange>& ranges) {
  Buffer b;
  b.name = program.values[set.members.front()].name;
  b.values = set.members;
  b.size = set.size;
  b.lifetime = set.lifetime;
  b.space = set.space;
  b.start = ranges[set.members.front()].start;
  b.end = ranges[set.members.front()].end;
  for (ValueId v : set.members) {
    b.start = std::min(b.start, ranges[v].start);
    b.end = std::max(b.end, ranges[v].end);
  }
  if (CompactVector<StepRange> gaps = DeadGaps(set, ranges); !gaps.empty()) {
    b.mutable_gaps() = std::move(gaps);
  }
  return b;
}

}  // namespace

SizeExpr ValueOffsetExpr(const ProgramAnalysis& analysis, ValueId v) {
  auto it = analysis.symbolic_value_offset.find(v);
  return it != analysis.symbolic_value_offset.end() ? it->second
                                                    : SizeExpr::Constant(analysis.value_offset[v]);
}

absl::StatusOr<ProgramAnalysis> AnalyzeProgram(const Program& program) {
  ProgramAnalysis a;
  a.schedule = FlattenSchedule(program);
  if (absl::Status s = CheckCallGraph(program, a.schedule); !s.ok()) return s;
  absl::StatusOr<AliasSets> sets = ComputeAliasSets(program);
  if (!sets.ok()) return sets.status();
  a.value_ranges = ComputeValueLiveRanges(program, a.schedule);

  BufferSet& bs = a.buffers;
  bs.input = program.source;
  bs.time_steps = std::max<TimeStep>(1, a.schedule.time_steps);
  bs.control_regions = ControlRegions(program, a.schedule);
  for (const AliasSet& set : sets->sets) bs.buffers.push_back(MakeBuffer(program, set, a.value_ranges));
  a.value_buffer = std::move(sets->set_of_value);  // sets and regular buffers share numbering
  a.value_offset = std::move(sets->offset_of_value);
  a.symbolic_value_offset = std::move(sets->symbolic_offset_of_value);

  a.op_buffers.resize(program.ops.size());
  for (OpId op_id : a.schedule.order) {
    const Op& op = program.ops[op_id];
    const TimeStep t = a.schedule.op_time[op_id];
    OpBuffers& ob = a.op_buffers[op_id];
    for (ValueId v : op.operands) {
      ob.operands.push_back(a.value_buffer[v]);
      if (a.value_buffer[v] != kNoId) {
        bs.buffers[a.value_buffer[v]].mutable_use_times().push_back(t);
      }
    }
    for (ValueId v : op.results) ob.results.push_back(a.value_buffer[v]);
  }
  for (Buffer& b : bs.buffers) {
    if (b.use_times().empty()) continue;  // no extras to allocate
    CompactVector<TimeStep>& uses = b.mutable_use_times();
    std::sort(uses.begin(), uses.end());
    uses.erase(std::unique(uses.begin(), uses.end()), uses.end());
  }

  for (OpId op_id = 0; op_id < static_cast<OpId>(program.ops.size()); ++op_id) {
    const TimeStep t = a.schedule.op_time[op_id];
    if (program.ops[op_id].scratch_bytes <= 0 || t == kNoId) continue;
    Buffer b;
    b.name = program.OpName(op_id) + ".scratch";
    b.size = program.ops[op_id].scratch_bytes;
    b.start = t;
    b.end = t;
    b.mutable_use_times() = {t};
    a.op_buffers[op_id].scratch = static_cast<BufferId>(bs.buffers.size());
    bs.buffers.push_back(std::move(b));
  }
  return a;
}

}  // namespace memplan
