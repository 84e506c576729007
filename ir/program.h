// The program model: computations of scheduled ops over sized values.
//
// A Program owns three flat tables (values, ops, computations) indexed by dense
// ids; computations refer to their params, ops and results by id. The order of
// a computation's `ops` *is* its schedule. The text format (ir/text_parser.h)
// and every importer produce this model; analyses read it and never change it.
//
// Example (text form, see docs/ir.md):
//   entry func @main(%x: f32[4]) {
//     %y = exp(%x) : f32[4]
//     %z = relu(%y) : f32[4] tied(%y)     # written in place: one buffer
//     return %z
//   }
//
// Semantics of structured ops (enforced by the parser, relied on by analysis):
//  * while(%init...) {cond = @c, body = @b}: results, @c params, @b params and
//    @b results correspond position-wise with the operands and share storage
//    (loop-carried values); @c returns one value (the predicate).
//  * conditional(%pred, %arg...) {branches = [@t, @f, ...]}: every branch takes
//    the args (params share storage with them) and returns values sharing
//    storage with the op's results. Branches run mutually exclusively.
//  * call(%arg...) {callee = @f} and execute(%arg...) {callee = @region}: params
//    share storage with the args, callee results with the op's results.
//    `execute` runs an execution region (a computation of kind kRegion).
//  * X-start / X-done (async pairs, e.g. copy-start/copy-done): the done takes
//    the start's results as operands and its results share storage with them;
//    the start's operands stay live until the done.
//  Every non-entry computation is called from exactly one site (no recursion),
//  so its ops have one place in the flattened schedule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/size_expr.h"
#include "ir/units.h"

