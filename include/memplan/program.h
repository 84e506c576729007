// memplan's public C++ API, part 1: the program to plan.
//
// A program is a list of computations; each computation is a schedule of ops
// over sized values (docs/ir.md has the model). Build one in code with
// ProgramBuilder, or load a file (ONNX, TFLite, memplan text IR or a
// lifetime CSV) with LoadFile. Either way the result is an analysed,
// immutable Program that Plan() (memplan/plan.h) accepts.
//
// Example (a matmul whose result is written in place by a relu):
//   memplan::api::ProgramBuilder b("tiny");
//   auto main = b.AddFunction("main");
//   b.SetEntry(main);
//   auto x = b.AddParam(main, "x", "f32", {64, 64});        // 16,384 bytes
//   auto w = b.AddParam(main, "w", "f32", {64, 64});
//   auto mm = b.AddOp(main, "matmul", {x, w});
//   auto y = b.AddResult(mm, "y", "f32", {64, 64});
//   auto r = b.AddOp(main, "relu", {y});
//   auto z = b.AddResult(r, "z", "f32", {64, 64});
//   b.Tie(z, y);                                            // relu in place
//   b.SetReturn(main, {z});
//   absl::StatusOr<memplan::api::Program> program = std::move(b).Build();
//
// Only abseil's status types appear here besides the standard library; the
// library's internals (ir/, driver/, ...) are not part of the API.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace memplan::api {

// Dense ids handed out by ProgramBuilder, valid only for that builder.
using ComputationId = std::int32_t;
using ValueId = std::int32_t;
using OpId = std::int32_t;

// How long a value's storage lives (docs/ir.md "Lifetimes"). Values default
// to transient, parameters of the entry to external, results of `constant`
// ops to constant.
enum class Lifetime {
  kTransient,  // lives inside one run; packed with reuse
  kExternal,   // program input/output, owned by the caller; never reused
  kConstant,   // read-only, uploaded once; never reused
  kVariable,   // persists across runs; never reused
  kStaging,    // host-visible transfer buffer; packed with reuse
};

// Cost of one execution of an op, for the fast-memory cost model.
struct OpCost {
  double flops = 0;            // floating-point operations
  double transcendentals = 0;  // exp/log/tanh/... evaluations
  // Bytes the op reads and writes; nullopt: the sum of its operands' and
  // results' sizes.
  std::optional<std::int64_t> bytes_accessed;
};

// How LoadFile reads a file and ProgramBuilder::Build finishes a program.
struct LoadOptions {
  // Symbolic dims: ONNX dim_params or text IR `dim`s, e.g. {"batch", 8}.
  std::map<std::string, std::int64_t> dims;
  // ONNX and TFLite: views and in-place reuse where the runtime would alias.
  bool alias = true;
  // Run the ops in a new order that lowers the transient max-live (`memplan
  // plan --reorder`, docs/reorder.md); Program::schedule() lists the order.
  // Not for a lifetime CSV (InvalidArgument).
  bool reorder = false;
  // Wrap a flat program into IREE-style execution regions of this many ops
  // each, 0 for one region (`--regions-per N`, docs/regions.md).
  std::optional<std::int64_t> regions_per;
};

class Program;

// Builds a program op by op; ops are appended to their computation's
// schedule in call order. Nothing is checked until Build(). Ids passed in
// must come from this builder; an id out of range is reported by Build()
// (never undefined behaviour).
class ProgramBuilder {
 public:
  explicit ProgramBuilder(std::string program_name = "");
  ~ProgramBuilder();
  ProgramBuilder(ProgramBuilder&&) noexcept;
  ProgramBuilder& operator=(ProgramBuilder&&) noexcept;

