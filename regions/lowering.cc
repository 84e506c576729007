#include "regions/lowering.h"

#include <algorithm>
#include <optional>

namespace memplan {
namespace {

class OpLowering {
 public:
  OpLowering(const Program& program, OpId o, TimeStep time, const LoweringContext& context)
      : program_(program), op_(program.ops[o]), o_(o), time_(time), context_(context) {}

  std::vector<Command> Run() {
    const std::string& opcode = op_.opcode;
    if (op_.kind == OpKind::kConstant || opcode == "alloca" || opcode == "alloc" || AllResultsAreViews() ||
        op_.kind == OpKind::kExecute || op_.kind == OpKind::kWhile ||
        op_.kind == OpKind::kConditional) {
      return {};
    }
    if (opcode == "splat" || opcode == "fill") {
      Command c = Make(CommandKind::kFill);
      for (std::size_t r = 0; r < op_.results.size(); ++r) AddResult(c, r, CommandRangeFor(r));
      Emit(std::move(c));
    } else if (opcode == "update" || opcode == "copy") {
      Command c = Make(CommandKind::kCopy);
      AddOperand(c, 0, Access::kRead);
      for (std::size_t r = 0; r < op_.results.size(); ++r) AddResult(c, r, CommandRangeFor(r));
      Emit(std::move(c));
    } else if (opcode == "slice" || opcode == "clone") {
      Command c = Make(CommandKind::kCopy);
      AddOperand(c, 0, Access::kRead);
      AddFreshResults(c);
      Emit(std::move(c));
    } else if (opcode == "transfer") {
      LowerTransfer();
    } else if (opcode == "collective") {
      Command c = Make(CommandKind::kCollective);
      c.detail = StringAttribute(op_, "collective").value_or("");
      AddOperand(c, 0, Access::kRead);
      for (std::size_t r = 0; r < op_.results.size(); ++r) AddResult(c, r, CommandRangeFor(r));
      Emit(std::move(c));
    } else if (opcode == "barrier") {
      Command c = Make(CommandKind::kBarrier);
      for (std::size_t i = 0; i < op_.operands.size(); ++i) AddOperand(c, i, Access::kRead);
      if (!c.ranges.empty()) Emit(std::move(c));
    } else if (opcode == "load") {
      Command c = Make(CommandKind::kLoad);
      for (std::size_t i = 0; i < op_.operands.size(); ++i) AddOperand(c, i, Access::kRead);
      AddFreshResults(c);  // the loaded value, held by the host
      Emit(std::move(c));
    } else if (opcode == "store") {
      Command c = Make(CommandKind::kStore);
      if (!op_.operands.empty()) AddOperand(c, 0, Access::kRead);
      for (std::size_t r = 0; r < op_.results.size(); ++r) AddResult(c, r, CommandRangeFor(r));
      Emit(std::move(c));
    } else {
      LowerBindings(op_.kind == OpKind::kCall ? CommandKind::kCall : CommandKind::kDispatch);
    }
    return std::move(commands_);
  }

 private:
  bool AllResultsAreViews() const {
    return !op_.results.empty() && std::all_of(op_.results.begin(), op_.results.end(), [&](ValueId r) {
      return program_.values[r].alias == AliasKind::kView || program_.values[r].is_timepoint;
    });
  }

  Command Make(CommandKind kind) const {
    Command c;
    c.kind = kind;
    c.op = o_;
    c.time = time_;
    c.concurrent = op_.wave ? static_cast<std::int32_t>(*op_.wave) : -1;
    return c;
  }

  void Emit(Command c) {
    if (!c.ranges.empty()) commands_.push_back(std::move(c));
  }

  // Operand i's range: its explicit range or the whole value.
  OperandRange OperandRangeOf(std::size_t i) const {
    if (i < op_.operand_ranges.size() && op_.operand_ranges[i]) return *op_.operand_ranges[i];
    return OperandRange{SizeExpr(), SizeExprOf(program_.values[op_.operands[i]])};
  }

  // Result r's write range: for a result tied to an operand, the operand's
  // range (same storage); otherwise the whole result.
  OperandRange CommandRangeFor(std::size_t r) const {
    const Value& result = program_.values[op_.results[r]];
    if (result.alias == AliasKind::kTied) {
      for (std::size_t i = 0; i < op_.operands.size(); ++i) {
        if (op_.operands[i] == result.alias_of) return OperandRangeOf(i);
      }
    }
    return OperandRange{SizeExpr(), SizeExprOf(result)};
  }

