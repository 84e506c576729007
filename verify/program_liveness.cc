#include "verify/program_liveness.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

namespace memplan::verify_internal {
namespace {

constexpr TimeStep kUnset = -1;

bool Known(const Program& program, ComputationId c) {
  return c >= 0 && c < static_cast<ComputationId>(program.computations.size());
}

// Step of every op and first/last step of every computation.
struct Steps {
  std::vector<TimeStep> op;
  std::vector<TimeStep> first;
  std::vector<TimeStep> last;
  TimeStep count = 0;
};

// One computation being walked: its next op, and the next callee of that op
// to run before it.
struct Walk {
  ComputationId computation;
  std::size_t op = 0;
  std::size_t callee = 0;
  std::optional<std::int64_t> wave = std::nullopt;  // of the computation's previous op
};

void RunRoot(const Program& program, ComputationId root, Steps& steps) {
  std::vector<Walk> stack = {Walk{root}};
  steps.first[root] = steps.count;
  while (!stack.empty()) {
    Walk& w = stack.back();
    const Computation& comp = program.computations[w.computation];
    if (w.op == comp.ops.size()) {
      steps.last[w.computation] = steps.count - 1;
      stack.pop_back();
      continue;
    }
    const Op& op = program.ops[comp.ops[w.op]];
    if (w.callee < op.callees.size()) {
      const ComputationId c = op.callees[w.callee++];
      if (Known(program, c) && steps.first[c] == kUnset) {
        steps.first[c] = steps.count;
        stack.push_back(Walk{c});  // `w` is not used after this
      }
      continue;
    }
    // The previous op of this computation took the latest step (its callees
    // ran before it), which an op of its wave without callees shares.
    const bool same_wave = op.callees.empty() && op.wave && w.wave == op.wave;
    steps.op[comp.ops[w.op]] = same_wave ? steps.count - 1 : steps.count++;
    w.wave = op.wave;
    ++w.op;
    w.callee = 0;
  }
}

Steps NumberSteps(const Program& program) {
  Steps steps;
  steps.op.assign(program.ops.size(), kUnset);
  steps.first.assign(program.computations.size(), kUnset);
  steps.last.assign(program.computations.size(), kUnset);
  if (!Known(program, program.entry)) return steps;
  for (ComputationId c = 0; c < static_cast<ComputationId>(program.computations.size()); ++c) {
    if (program.computations[c].initializer && c != program.entry && steps.first[c] == kUnset) {
      RunRoot(program, c, steps);
    }
  }
  if (steps.first[program.entry] == kUnset) RunRoot(program, program.entry, steps);
  return steps;
}

// [first, last] step at which each value holds data; first = kUnset when never.
std::vector<StepRange> ValueSteps(const Program& program, const Steps& steps) {
  std::vector<StepRange> live(program.values.size(), StepRange{kUnset, kUnset});
  for (ValueId v = 0; v < static_cast<ValueId>(program.values.size()); ++v) {
    const Value& value = program.values[v];
    TimeStep def = kUnset;
    if (value.defining_op != kNoId) {
      def = steps.op[value.defining_op];
    } else if (value.computation == program.entry) {
      def = 0;
    } else if (Known(program, value.computation)) {
      def = steps.first[value.computation];
    }
    if (def != kUnset) live[v] = {def, def};
  }
  const auto read_at = [&](ValueId v, TimeStep t) {
    if (live[v].first != kUnset && t != kUnset) live[v].last = std::max(live[v].last, t);
  };
  for (OpId id = 0; id < static_cast<OpId>(program.ops.size()); ++id) {
    const Op& op = program.ops[id];
    for (ValueId v : op.operands) {
      read_at(v, steps.op[id]);
      // An X-done completes its X-start, which reads its operands until then.
      const OpId start = program.values[v].defining_op;
      if (op.kind == OpKind::kAsyncDone && start != kNoId &&
          program.ops[start].kind == OpKind::kAsyncStart) {
        for (ValueId read : program.ops[start].operands) read_at(read, steps.op[id]);
      }
    }
  }
  for (ComputationId c = 0; c < static_cast<ComputationId>(program.computations.size()); ++c) {
    const bool whole_run = c == program.entry || program.computations[c].initializer;
    for (ValueId v : program.computations[c].results) {
      read_at(v, whole_run ? steps.count - 1 : steps.last[c]);
    }
  }
  return live;
}

// A result whose gathered operands fill it (their slices are disjoint, as
// the verifier's gather rule checks) was written by their producers: its own
// op writes nothing.
bool GathersEveryByte(const Program& program, const Value& value) {
  if (value.gathers.empty()) return false;
  Bytes filled = 0;
  for (const GatheredOperand& g : value.gathers) {
    if (g.operand < 0 || g.operand >= static_cast<ValueId>(program.values.size())) return false;
    filled += program.values[g.operand].size;
  }
  return filled == value.size;
}

}  // namespace

ProgramSteps NumberProgram(const Program& program) {
  ProgramSteps out;
  Steps steps = NumberSteps(program);
  out.value = ValueSteps(program, steps);
  out.op = std::move(steps.op);
  return out;
}

std::vector<std::vector<StepRange>> DeadSteps(const Program& program, const BufferSet& buffers) {
  const std::vector<StepRange> live = ValueSteps(program, NumberSteps(program));
  std::vector<std::vector<StepRange>> dead(buffers.buffers.size());
  std::vector<StepRange> pieces;
  for (std::size_t id = 0; id < buffers.buffers.size(); ++id) {
    const Buffer& b = buffers.buffers[id];
    pieces.clear();
    for (ValueId v : b.values) {
      if (v < 0 || v >= static_cast<ValueId>(live.size()) || live[v].first == kUnset) {
        pieces.clear();  // a value the program cannot place: no gaps
        break;
      }
      pieces.push_back(live[v]);
    }
    if (pieces.empty()) continue;
    std::sort(pieces.begin(), pieces.end(), [](const StepRange& x, const StepRange& y) {
      return std::pair(x.first, x.last) < std::pair(y.first, y.last);
    });
    std::vector<StepRange> holes;
    TimeStep reached = pieces.front().last;
    for (const StepRange& p : pieces) {
      if (p.first > reached + 1) holes.push_back({reached + 1, p.first - 1});
      reached = std::max(reached, p.last);
    }
    if (pieces.front().first == b.start && reached == b.end) dead[id] = std::move(holes);
  }
  return dead;
}

std::vector<BufferWrites> WriteSteps(const Program& program, const BufferSet& buffers) {
  const Steps steps = NumberSteps(program);
  const auto count = static_cast<ValueId>(program.values.size());
  std::vector<bool> entry_result(program.values.size(), false);
  if (Known(program, program.entry)) {
    for (ValueId v : program.computations[program.entry].results) {
      if (v >= 0 && v < count) entry_result[v] = true;
    }
  }
  std::vector<BufferWrites> writes(buffers.buffers.size());
  for (std::size_t id = 0; id < buffers.buffers.size(); ++id) {
    BufferWrites& w = writes[id];
    for (ValueId v : buffers.buffers[id].values) {
      if (v < 0 || v >= count) continue;
      const Value& value = program.values[v];
      if (value.defining_op == kNoId) {
        w.boundary |= value.computation == program.entry;
        continue;
      }
      w.boundary |= entry_result[v];
      const Op& op = program.ops[value.defining_op];
      const bool writes_data = op.kind == OpKind::kCompute || op.kind == OpKind::kConstant;
      if (writes_data && value.alias != AliasKind::kView && !GathersEveryByte(program, value) &&
          steps.op[value.defining_op] != kUnset) {
        w.steps.push_back(steps.op[value.defining_op]);
      }
    }
    std::sort(w.steps.begin(), w.steps.end());
    w.steps.erase(std::unique(w.steps.begin(), w.steps.end()), w.steps.end());
  }
  return writes;
}

}  // namespace memplan::verify_internal
