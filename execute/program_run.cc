#include "execute/program_run.h"

#include <algorithm>
#include <set>

#include "fmt/format.h"
#include "ir/dims.h"

namespace memplan {

ProgramRun::ProgramRun(const Program& program, const ProgramLayout& layout,
                       ExecutionMachine& machine, const ExecuteOptions& options)
    : program_(program), layout_(layout), machine_(machine), options_(options) {
  const BufferSet& buffers = machine.buffers();
  for (std::size_t b = 0; b < buffers.buffers.size(); ++b) {
    if (buffers.buffers[b].values.empty()) {
      scratch_buffer_.emplace(buffers.buffers[b].name, static_cast<BufferId>(b));
    }
  }
  for (const Op& op : program.ops) {
    if (op.opcode != "alloca" && op.opcode != "alloc") continue;
    for (ValueId v : op.results) {
      const BufferId b = layout.buffer_of[static_cast<std::size_t>(v)];
      if (b != kNoId) uninitialised_storage_.insert(b);
    }
  }
  if (const auto& regions = machine.plan().regions) {
    for (std::size_t s = 0; s < regions->steps.size(); ++s) {
      const HostStep& step = regions->steps[s];
      if (step.kind != HostStepKind::kExecute || step.region < 0 ||
          static_cast<std::size_t>(step.region) >= regions->regions.size()) {
        continue;
      }
      execute_step_.emplace(regions->regions[static_cast<std::size_t>(step.region)].execute, s);
    }
  }
}

bool ProgramRun::HasStorage(ValueId v) const {
  if (v < 0 || static_cast<std::size_t>(v) >= program_.values.size()) return false;
  const Value& value = program_.values[static_cast<std::size_t>(v)];
  return !value.is_timepoint && value.size > 0 && layout_.buffer_of[static_cast<std::size_t>(v)] != kNoId;
}

std::string ProgramRun::OpLabel(OpId id) const {
  return fmt::format("op %{} (step {})", program_.OpName(id),
                     layout_.op_time[static_cast<std::size_t>(id)]);
}

std::string ProgramRun::ValueLabel(ValueId v) const {
  return "%" + program_.values[static_cast<std::size_t>(v)].name;
}

absl::Status ProgramRun::CheckValue(ValueId v, Bytes lo, Bytes length, const std::string& reader,
                                    bool in_home) {
  if (!HasStorage(v)) return absl::OkStatus();
  const Bytes size = program_.values[static_cast<std::size_t>(v)].size;
  if (length < 0) length = size - lo;
  const Bytes base = layout_.offset_in_buffer[static_cast<std::size_t>(v)];
  return machine_.CheckBuffer(layout_.buffer_of[static_cast<std::size_t>(v)], base + lo,
                              base + lo + length, reader, ValueLabel(v), in_home);
}

absl::Status ProgramRun::WriteValue(ValueId v, Bytes lo, Bytes hi, const std::string& by,
                                    bool in_home) {
  if (!HasStorage(v) || lo >= hi) return absl::OkStatus();
  const Bytes base = layout_.offset_in_buffer[static_cast<std::size_t>(v)];
  const std::int64_t writer = machine_.NewWriter(ValueLabel(v), by);
  return machine_.WriteBuffer(layout_.buffer_of[static_cast<std::size_t>(v)], base + lo, base + hi,
                              writer, in_home);
}

absl::Status ProgramRun::Run() {
  machine_.StartClock();
  if (program_.entry != kNoId) {
    for (ValueId p : program_.computations[static_cast<std::size_t>(program_.entry)].params) {
      if (!HasStorage(p)) continue;
      const Bytes size = program_.values[static_cast<std::size_t>(p)].size;
      if (absl::Status s = WriteValue(p, 0, size, "the caller (a program input)", true); !s.ok()) return s;
    }
  }
  if (const auto& regions = machine_.plan().regions) {
    for (std::size_t s = 0; s < regions->steps.size(); ++s) {
      if (regions->steps[s].kind != HostStepKind::kUpload) continue;
      for (const Command& command : regions->steps[s].commands) {
        if (absl::Status st = RunCommandWave({&command}); !st.ok()) return st;
      }
    }
  }
  if (absl::Status s = machine_.PerformCopiesDone(0); !s.ok()) return s;
  for (std::size_t c = 0; c < program_.computations.size(); ++c) {
    if (!program_.computations[c].initializer) continue;
    if (absl::Status s = RunComputation(static_cast<ComputationId>(c)); !s.ok()) return s;
  }
  if (program_.entry == kNoId) return absl::OkStatus();
  if (absl::Status s = RunComputation(program_.entry); !s.ok()) return s;
  if (layout_.time_steps > 0) {
    if (absl::Status s = machine_.AdvanceTo(layout_.time_steps - 1); !s.ok()) return s;
  }
  for (ValueId r : program_.computations[static_cast<std::size_t>(program_.entry)].results) {
    if (absl::Status s = CheckValue(r, 0, -1, "the caller (reading the program's outputs)", true); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status ProgramRun::RunComputation(ComputationId id) {
  if (id < 0 || static_cast<std::size_t>(id) >= program_.computations.size()) {
    return absl::OkStatus();
  }
  for (OpId op : program_.computations[static_cast<std::size_t>(id)].ops) {
    if (absl::Status s = RunOp(op); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ProgramRun::RunOp(OpId id) {
  const Op& op = program_.ops[static_cast<std::size_t>(id)];
  const TimeStep time = layout_.op_time[static_cast<std::size_t>(id)];
  ++machine_.report().ops;
  switch (op.kind) {
    case OpKind::kWhile:
      if (absl::Status s = RunWhile(op); !s.ok()) return s;
      return machine_.AdvanceTo(time);
    case OpKind::kConditional: {
      if (absl::Status s = RunConditional(op); !s.ok()) return s;
      if (absl::Status s = machine_.AdvanceTo(time); !s.ok()) return s;
      return op.operands.empty() ? absl::OkStatus() : CheckValue(op.operands[0], 0, -1, OpLabel(id));
    }
    case OpKind::kCall:
    case OpKind::kExecute: {
      auto step = execute_step_.find(id);
      if (op.kind == OpKind::kExecute && step != execute_step_.end()) {
        if (absl::Status s = RunRegionCommands(step->second); !s.ok()) return s;
      } else if (!op.callees.empty()) {
        if (absl::Status s = RunComputation(op.callees[0]); !s.ok()) return s;
      }
      return machine_.AdvanceTo(time);
    }
    default:
      return RunCompute(id);
  }
}

absl::Status ProgramRun::RunWhile(const Op& op) {
  if (op.callees.size() < 2) return absl::OkStatus();
  const std::int64_t iterations =
      std::min(op.trip_count.value_or(options_.max_loop_iterations), options_.max_loop_iterations);
  if (absl::Status s = RunComputation(op.callees[0]); !s.ok()) return s;
  for (std::int64_t i = 0; i < iterations; ++i) {
    if (absl::Status s = RunComputation(op.callees[1]); !s.ok()) return s;
    if (absl::Status s = RunComputation(op.callees[0]); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ProgramRun::RunConditional(const Op& op) {
  // Only one branch runs for real: each branch after the first starts from
  // the arguments as they were before the first.
  std::vector<std::pair<BufferId, std::vector<ExecutionMachine::Piece>>> saved;
  for (std::size_t i = 1; i < op.operands.size(); ++i) {
    if (!HasStorage(op.operands[i])) continue;
    const BufferId b = layout_.buffer_of[static_cast<std::size_t>(op.operands[i])];
    saved.emplace_back(b, machine_.Content(b));
  }
  for (std::size_t k = 0; k < op.callees.size(); ++k) {
    if (k > 0) {
      for (const auto& [buffer, pieces] : saved) {
        for (const ExecutionMachine::Piece& p : pieces) {
          if (absl::Status s = machine_.WriteBuffer(buffer, p.lo, p.hi, p.writer); !s.ok()) return s;
        }
      }
    }
    if (absl::Status s = RunComputation(op.callees[k]); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ProgramRun::RunCompute(OpId id) {
  const Op& op = program_.ops[static_cast<std::size_t>(id)];
  const TimeStep time = layout_.op_time[static_cast<std::size_t>(id)];
  if (absl::Status s = machine_.AdvanceTo(time); !s.ok()) return s;
  const std::string reader = OpLabel(id);
  const std::vector<std::int64_t> point = EvaluationPoint(program_);
  const std::vector<std::string> names = DimNames(program_);
  // Each operand's range: [lo, lo + length), length -1 for all of it.
  std::vector<std::pair<Bytes, Bytes>> ranges(op.operands.size(), {0, -1});
  for (std::size_t i = 0; i < op.operands.size() && i < op.operand_ranges.size(); ++i) {
    if (!op.operand_ranges[i]) continue;
    absl::StatusOr<Bytes> lo = SizeAtPoint(op.operand_ranges[i]->offset, point, names);
    absl::StatusOr<Bytes> length = SizeAtPoint(op.operand_ranges[i]->length, point, names);
    if (!lo.ok()) return lo.status();
    if (!length.ok()) return length.status();
    ranges[i] = {*lo, *length};
  }
  const auto check_operands = [&](const std::set<BufferId>& skip) -> absl::Status {
    for (std::size_t i = 0; i < op.operands.size(); ++i) {
      const ValueId v = op.operands[i];
      if (!HasStorage(v) || skip.count(layout_.buffer_of[static_cast<std::size_t>(v)])) continue;
      if (absl::Status s = CheckValue(v, ranges[i].first, ranges[i].second, reader); !s.ok()) return s;
    }
    return absl::OkStatus();
  };
  if (absl::Status s = check_operands({}); !s.ok()) return s;
  if (absl::Status s = machine_.CheckWindows(id, reader); !s.ok()) return s;
  // An async done: the start's operands had to stay intact until now.
  if (op.kind == OpKind::kAsyncDone && !op.operands.empty() && op.operands[0] >= 0) {
    const OpId start = program_.values[static_cast<std::size_t>(op.operands[0])].defining_op;
    if (start != kNoId && program_.ops[static_cast<std::size_t>(start)].kind == OpKind::kAsyncStart) {
      for (ValueId v : program_.ops[static_cast<std::size_t>(start)].operands) {
        if (absl::Status s = CheckValue(v, 0, -1, reader); !s.ok()) return s;
      }
    }
  }
  const std::string by = fmt::format("op %{} at step {}", program_.OpName(id), time);
  std::set<BufferId> written;
  for (ValueId r : op.results) {
    if (!HasStorage(r)) continue;
    const Value& value = program_.values[static_cast<std::size_t>(r)];
    if (value.alias == AliasKind::kView) continue;  // its operand's bytes: no data moves
    written.insert(layout_.buffer_of[static_cast<std::size_t>(r)]);
    // In place over an operand range: only that range is written.
    if (value.alias == AliasKind::kTied) {
      bool partial = false;
      for (std::size_t i = 0; i < op.operands.size(); ++i) {
        if (op.operands[i] != value.alias_of || ranges[i].second < 0) continue;
        partial = true;
        if (absl::Status s = WriteValue(r, ranges[i].first, ranges[i].first + ranges[i].second, by);
            !s.ok()) {
          return s;
        }
        break;
      }
      if (partial) continue;
    }
    // A gathering result leaves its gathered operands' slices to their producers.
    std::vector<std::pair<Bytes, Bytes>> holes;
    for (const GatheredOperand& g : value.gathers) {
      if (g.operand >= 0) holes.push_back({g.offset, g.offset + program_.values[static_cast<std::size_t>(g.operand)].size});
    }
    std::sort(holes.begin(), holes.end());
    Bytes at = 0;
    for (const auto& [lo, hi] : holes) {
      if (absl::Status s = WriteValue(r, at, std::max(at, lo), by); !s.ok()) return s;
      at = std::max(at, hi);
    }
    if (absl::Status s = WriteValue(r, at, value.size, by); !s.ok()) return s;
  }
  if (op.scratch_bytes > 0) {
    auto scratch = scratch_buffer_.find(program_.OpName(id) + ".scratch");
    if (scratch != scratch_buffer_.end()) {
      const std::int64_t writer =
          machine_.NewWriter(fmt::format("the scratch of op %{}", program_.OpName(id)), by);
      const Bytes size = machine_.buffers().buffers[static_cast<std::size_t>(scratch->second)].size;
      if (absl::Status s = machine_.WriteBuffer(scratch->second, 0, size, writer); !s.ok()) return s;
    }
  }
  // Results and scratch are written while the operands are still read.
  if (absl::Status s = check_operands(written); !s.ok()) return s;
  for (ValueId r : op.results) {
    if (absl::Status s = CheckValue(r, 0, -1, reader + " (after writing its results)"); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ProgramRun::RunRegionCommands(std::size_t step_index) {
  const RegionPlan& regions = *machine_.plan().regions;
  const HostStep& step = regions.steps[step_index];
  std::string device = "host";
  if (step.region >= 0 && static_cast<std::size_t>(step.region) < regions.regions.size() &&
      !regions.regions[static_cast<std::size_t>(step.region)].affinity.empty()) {
    device = regions.regions[static_cast<std::size_t>(step.region)].affinity;
  }
  std::vector<const Command*> wave;
  for (const Command& command : step.commands) {
    if (!wave.empty() && (command.concurrent < 0 || wave.front()->concurrent != command.concurrent)) {
      if (absl::Status s = RunCommandWave(wave, device); !s.ok()) return s;
      wave.clear();
    }
    wave.push_back(&command);
  }
  return wave.empty() ? absl::OkStatus() : RunCommandWave(wave, device);
}

}  // namespace memplan