  void AddRange(Command& c, ValueId v, const OperandRange& range, Access access) const {
    const Value& value = program_.values[v];
    if (value.is_timepoint || range.length == SizeExpr()) return;
    CommandRange cr;
    cr.offset = range.offset;
    cr.length = range.length;
    cr.access = access;
    cr.value = v;
    c.ranges.push_back(std::move(cr));
  }

  void AddOperand(Command& c, std::size_t i, Access access) const {
    if (i < op_.operands.size()) AddRange(c, op_.operands[i], OperandRangeOf(i), access);
  }

  void AddResult(Command& c, std::size_t r, const OperandRange& range) const {
    AddRange(c, op_.results[r], range, Access::kWrite);
  }

  void AddFreshResults(Command& c) const {
    for (std::size_t r = 0; r < op_.results.size(); ++r) {
      if (program_.values[op_.results[r]].alias == AliasKind::kNone) AddResult(c, r, CommandRangeFor(r));
    }
  }

  void LowerTransfer() {
    const std::string& here = context_.affinity;
    const auto staging = [&](ValueId v) {
      return static_cast<std::size_t>(v) < context_.value_lifetime.size() &&
             context_.value_lifetime[v] == Lifetime::kStaging;
    };
    const std::optional<std::string> from = StringAttribute(op_, "source_affinity");
    const std::optional<std::string> to = StringAttribute(op_, "target_affinity");
    const bool comes_in = (from && *from != here) ||
                          (!op_.operands.empty() && staging(op_.operands[0]));
    bool goes_out = to && *to != here;
    for (ValueId r : op_.results) goes_out = goes_out || staging(r);

    if (comes_in) {
      Command c = Make(CommandKind::kInvalidate);
      c.detail = from.value_or("staging");
      AddOperand(c, 0, Access::kRead);
      Emit(std::move(c));
    }
    Command copy = Make(CommandKind::kCopy);
    copy.detail = to.value_or("");
    AddOperand(copy, 0, Access::kRead);
    for (std::size_t r = 0; r < op_.results.size(); ++r) AddResult(copy, r, CommandRangeFor(r));
    Emit(std::move(copy));
    if (goes_out) {
      Command c = Make(CommandKind::kFlush);
      c.detail = to.value_or("staging");
      for (std::size_t r = 0; r < op_.results.size(); ++r) {
        AddRange(c, op_.results[r], CommandRangeFor(r), Access::kRead);
      }
      Emit(std::move(c));
    }
  }

  // Dispatch-like bindings: operands read (read-write with the tied result),
  // fresh results written.
  void LowerBindings(CommandKind kind) {
    Command c = Make(kind);
    c.detail = kind == CommandKind::kCall && !op_.callees.empty()
                   ? program_.computations[op_.callees.front()].name
                   : op_.opcode;
    for (std::size_t i = 0; i < op_.operands.size(); ++i) {
      const ValueId operand = op_.operands[i];
      ValueId tied = kNoId;
      for (ValueId r : op_.results) {
        const Value& result = program_.values[r];
        if (result.alias == AliasKind::kTied && result.alias_of == operand) tied = r;
      }
      if (tied == kNoId) {
        AddOperand(c, i, Access::kRead);
      } else {
        AddRange(c, tied, OperandRangeOf(i), Access::kReadWrite);
      }
    }
    AddFreshResults(c);
    // The op's scratch workspace: a read-write binding of a buffer with no
    // value (ResolveCommandRanges places it through the op).
    if (op_.scratch_bytes > 0) {
      CommandRange scratch;
      scratch.length = SizeExpr::Constant(op_.scratch_bytes);
      scratch.access = Access::kReadWrite;
      c.ranges.push_back(std::move(scratch));
    }
    Emit(std::move(c));
  }

  const Program& program_;
  const Op& op_;
  OpId o_;
  TimeStep time_;
  const LoweringContext& context_;
  std::vector<Command> commands_;
};

}  // namespace

std::vector<Command> LowerOp(const Program& program, OpId o, TimeStep time,
                             const LoweringContext& context) {
  return OpLowering(program, o, time, context).Run();
}

}  // namespace memplan
