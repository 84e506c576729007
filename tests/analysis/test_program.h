// Small programs for the analysis tests: parsed from IR text, or built in
// code where the text format would reject them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "ir/program_builder.h"
#include "ir/text_parser.h"

namespace memplan::testing {

// Parses IR text with path "test.ir"; on failure records a test failure and
// returns a program without entry (callers ASSERT_NE(p.entry, kNoId)).
inline Program Parse(std::string_view text) {
  absl::StatusOr<Program> program = ParseProgram(text, "test.ir");
  EXPECT_TRUE(program.ok()) << program.status();
  return program.ok() ? *std::move(program) : Program{};
}

// The op defining the value called `name`.
inline OpId OpNamed(const Program& program, std::string_view name) {
  return program.values[program.FindValue(name)].defining_op;
}

// Builds programs the text format would reject (unreachable or recursive
// computations, ...) or where exact ids matter.

class TestProgram {
 public:
  // A program whose source (error path) is "test.ir".
  TestProgram() : b_("test") {}

  ComputationId Func(std::string name, bool entry = false) {
    const ComputationId c = b_.AddComputation(std::move(name));
    if (entry) b_.SetEntry(c);
    return c;
  }
  ValueId Param(ComputationId c, std::string name, Bytes size) {
    return b_.AddParam(c, std::move(name), size);
  }
  // Appends `opcode(operands)` to c with one result `name` of `size` bytes.
  ValueId Def(ComputationId c, std::string opcode, std::vector<ValueId> operands, std::string name,
              Bytes size) {
    const OpId op = b_.AddOp(c, std::move(opcode), std::move(operands));
    return b_.AddResult(op, std::move(name), size);
  }
  // Appends an op with no results.
  OpId Effect(ComputationId c, std::string opcode, std::vector<ValueId> operands) {
    return b_.AddOp(c, std::move(opcode), std::move(operands));
  }
  // Appends an op calling `callees` with one result per entry of `results`.
  OpId Structured(ComputationId c, std::string opcode, std::vector<ValueId> operands,
                  std::vector<ComputationId> callees,
                  std::vector<std::pair<std::string, Bytes>> results) {
    const OpId op = b_.AddOp(c, std::move(opcode), std::move(operands));
    b_.op(op).callees = std::move(callees);
    for (auto& [name, size] : results) b_.AddResult(op, std::move(name), size);
    return op;
  }
  void Return(ComputationId c, std::vector<ValueId> results) { b_.SetReturn(c, std::move(results)); }

  void Tie(ValueId v, ValueId of) {
    b_.value(v).alias = AliasKind::kTied;
    b_.value(v).alias_of = of;
  }
  void View(ValueId v, ValueId of, Bytes offset) {
    b_.value(v).alias = AliasKind::kView;
    b_.value(v).alias_of = of;
    b_.value(v).view_offset = offset;
  }
  // Gives v the source location line:column.
  void At(ValueId v, int line, int column) { b_.value(v).loc = SourceLocation{line, column}; }

  OpId OpOf(ValueId v) const { return b_.program().values[v].defining_op; }
  Value& value(ValueId v) { return b_.value(v); }
  Op& op(OpId o) { return b_.op(o); }
  Computation& computation(ComputationId c) { return b_.computation(c); }

  Program Build() const {
    Program p = b_.program();
    p.source = "test.ir";
    return p;
  }

 private:
  ProgramBuilder b_;
};

}  // namespace memplan::testing