  // A function computation (`func @name`); the entry is set with SetEntry.
  ComputationId AddFunction(std::string name);
  void SetEntry(ComputationId computation);
  // A parameter of `bytes` bytes, or of a tensor type: dtype ("f32", "bf16",
  // "i8", ... as in docs/ir.md) and dims, its size their product times the
  // element size.
  ValueId AddParam(ComputationId computation, std::string name, std::int64_t bytes);
  ValueId AddParam(ComputationId computation, std::string name, std::string dtype,
                   std::vector<std::int64_t> dims);
  // Appends an op with these operands to `computation`'s schedule. Opcodes
  // are free-form ("matmul", "exp", ...); `constant` makes its results
  // constants, `while`/`conditional`/`call` need callees (AddWhile, ...).
  OpId AddOp(ComputationId computation, std::string opcode, std::vector<ValueId> operands,
             OpCost cost = {});
  // A result of the op: `bytes` bytes, or a tensor type as for AddParam.
  ValueId AddResult(OpId op, std::string name, std::int64_t bytes);
  ValueId AddResult(OpId op, std::string name, std::string dtype, std::vector<std::int64_t> dims);
  // The op's return values (`return %a, %b`).
  void SetReturn(ComputationId computation, std::vector<ValueId> results);

  // `result` is written in place into `operand` (an operand of the same
  // op, of the same size): one buffer.
  void Tie(ValueId result, ValueId operand);
  // `result` is a window of `operand`'s storage starting `offset_bytes` into
  // it (reshape, slice): no storage of its own.
  void View(ValueId result, ValueId operand, std::int64_t offset_bytes);
  void SetLifetime(ValueId value, Lifetime lifetime);
  // Scratch bytes the op reserves for its own duration.
  void SetScratch(OpId op, std::int64_t bytes);
  // A loop: `while(operands) {cond, body}`. cond takes the loop-carried
  // values and returns one predicate; body takes and returns them. Results
  // are added with AddResult, one per operand. `trip_count`: iterations,
  // when known (for the cost model).
  OpId AddWhile(ComputationId computation, std::vector<ValueId> operands, ComputationId cond,
                ComputationId body, std::optional<std::int64_t> trip_count = std::nullopt);
  // `call(operands) {callee}`: the callee's params take the operands.
  OpId AddCall(ComputationId computation, ComputationId callee, std::vector<ValueId> operands);

  // Validates the program (the rules of docs/ir.md) and analyses it: alias
  // sets, live ranges, lifetimes. Errors: InvalidArgument
  // `<name>: error: ...` naming the first broken rule (an id from another
  // builder, an operand used before it is defined, a tie between values of
  // different sizes, no entry, ...). The builder is consumed. Of `options`
  // only reorder and regions_per apply (a built program has no symbolic dims
  // and states its ties and views itself).
  absl::StatusOr<Program> Build(const LoadOptions& options = {}) &&;

 private:
  struct State;
  std::unique_ptr<State> state_;
};


// An analysed program, ready to plan. Cheap to copy (shared, immutable).
class Program {
 public:
  // The program in memplan's text IR (docs/ir.md); empty for a lifetime CSV.
  std::string ToText() const;
  // Number of buffers (alias sets, plus one per op with scratch) and of
  // logical time steps in the flattened schedule.
  std::int64_t buffer_count() const;
  std::int64_t time_steps() const;
  // The entry computation's ops in execution order (after LoadOptions::
  // reorder), each named by its first result ("%y") or, without results, by
  // "opcode#index"; empty for a lifetime CSV.
  std::vector<std::string> schedule() const;

  struct Impl;
  explicit Program(std::shared_ptr<const Impl> impl);
  const Impl& impl() const { return *impl_; }

 private:
  std::shared_ptr<const Impl> impl_;
};

// Loads and analyses a file, its format from the extension (.onnx, .tflite,
// .csv, else text IR), as `memplan plan FILE` does. Errors: InvalidArgument
// `path:line:col: error: ...` for unreadable or malformed input.
absl::StatusOr<Program> LoadFile(const std::string& path, const LoadOptions& options = {});

}  // namespace memplan::api
