#include "msa/problem.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>

namespace memplan {
namespace {

// Ops whose operands and results are no accesses of their own: the called
// computations' ops access the storage.
bool IsControlFlow(OpKind kind) {
  switch (kind) {
    case OpKind::kWhile:
    case OpKind::kConditional:
    case OpKind::kCall:
    case OpKind::kExecute:
    case OpKind::kAsyncStart:
    case OpKind::kAsyncDone:
      return true;
    default:
      return false;
  }
}

// Control flow that keeps the buffers it touches in default memory: an
// execution region's commands and an async pair move data on their own.
// While, call and conditional are planned (msa/control_scopes.h).
bool KeepsDefault(OpKind kind) {
  switch (kind) {
    case OpKind::kExecute:
    case OpKind::kAsyncStart:
    case OpKind::kAsyncDone:
      return true;
    default:
      return false;
  }
}

// The opcode without a namespace ("onnx.MatMul" -> "matmul"), lower case,
// without '-' and '_'.
std::string BaseOpcode(std::string_view opcode) {
  const std::size_t dot = opcode.rfind('.');
  if (dot != std::string_view::npos) opcode.remove_prefix(dot + 1);
  std::string base;
  for (char c : opcode) {
    if (c != '-' && c != '_') base.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return base;
}

// The reference's "does not look like an activation" test for one read:
// the weight (non-first) operand of a convolution or matrix product, or the
// table of a gather.
bool WeightLikeRead(std::string_view opcode, std::size_t position) {
  const std::string base = BaseOpcode(opcode);
  if (base == "conv" || base == "convolution" || base == "convtranspose" || base == "dot" ||
      base == "matmul" || base == "gemm") {
    return position >= 1;
  }
  return base == "gather" && position == 0;
}

// True if `op` only makes a view of operand `position` (its users are
// reads of the same buffer and are judged themselves).
bool ViewsOperand(const Program& program, const Op& op, std::size_t position) {
  for (ValueId r : op.results) {
    const Value& v = program.values[r];
    if (v.alias == AliasKind::kView && v.alias_of == op.operands[position]) return true;
    for (const GatheredOperand& g : v.gathers) {
      if (g.operand == op.operands[position]) return true;  // already in place in the result
    }
  }
  return false;
}

// True if the producers of `result`'s gathered operands write every byte of
// it (an outer-axis concat made of views): its op moves no data.
bool GathersAllBytes(const Program& program, ValueId result) {
  const Value& v = program.values[result];
  if (v.gathers.empty()) return false;
  Bytes covered = 0;  // the slices are disjoint (ValidateProgram)
  for (const GatheredOperand& g : v.gathers) covered += program.values[g.operand].size;
  return covered == v.size;
}

struct BufferFacts {
  bool touches_control = false;
  bool entry_param = false;
  bool entry_result = false;
  bool weight_reads_only = true;
  bool read = false;
};

}  // namespace

MsaProblem BuildMsaProblem(const Program& program, const ProgramAnalysis& analysis,
                           const CostModel& cost, Bytes fast_memory_bytes) {
  const FlatSchedule& schedule = analysis.schedule;
  const std::vector<Buffer>& buffers = analysis.buffers.buffers;
  MsaProblem problem;
  problem.time_steps = analysis.buffers.time_steps;

  std::vector<ComputationId> owner(static_cast<std::size_t>(problem.time_steps),
                                   std::max<ComputationId>(program.entry, 0));
  for (OpId op : schedule.order) owner[schedule.op_time[op]] = program.ops[op].computation;
  problem.timeline = LocalTimeline(std::move(owner), program.entry);
  problem.scopes = ControlScopes(program, schedule);
  problem.spans = schedule.spans;

  std::vector<BufferFacts> facts(buffers.size());
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    for (ValueId v : buffers[b].values) {
      const Value& value = program.values[v];
      if (value.defining_op == kNoId && value.computation == program.entry) facts[b].entry_param = true;
    }
  }
  if (program.entry != kNoId) {
    for (ValueId v : program.computations[program.entry].results) {
      if (analysis.value_buffer[v] != kNoId) facts[analysis.value_buffer[v]].entry_result = true;
    }
  }

