#include "ir/program_builder.h"

#include <utility>

#include "ir/opcodes.h"

namespace memplan {

ProgramBuilder::ProgramBuilder(std::string program_name) {
  program_.name = std::move(program_name);
}

ComputationId ProgramBuilder::AddComputation(std::string name, ComputationKind kind) {
  Computation c;
  c.name = std::move(name);
  c.kind = kind;
  program_.computations.push_back(std::move(c));
  return static_cast<ComputationId>(program_.computations.size() - 1);
}

DimId ProgramBuilder::AddDim(std::string name, std::optional<std::int64_t> bound) {
  DimDecl dim;
  dim.name = std::move(name);
  dim.bound = bound;
  program_.dims.push_back(std::move(dim));
  return static_cast<DimId>(program_.dims.size() - 1);
}

void ProgramBuilder::SetEntry(ComputationId computation) { program_.entry = computation; }

ValueId ProgramBuilder::AddParam(ComputationId computation, std::string name, Bytes size,
                                 std::optional<TensorType> type) {
  Value v;
  v.name = std::move(name);
  v.size = size;
  v.type = std::move(type);
  v.computation = computation;
  program_.values.push_back(std::move(v));
  auto id = static_cast<ValueId>(program_.values.size() - 1);
  program_.computations[computation].params.push_back(id);
  return id;
}

OpId ProgramBuilder::AddOp(ComputationId computation, std::string opcode,
                           std::vector<ValueId> operands) {
  Op o;
  o.kind = ClassifyOpcode(opcode).value_or(OpKind::kCompute);
  o.opcode = std::move(opcode);
  o.operands = std::move(operands);
  o.computation = computation;
  program_.ops.push_back(std::move(o));
  auto id = static_cast<OpId>(program_.ops.size() - 1);
  program_.computations[computation].ops.push_back(id);
  return id;
}

ValueId ProgramBuilder::AddResult(OpId op, std::string name, Bytes size,
                                  std::optional<TensorType> type) {
  Value v;
  v.name = std::move(name);
  v.size = size;
  v.type = std::move(type);
  v.computation = program_.ops[op].computation;
  v.defining_op = op;
  program_.values.push_back(std::move(v));
  auto id = static_cast<ValueId>(program_.values.size() - 1);
  program_.ops[op].results.push_back(id);
  return id;
}

void ProgramBuilder::SetReturn(ComputationId computation, std::vector<ValueId> results) {
  program_.computations[computation].results = std::move(results);
}

Program ProgramBuilder::Finish() && { return std::move(program_); }

}  // namespace memplan
