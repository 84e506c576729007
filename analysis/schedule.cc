#include "analysis/schedule.h"

#include <cstddef>
#include <optional>

namespace memplan {
namespace {

// One computation being flattened: the next op to place and, for an op with
// callees, the next callee to flatten before the op itself takes a step.
struct Frame {
  ComputationId computation = kNoId;
  std::size_t next_op = 0;
  std::size_t next_callee = 0;
  std::int32_t depth = 0;
  std::optional<std::int64_t> prev_wave;  // wave of the op placed just before
  TimeStep prev_time = kNoId;
};

Frame EnterComputation(ComputationId computation, std::int32_t depth) {
  Frame f;
  f.computation = computation;
  f.depth = depth;
  return f;
}

bool ValidComputation(const Program& program, ComputationId c) {
  return c >= 0 && c < static_cast<ComputationId>(program.computations.size());
}

// Places `root` and everything it calls from time `now` on; returns the next
// unused time step.
TimeStep FlattenRoot(const Program& program, ComputationId root, TimeStep now, FlatSchedule& s) {
  std::vector<Frame> stack;
  stack.push_back(EnterComputation(root, 0));
  s.spans[root].first = now;
  while (!stack.empty()) {
    Frame& f = stack.back();
    const Computation& comp = program.computations[f.computation];
    if (f.next_op == comp.ops.size()) {
      s.spans[f.computation].last = now - 1;
      stack.pop_back();
      continue;
    }
    const OpId op_id = comp.ops[f.next_op];
    const Op& op = program.ops[op_id];
    if (f.next_callee < op.callees.size()) {
      const ComputationId callee = op.callees[f.next_callee++];
      // Flatten each computation once; a repeated or recursive call is a
      // validation error and is skipped here rather than looping.
      if (ValidComputation(program, callee) && s.spans[callee].first == kNoId) {
        s.spans[callee].first = now;
        const std::int32_t depth = f.depth + (op.kind == OpKind::kWhile ? 1 : 0);
        stack.push_back(EnterComputation(callee, depth));  // invalidates `f`
      }
      continue;
    }
    const bool shares_wave = op.wave.has_value() && op.wave == f.prev_wave && op.callees.empty();
    const TimeStep t = shares_wave ? f.prev_time : now++;
    s.op_time[op_id] = t;
    s.loop_depth[op_id] = f.depth;
    s.order.push_back(op_id);
    f.prev_wave = op.wave;
    f.prev_time = t;
    f.next_op++;
    f.next_callee = 0;
  }
  return now;
}

}  // namespace

FlatSchedule FlattenSchedule(const Program& program) {
  FlatSchedule s;
  s.op_time.assign(program.ops.size(), kNoId);
  s.loop_depth.assign(program.ops.size(), 0);
  s.spans.assign(program.computations.size(), ComputationSpan{});
  if (!ValidComputation(program, program.entry)) return s;

  TimeStep now = 0;  // the next unused time step
  for (ComputationId c = 0; c < static_cast<ComputationId>(program.computations.size()); ++c) {
    // An initializer already placed (called, which validation rejects) or
    // marked on the entry is not placed twice.
    if (program.computations[c].initializer && c != program.entry && s.spans[c].first == kNoId) {
      now = FlattenRoot(program, c, now, s);
    }
  }
  // A malformed program may call the entry from an initializer: place it once.
  s.time_steps = s.spans[program.entry].first == kNoId ? FlattenRoot(program, program.entry, now, s) : now;
  return s;
}

}  // namespace memplan