  problem.buffers.resize(buffers.size());
  auto access_at = [&](BufferId b, TimeStep t) -> BufferAccess& {
    std::vector<BufferAccess>& list = problem.buffers[b].accesses;
    if (list.empty() || list.back().time != t) list.push_back(BufferAccess{t, false, false, 0});
    return list.back();
  };
  std::vector<int> positions;
  for (OpId op_id : schedule.order) {
    const Op& op = program.ops[op_id];
    const TimeStep t = schedule.op_time[op_id];
    const OpBuffers& ob = analysis.op_buffers[op_id];
    const bool control = IsControlFlow(op.kind);
    const bool keeps_default = KeepsDefault(op.kind);
    double output_bytes = 0;
    for (ValueId r : op.results) output_bytes += static_cast<double>(program.values[r].size);
    for (std::size_t i = 0; i < ob.operands.size(); ++i) {
      const BufferId b = ob.operands[i];
      if (b == kNoId) continue;
      if (control) {
        facts[b].touches_control |= keeps_default;
        // A while, call or conditional reads its operands at its own step
        // (where the verifier counts the use; for a conditional also its
        // predicate): a free read, but the data must be there.
        if (!keeps_default) {
          BufferAccess& access = access_at(b, t);
          access.control = access.saving_s == 0 && !access.write;
        }
        continue;
      }
      if (!ViewsOperand(program, op, i) && !WeightLikeRead(op.opcode, i)) {
        facts[b].weight_reads_only = false;
      }
      // Handle each buffer once per op, with all positions it is read at.
      if (std::find(ob.operands.begin(), ob.operands.begin() + static_cast<std::ptrdiff_t>(i), b) !=
          ob.operands.begin() + static_cast<std::ptrdiff_t>(i)) {
        continue;
      }
      positions.clear();
      for (std::size_t j = i; j < ob.operands.size(); ++j) {
        if (ob.operands[j] == b) positions.push_back(static_cast<int>(j));
      }
      const double saving = cost.OpElapsedAllDefault(op_id) - cost.OpElapsed(op_id, positions, {});
      BufferAccess& access = access_at(b, t);
      access.saving_s = std::max(access.saving_s, saving);
      for (int position : positions) access.used_bytes += cost.OperandBytesAccessed(op_id, position);
      facts[b].read = true;
      problem.buffers[b].reader_output_bytes += output_bytes;
    }
    for (std::size_t r = 0; r < ob.results.size(); ++r) {
      const BufferId b = ob.results[r];
      if (b == kNoId) continue;
      if (control) {
        facts[b].touches_control |= keeps_default;
        continue;
      }
      if (program.values[op.results[r]].alias != AliasKind::kView &&
          !GathersAllBytes(program, op.results[r])) {
        BufferAccess& access = access_at(b, t);
        access.write = true;
        access.used_bytes += cost.ResultBytesAccessed(op_id, static_cast<int>(r));
      }
    }
    if (ob.scratch != kNoId) problem.scratch.push_back(ob.scratch);
  }

  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const Buffer& buffer = buffers[i];
    const BufferFacts& f = facts[i];
    MsaBuffer& mb = problem.buffers[i];
    mb.name = buffer.name;
    mb.size = buffer.size;
    mb.start = buffer.start;
    mb.end = buffer.end;
    mb.outlives_run = !IsReusable(buffer.lifetime);
    mb.constant = buffer.lifetime == Lifetime::kConstant;
    mb.entry_parameter = f.entry_param;
    mb.defined_by_op = !mb.accesses.empty() && mb.accesses.front().write &&
                       mb.accesses.front().time == buffer.start;
    if (buffer.space) {
      mb.policy = *buffer.space == kAlternateSpace ? AltPolicy::kPinnedAlternate
                  : *buffer.space == kDefaultSpace ? AltPolicy::kDefaultOnly
                                                   : AltPolicy::kOtherSpace;
    } else if (buffer.values.empty() || buffer.size <= 0 || buffer.size > fast_memory_bytes ||
               f.touches_control) {
      mb.policy = AltPolicy::kDefaultOnly;  // scratch buffers are placed on their own
    } else if (buffer.lifetime == Lifetime::kTransient && !f.entry_param && !f.entry_result &&
               mb.defined_by_op && mb.accesses.back().time == buffer.end) {
      mb.policy = AltPolicy::kAnywhere;
    } else {
      mb.policy = AltPolicy::kReadCopies;
    }
    mb.windowable = !buffer.space && !buffer.values.empty() && buffer.size > 0 && !f.touches_control;
    mb.boundary =
        mb.policy == AltPolicy::kReadCopies && (f.entry_param || f.entry_result) &&
        (buffer.lifetime == Lifetime::kExternal || buffer.lifetime == Lifetime::kTransient);
    for (BufferAccess& a : mb.accesses) {
      const bool definition = mb.defined_by_op && a.time == mb.start;
      a.alternate_ok = mb.policy == AltPolicy::kAnywhere ||
                       (mb.policy == AltPolicy::kReadCopies &&
                        (!a.write || (mb.boundary && !definition)));
    }
    mb.weight_parameter =
        mb.policy == AltPolicy::kReadCopies && f.entry_param && !f.entry_result && f.read &&
        f.weight_reads_only &&
        std::none_of(mb.accesses.begin(), mb.accesses.end(), [](const BufferAccess& a) { return a.write; });
    if (mb.policy == AltPolicy::kAnywhere || mb.policy == AltPolicy::kReadCopies) {
      mb.memory_boundedness = cost.MemoryBoundedness(static_cast<BufferId>(i));
    }
  }
  return problem;
}

}  // namespace memplan
