// The public ProgramBuilder, Program and LoadFile (include/memplan/program.h)
// over the internal program model (ir/) and loader (driver/input.h).
#include "memplan/program.h"

#include <utility>

#include "api/impl.h"
#include "fmt/format.h"
#include "ir/dtype.h"
#include "ir/program_builder.h"
#include "ir/text_printer.h"
#include "ir/validate.h"

namespace memplan::api {

struct ProgramBuilder::State {
  explicit State(std::string name) : builder(std::move(name)) {}
  memplan::ProgramBuilder builder;
  // The first misuse (an id out of range, a bad type): Build() reports it.
  // Later calls after one are ignored.
  std::optional<std::string> error;

  const memplan::Program& program() const { return builder.program(); }
  bool Fail(std::string message) {
    if (!error) error = std::move(message);
    return false;
  }
  bool CheckComputation(ComputationId id, const char* what) {
    if (error) return false;
    if (id >= 0 && id < static_cast<ComputationId>(program().computations.size())) return true;
    return Fail(fmt::format("{}: computation id {} is not one of this builder's", what, id));
  }
  bool CheckValue(ValueId id, const char* what) {
    if (error) return false;
    if (id >= 0 && id < static_cast<ValueId>(program().values.size())) return true;
    return Fail(fmt::format("{}: value id {} is not one of this builder's", what, id));
  }
  bool CheckOp(OpId id, const char* what) {
    if (error) return false;
    if (id >= 0 && id < static_cast<OpId>(program().ops.size())) return true;
    return Fail(fmt::format("{}: op id {} is not one of this builder's", what, id));
  }
  // The bytes of dtype[dims], or -1 after recording why there are none.
  Bytes TypeBytes(const TensorType& type, const std::string& name) {
    absl::StatusOr<Bytes> bytes = TensorBytes(type);
    if (bytes.ok()) return *bytes;
    Fail(fmt::format("%{}: {}", name, std::string(bytes.status().message())));
    return -1;
  }
};

ProgramBuilder::ProgramBuilder(std::string program_name)
    : state_(std::make_unique<State>(std::move(program_name))) {}
ProgramBuilder::~ProgramBuilder() = default;
ProgramBuilder::ProgramBuilder(ProgramBuilder&&) noexcept = default;
ProgramBuilder& ProgramBuilder::operator=(ProgramBuilder&&) noexcept = default;

ComputationId ProgramBuilder::AddFunction(std::string name) {
  return state_->builder.AddComputation(std::move(name));
}

void ProgramBuilder::SetEntry(ComputationId computation) {
  if (state_->CheckComputation(computation, "SetEntry")) state_->builder.SetEntry(computation);
}

ValueId ProgramBuilder::AddParam(ComputationId computation, std::string name, std::int64_t bytes) {
  if (!state_->CheckComputation(computation, "AddParam")) return -1;
  return state_->builder.AddParam(computation, std::move(name), bytes);
}

ValueId ProgramBuilder::AddParam(ComputationId computation, std::string name, std::string dtype,
                                 std::vector<std::int64_t> dims) {
  if (!state_->CheckComputation(computation, "AddParam")) return -1;
  TensorType type{std::move(dtype), std::move(dims)};
  const Bytes bytes = state_->TypeBytes(type, name);
  if (bytes < 0) return -1;
  return state_->builder.AddParam(computation, std::move(name), bytes, std::move(type));
}

OpId ProgramBuilder::AddOp(ComputationId computation, std::string opcode,
                           std::vector<ValueId> operands, OpCost cost) {
  if (!state_->CheckComputation(computation, "AddOp")) return -1;
  for (ValueId operand : operands) {
    if (!state_->CheckValue(operand, "AddOp")) return -1;
  }
  const OpId op = state_->builder.AddOp(computation, std::move(opcode), std::move(operands));
  state_->builder.op(op).cost = {cost.flops, cost.transcendentals, cost.bytes_accessed};
  return op;
}

ValueId ProgramBuilder::AddResult(OpId op, std::string name, std::int64_t bytes) {
  if (!state_->CheckOp(op, "AddResult")) return -1;
  return state_->builder.AddResult(op, std::move(name), bytes);
}

ValueId ProgramBuilder::AddResult(OpId op, std::string name, std::string dtype,
                                  std::vector<std::int64_t> dims) {
  if (!state_->CheckOp(op, "AddResult")) return -1;
  TensorType type{std::move(dtype), std::move(dims)};
  const Bytes bytes = state_->TypeBytes(type, name);
  if (bytes < 0) return -1;
  return state_->builder.AddResult(op, std::move(name), bytes, std::move(type));
}

void ProgramBuilder::SetReturn(ComputationId computation, std::vector<ValueId> results) {
  if (!state_->CheckComputation(computation, "SetReturn")) return;
  for (ValueId result : results) {
    if (!state_->CheckValue(result, "SetReturn")) return;
  }
  state_->builder.SetReturn(computation, std::move(results));
}

void ProgramBuilder::Tie(ValueId result, ValueId operand) {
  if (!state_->CheckValue(result, "Tie") || !state_->CheckValue(operand, "Tie")) return;
  Value& value = state_->builder.value(result);
  value.alias = AliasKind::kTied;
  value.alias_of = operand;
}

void ProgramBuilder::View(ValueId result, ValueId operand, std::int64_t offset_bytes) {
  if (!state_->CheckValue(result, "View") || !state_->CheckValue(operand, "View")) return;
  Value& value = state_->builder.value(result);
  value.alias = AliasKind::kView;
  value.alias_of = operand;
  value.view_offset = offset_bytes;
}

void ProgramBuilder::SetLifetime(ValueId value, Lifetime lifetime) {
  if (!state_->CheckValue(value, "SetLifetime")) return;
  state_->builder.value(value).lifetime = InternalLifetime(lifetime);
}

void ProgramBuilder::SetScratch(OpId op, std::int64_t bytes) {
  if (state_->CheckOp(op, "SetScratch")) state_->builder.op(op).scratch_bytes = bytes;
}

OpId ProgramBuilder::AddWhile(ComputationId computation, std::vector<ValueId> operands,
                              ComputationId cond, ComputationId body,
                              std::optional<std::int64_t> trip_count) {
  if (!state_->CheckComputation(cond, "AddWhile") || !state_->CheckComputation(body, "AddWhile")) {
    return -1;
  }
  const OpId op = AddOp(computation, "while", std::move(operands));
  if (op < 0) return op;
  state_->builder.op(op).callees = {cond, body};
  state_->builder.op(op).trip_count = trip_count;
  return op;
}

OpId ProgramBuilder::AddCall(ComputationId computation, ComputationId callee,
                             std::vector<ValueId> operands) {
  if (!state_->CheckComputation(callee, "AddCall")) return -1;
  const OpId op = AddOp(computation, "call", std::move(operands));
  if (op >= 0) state_->builder.op(op).callees = {callee};
  return op;
}

namespace {

memplan::LoadOptions InternalLoadOptions(const LoadOptions& options) {
  memplan::LoadOptions load;
  load.dims = options.dims;
  load.alias = options.alias;
  load.reorder = options.reorder;
  load.keep_input_order = options.reorder;  // fast memory may prefer it (driver/plan_job.cc)
  load.regions_per = options.regions_per;
  return load;
}

}  // namespace

absl::StatusOr<Program> ProgramBuilder::Build(const LoadOptions& options) && {
  std::unique_ptr<State> state = std::move(state_);
  std::string name = state->program().name.empty() ? "program" : state->program().name;
  if (state->error) return absl::InvalidArgumentError(name + ": error: " + *state->error);
  memplan::Program program = std::move(state->builder).Finish();
  program.source = name;
  if (absl::Status s = ValidateProgram(program, name); !s.ok()) return s;
  memplan::LoadOptions load = InternalLoadOptions(options);
  load.dims.clear();
  load.alias = true;
  absl::StatusOr<LoadedInput> input = LoadProgram(std::move(program), load);
  if (!input.ok()) return input.status();
  return Program(std::make_shared<const Program::Impl>(Program::Impl{*std::move(input), load}));
}

Program::Program(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

std::string Program::ToText() const {
  return impl_->input.program ? PrintProgram(*impl_->input.program) : std::string();
}

std::int64_t Program::buffer_count() const {
  return static_cast<std::int64_t>(impl_->input.buffers.buffers.size());
}

std::int64_t Program::time_steps() const { return impl_->input.buffers.time_steps; }

std::vector<std::string> Program::schedule() const {
  std::vector<std::string> names;
  if (!impl_->input.program) return names;
  const memplan::Program& program = *impl_->input.program;
  const memplan::Computation& entry = program.computations[program.entry];
  for (std::size_t i = 0; i < entry.ops.size(); ++i) {
    const memplan::Op& op = program.ops[entry.ops[i]];
    names.push_back(op.results.empty() ? fmt::format("{}#{}", op.opcode, i)
                                       : "%" + program.values[op.results[0]].name);
  }
  return names;
}

absl::StatusOr<Program> LoadFile(const std::string& path, const LoadOptions& options) {
  memplan::LoadOptions load = InternalLoadOptions(options);
  // Aliasing applies only to ONNX and TFLite: the loader refuses --no-alias
  // for other inputs, which here is just the default.
  const InputFormat format = DetectFormat(path);
  if (format != InputFormat::kOnnx && format != InputFormat::kTflite) load.alias = true;
  absl::StatusOr<LoadedInput> input = LoadInput(path, load);
  if (!input.ok()) return input.status();
  return Program(std::make_shared<const Program::Impl>(Program::Impl{*std::move(input), load}));
}

}  // namespace memplan::api
