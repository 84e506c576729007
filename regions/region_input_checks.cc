#include "regions/region_input_checks.h"

#include <string>
#include <unordered_map>

#include "ir/diagnostic.h"

namespace memplan {
namespace {

std::string Loc(const SourceLocation& loc) {
  return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

std::string Text(const SizeExpr& e, const Program& program) {
  std::vector<std::string> names;
  for (const DimDecl& d : program.dims) names.push_back(d.name);
  return e.ToString(names);
}

// The bytes op operand `i` touches: its range, else the whole operand.
SizeExpr RangeLength(const Program& program, const Op& op, std::size_t i) {
  if (i < op.operand_ranges.size() && op.operand_ranges[i]) return op.operand_ranges[i]->length;
  return SizeExprOf(program.values[op.operands[i]]);
}

// Byte counts that must agree for the op to mean anything.
absl::Status CheckShape(const Program& program, const Op& op) {
  const auto mismatch = [&](const std::string& what) {
    return LocatedError(program.source, op.loc, op.opcode + ": " + what);
  };
  const std::string& code = op.opcode;
  if (code == "collective") {
    if (op.operands.size() != 2) {
      return mismatch("takes (send, receive), got " + std::to_string(op.operands.size()) +
                      " operands");
    }
    if (op.results.size() != 1 || program.values[op.results[0]].alias != AliasKind::kTied ||
        program.values[op.results[0]].alias_of != op.operands[1]) {
      return mismatch("its one result must be tied to the receive operand %" +
                      program.values[op.operands[1]].name);
    }
  }
  if ((code == "copy" || code == "collective") && op.operands.size() == 2) {
    const SizeExpr from = RangeLength(program, op, 0), to = RangeLength(program, op, 1);
    if (!(from == to)) {
      return mismatch("moves " + Text(from, program) + " bytes from %" +
                      program.values[op.operands[0]].name + " into " + Text(to, program) +
                      " bytes of %" + program.values[op.operands[1]].name +
                      "; the two ranges must have equal lengths");
    }
  }
  if (code == "update" && op.operands.size() == 2) {
    const SizeExpr from = SizeExprOf(program.values[op.operands[0]]);
    const SizeExpr to = RangeLength(program, op, 1);
    if (!(from == to)) {
      return mismatch("writes %" + program.values[op.operands[0]].name + " (" +
                      Text(from, program) + " bytes) into a range of " + Text(to, program) +
                      " bytes; they must be equal");
    }
  }
  if ((code == "transfer" || code == "slice" || code == "clone") && !op.operands.empty() &&
      !op.results.empty() && program.values[op.results[0]].alias == AliasKind::kNone) {
    const SizeExpr from = RangeLength(program, op, 0);
    const SizeExpr to = SizeExprOf(program.values[op.results[0]]);
    if (!(from == to)) {
      return mismatch("reads " + Text(from, program) + " bytes of %" +
                      program.values[op.operands[0]].name + " into %" +
                      program.values[op.results[0]].name + " of " + Text(to, program) +
                      " bytes; they must be equal");
    }
  }
  return absl::OkStatus();
}

// Whether operand `i` of `op` is only written in place, never read: the
// target of fill, update, copy, store and a collective's receive operand.
bool WriteOnlyTarget(const Op& op, std::size_t i) {
  const std::string& code = op.opcode;
  if (code == "fill") return i == 0;
  return (code == "update" || code == "copy" || code == "store" || code == "collective") && i == 1;
}

// The ops of a wave run at once: none reads what another one produces.
// Writing in place into another op's result is allowed (IREE's chained
// in-place copies into one target); overlapping writes are races the
// verifier reports.
absl::Status CheckWaveIndependence(const Program& program, const Op& op) {
  if (!op.wave) return absl::OkStatus();
  for (std::size_t i = 0; i < op.operands.size(); ++i) {
    if (WriteOnlyTarget(op, i)) continue;
    const ValueId u = op.operands[i];
    const OpId producer = program.values[u].defining_op;
    if (producer == kNoId) continue;
    const Op& p = program.ops[producer];
    if (p.computation != op.computation || p.wave != op.wave) continue;
    return LocatedError(program.source, op.loc,
                        "in wave " + std::to_string(*op.wave) + ", " + op.opcode + " reads %" +
                            program.values[u].name + ", which " + p.opcode + " at " + Loc(p.loc) +
                            " produces in the same wave; the ops of a wave run at once: move the "
                            "reader to a later wave");
  }
  return absl::OkStatus();
}

// A fresh result sharing storage with an operand would overwrite it while
// the op reads it (e.g. a loop-carried value returned by a region in a loop).
absl::Status CheckFreshResultsOwnTheirStorage(const Program& program,
                                              const ProgramAnalysis& analysis, const Op& op) {
  if (!op.callees.empty()) return absl::OkStatus();  // a call may pass a value through
  for (ValueId r : op.results) {
    const Value& result = program.values[r];
    if (result.alias != AliasKind::kNone || result.is_timepoint) continue;
    for (ValueId u : op.operands) {
      if (program.values[u].is_timepoint || analysis.value_buffer[u] != analysis.value_buffer[r]) {
        continue;
      }
      return LocatedError(program.source, op.loc,
                          "%" + result.name + ", a fresh result of " + op.opcode +
                              ", shares storage with its operand %" + program.values[u].name +
                              " (a loop-carried or aliased value), so the op would overwrite what "
                              "it reads; tie the result (tied(%" + program.values[u].name +
                              ")) or copy the operand first");
    }
  }
  return absl::OkStatus();
}

// A read of a value at or after an in-place write over it sees the new data.
// O(ops + operands) over the covered computations.
absl::Status CheckNoStaleReads(const Program& program, const ProgramAnalysis& analysis,
                               const std::vector<ComputationId>& covered) {
  std::unordered_map<ValueId, OpId> overwritten_by;  // value -> earliest in-place writer
  const auto time_of = [&](OpId o) { return analysis.schedule.op_time[o]; };
  for (ComputationId c : covered) {
    for (OpId o : program.computations[c].ops) {
      for (ValueId r : program.ops[o].results) {
        const Value& result = program.values[r];
        if (result.alias != AliasKind::kTied) continue;
        auto [it, inserted] = overwritten_by.emplace(result.alias_of, o);
        if (!inserted && time_of(o) < time_of(it->second)) it->second = o;
      }
    }
  }
  for (ComputationId c : covered) {
    for (OpId reader : program.computations[c].ops) {
      const Op& op = program.ops[reader];
      for (ValueId u : op.operands) {
        auto it = overwritten_by.find(u);
        if (it == overwritten_by.end() || it->second == reader ||
            time_of(reader) < time_of(it->second)) {
          continue;
        }
        const Op& w = program.ops[it->second];
        ValueId tied = kNoId;
        for (ValueId r : w.results) {
          if (program.values[r].alias == AliasKind::kTied && program.values[r].alias_of == u) tied = r;
        }
        // The text IR's validator refuses reads after the write in text
        // order; what reaches here is mostly a read in the writer's wave.
        const std::string name = program.values[u].name;
        const std::string when = time_of(reader) == time_of(it->second)
                                     ? " in the wave where %" + program.values[tied].name +
                                           " overwrites it in place"
                                     : " after %" + program.values[tied].name +
                                           " overwrote it in place";
        return LocatedError(program.source, op.loc,
                            "%" + name + " is read by " + op.opcode + when + " (at " +
                                LineColumn(w.loc) + "); clone it first (e.g. %" + name +
                                "_copy = clone(%" + name + ")) and read the clone");
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckRegionOps(const Program& program, const ProgramAnalysis& analysis,
                            const std::vector<ComputationId>& computations) {
  for (ComputationId c : computations) {
    for (OpId o : program.computations[c].ops) {
      const Op& op = program.ops[o];
      if (absl::Status s = CheckShape(program, op); !s.ok()) return s;
      if (absl::Status s = CheckWaveIndependence(program, op); !s.ok()) return s;
      if (absl::Status s = CheckFreshResultsOwnTheirStorage(program, analysis, op); !s.ok()) {
        return s;
      }
    }
  }
  return CheckNoStaleReads(program, analysis, computations);
}

}  // namespace memplan
