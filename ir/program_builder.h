// Builds a Program in code (importers, tests, benchmarks). Ops are appended
// to a computation's schedule in call order. The builder does not validate;
// call ValidateProgram (ir/validate.h) on the result.
//
// Example:
//   ProgramBuilder b("tiny");
//   ComputationId main = b.AddComputation("main");
//   b.SetEntry(main);
//   ValueId x = b.AddParam(main, "x", 16);
//   OpId e = b.AddOp(main, "exp", {x});
//   ValueId y = b.AddResult(e, "y", 16);
//   b.SetReturn(main, {y});
//   Program p = std::move(b).Finish();
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/program.h"

namespace memplan {

class ProgramBuilder {
 public:
  explicit ProgramBuilder(std::string program_name = "");

  ComputationId AddComputation(std::string name,
                               ComputationKind kind = ComputationKind::kFunction);
  // Declares a named dim (`dim %name <= bound`) for symbolic sizes.
  DimId AddDim(std::string name, std::optional<std::int64_t> bound = std::nullopt);
  void SetEntry(ComputationId computation);
  // Appends a parameter of `size` bytes (type, if given, is informational).
  ValueId AddParam(ComputationId computation, std::string name, Bytes size,
                   std::optional<TensorType> type = std::nullopt);
  // Appends an op to the end of `computation`'s schedule. The kind comes from
  // ClassifyOpcode (kCompute for unknown opcodes; validation reports them).
  OpId AddOp(ComputationId computation, std::string opcode, std::vector<ValueId> operands);
  // Appends a result of `size` bytes to `op`.
  ValueId AddResult(OpId op, std::string name, Bytes size,
                    std::optional<TensorType> type = std::nullopt);
  void SetReturn(ComputationId computation, std::vector<ValueId> results);

  // Mutable access to fill in aliasing, lifetimes, costs, callees, ...
  Value& value(ValueId id) { return program_.values[id]; }
  Op& op(OpId id) { return program_.ops[id]; }
  Computation& computation(ComputationId id) { return program_.computations[id]; }
  DimDecl& dim(DimId id) { return program_.dims[id]; }
  const Program& program() const { return program_; }

  Program Finish() &&;

 private:
  Program program_;
};

}  // namespace memplan
