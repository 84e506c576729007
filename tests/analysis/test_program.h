// Small programs for the analysis tests: parsed from IR text, or built in
// code where the text format would reject them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/analyze.h"
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

// Analyzes `program`; on failure records a test failure and returns an empty
// analysis.
inline ProgramAnalysis Analyze(const Program& program) {
  absl::StatusOr<ProgramAnalysis> a = AnalyzeProgram(program);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? *std::move(a) : ProgramAnalysis{};
}

// One line per buffer: `name size [start,end] lifetime [spaceN] [uses{...}]
// values{...}` and a ` gap[first,last]` per dead gap.
inline std::vector<std::string> DescribeBuffers(const Program& program, const BufferSet& set,
                                                bool with_uses) {
  std::vector<std::string> lines;
  for (const Buffer& b : set.buffers) {
    std::string line = b.name + " " + std::to_string(b.size) + " [" + std::to_string(b.start) + "," +
                       std::to_string(b.end) + "] " + std::string(LifetimeName(b.lifetime));
    if (b.space) line += " space" + std::to_string(*b.space);
    if (with_uses) {
      line += " uses{";
      for (std::size_t i = 0; i < b.use_times().size(); ++i) {
        line += (i ? "," : "") + std::to_string(b.use_times()[i]);
      }
      line += "}";
    }
    line += " values{";
    for (std::size_t i = 0; i < b.values.size(); ++i) {
      line += (i ? "," : "") + program.values[b.values[i]].name;
    }
    line += "}";
    for (const StepRange& g : b.gaps()) {
      line += " gap[" + std::to_string(g.first) + "," + std::to_string(g.last) + "]";
    }
    lines.push_back(line);
  }
  return lines;
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