namespace memplan {

// 1-based position in a source file; 0 means unknown (e.g. built in code).
struct SourceLocation {
  std::int32_t line = 0;
  std::int32_t column = 0;
  bool operator==(const SourceLocation&) const = default;
};

// Element type and dimensions of a tensor value, e.g. f32[1,3,224,224].
struct TensorType {
  std::string dtype;                // "f32", "bf16", "i8", ... (see ir/dtype.h)
  std::vector<std::int64_t> dims;   // empty for a scalar
};

// How a result shares storage with one of its op's operands.
enum class AliasKind : std::uint8_t {
  kNone,  // fresh storage
  kTied,  // written in place: same storage and same size as the operand
  kView,  // a window of the operand's storage at `view_offset` bytes
};

// An operand whose storage is a slice of the result that gathers it
// (`gathers(%a, 0, %b, 1024)`): the operand's producer writes straight into
// bytes [offset, offset + operand size) of the result, so an outer-axis
// concat moves no data (its operands are views *into* it, the converse of
// `view`). See docs/ir.md "Ties and views".
struct GatheredOperand {
  ValueId operand = kNoId;  // an operand of the result's op
  Bytes offset = 0;         // bytes into the result
  bool operator==(const GatheredOperand&) const = default;
};

// A named dim of the program (`dim %n <= 4096`): a symbolic size variable,
// like the SSA size values of IREE's dynamic resources. A dim takes values in
// [1, bound]. It is planned at its *planning point* (the bound, else the
// `--dim` binding) and evaluated at its *evaluation point* (the binding, else
// the bound); see ir/dims.h.
struct DimDecl {
  std::string name;                      // unique among dims and values, without '%'
  std::optional<std::int64_t> bound;     // declared upper bound, >= 1
  std::optional<std::int64_t> binding;   // value bound with --dim (1 <= binding <= bound)
  SourceLocation loc;
};

struct Value {
  std::string name;                      // unique in the program, without '%'
  Bytes size = 0;                        // storage bytes (at the dims' evaluation point)
  // Symbolic size when the declared type is a byte-size expression that
  // mentions a dim (`(4*%n + 64)`); `size` is its value at the evaluation
  // point. nullopt for static sizes.
  std::optional<SizeExpr> size_expr;
  std::optional<TensorType> type;        // when declared as dtype[dims]
  bool is_timepoint = false;             // an async timepoint: size 0, no storage
  std::optional<Lifetime> lifetime;      // explicit lifetime class, else derived
  std::optional<MemorySpace> space;      // pinned memory space
  AliasKind alias = AliasKind::kNone;
  ValueId alias_of = kNoId;              // the operand tied to / viewed
  Bytes view_offset = 0;                 // bytes into alias_of (kView only)
  // Symbolic view offset when it mentions a dim (`view(%x, align(%n, 64))`,
  // a subview at a dynamic offset); `view_offset` is its value at the
  // evaluation point. nullopt for constant offsets.
  std::optional<SizeExpr> view_offset_expr;
  // Operands of the defining op placed inside this result (alias kNone only),
  // in source order; empty for most values.
  std::vector<GatheredOperand> gathers;
  ComputationId computation = kNoId;     // where it is defined
  OpId defining_op = kNoId;              // kNoId for a computation parameter
  SourceLocation loc;
};

// `value`'s size as an expression: its size_expr, else its static size.
SizeExpr SizeExprOf(const Value& value);

// `value`'s view offset as an expression: its view_offset_expr, else the
// constant view_offset (0 for a value that is not a view).
SizeExpr ViewOffsetExprOf(const Value& value);

// Copies what describes `from`'s storage — size (and size_expr), type,
// timepoint flag, lifetime, pinned space — into `to`, not its aliasing (the
// operand it aliases lives in another program), for passes that rebuild a
// program (regions/command_form.h, regions/region_partition.h).
void CopyStorageShape(const Value& from, Value& to);

// What the analyses need to know about an opcode.
enum class OpKind : std::uint8_t {
  kCompute,      // any op that reads operands and writes results
  kConstant,     // produces a constant (results default to the constant lifetime)
  kWhile,
  kConditional,
  kCall,
  kExecute,      // runs an execution region
  kAsyncStart,   // X-start
  kAsyncDone,    // X-done
};

// A generic attribute value: integer, float, string, bool, @symbol or list.
struct AttrValue {
  enum class Kind : std::uint8_t { kInt, kFloat, kString, kBool, kSymbol, kList };
  Kind kind = Kind::kInt;
  std::int64_t i = 0;
  double f = 0;
  std::string s;                 // kString text or kSymbol name (without '@')
  std::vector<AttrValue> list;
  bool operator==(const AttrValue&) const = default;
};

struct Attribute {
  std::string key;
  AttrValue value;
  bool operator==(const Attribute&) const = default;
};

// Per-op cost for the memory-space-assignment cost model.
struct OpCost {
  double flops = 0;              // floating-point operations per execution
  double transcendentals = 0;    // exp/log/tanh/... evaluations per execution
  std::optional<Bytes> bytes_accessed;  // nullopt: sum of operand and result sizes
};

// The bytes of an operand an op reads or writes: `%x[OFFSET for LENGTH]`
// (IREE's `%x[%offset to %end for %length]`), both within the operand's size.
struct OperandRange {
  SizeExpr offset;
  SizeExpr length;
  bool operator==(const OperandRange&) const = default;
};

struct Op {
  std::string opcode;
  OpKind kind = OpKind::kCompute;
  std::vector<ValueId> operands;
  // Empty, or parallel to `operands`: the range of each operand the op
  // touches (nullopt: the whole operand).
  std::vector<std::optional<OperandRange>> operand_ranges;
  std::vector<ValueId> results;
  // while: {cond, body}; conditional: branches in order; call/execute: {callee}.
  std::vector<ComputationId> callees;
  OpCost cost;
  Bytes scratch_bytes = 0;               // scratch reserved for the op's duration
  std::optional<std::string> affinity;   // device the op runs on
  std::optional<std::int64_t> trip_count;  // while: known iteration count
  std::optional<std::int64_t> wave;      // ops of a region with equal wave run concurrently
  std::vector<Attribute> attributes;     // every other attribute, in source order
  ComputationId computation = kNoId;
  SourceLocation loc;
};

// The string value of `op`'s attribute `key` (e.g. "target_affinity"), or
// nullopt when it is absent or not a string.
std::optional<std::string> StringAttribute(const Op& op, std::string_view key);

// Copies what `from` does — kind, operand ranges, cost, scratch, affinity,
// trip count, attributes — into `to`; not its operands, results, callees,
// wave or place, for passes that rebuild a program (as CopyStorageShape).
void CopyOpDetails(const Op& from, Op& to);

enum class ComputationKind : std::uint8_t {
  kFunction,  // `func`
  kRegion,    // `region`: an execution region on one affinity
};

struct Computation {
  std::string name;                      // unique, without '@'
  ComputationKind kind = ComputationKind::kFunction;
  std::vector<ValueId> params;
  std::vector<OpId> ops;                 // in schedule order
  std::vector<ValueId> results;          // the `return` operands
  std::optional<std::string> affinity;   // regions: the device
  // `initializer func`: a root run once before the entry (IREE's
  // util.initializer); it takes no parameters and its results persist to the
  // end of the run. Regions it executes are marked run-once.
  bool initializer = false;
  SourceLocation loc;
};

struct Program {
  std::string name;                      // from `program @name`, may be empty
  std::string source;                    // path or description of the input
  std::vector<Value> values;
  std::vector<Op> ops;
  std::vector<Computation> computations;
  std::vector<DimDecl> dims;             // DimId = index
  ComputationId entry = kNoId;

  // Id of the computation called `name`, or kNoId.
  ComputationId FindComputation(std::string_view name) const;
  // Id of the value called `name`, or kNoId. O(n); for tests and tools.
  ValueId FindValue(std::string_view name) const;
  // Display name of an op: its first result's name, else "<opcode>#<id>".
  std::string OpName(OpId op) const;
};

}  // namespace memplan
