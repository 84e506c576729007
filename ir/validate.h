// Structural validation of a Program, shared by the text parser and by every
// importer that builds programs in code (ir/program_builder.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "ir/program.h"

namespace memplan {

// How deeply computations may nest: the entry (or an initializer) is depth 0
// and every call, while, conditional or execute puts its callees one deeper.
// Planning work grows with the depth (a loop's values stay live across every
// loop around it), and real models nest a handful of levels; deeper programs
// get a located error instead of a hang.
inline constexpr int kMaxNestingDepth = 256;

// Checks the invariants listed in ir/program.h and docs/ir.md: known opcodes,
// operands defined earlier in the same computation, unique names (dims and
// values share one namespace), an entry, well-formed dims and symbolic sizes
// (Value::size is its size_expr at the evaluation point, ir/dims.h), tied
// results with equal size expressions, views and operand ranges provably
// within their operand for every value of the dims, arity and sizes of
// while/conditional/call/execute against their callees, async start/done
// pairing, initializers (funcs without parameters, never called, not the
// entry), each other non-entry computation called exactly once, no
// recursion, and nesting at most kMaxNestingDepth deep ("computation @f300 is
// nested 257 calls deep (each call, while, conditional or execute adds one);
// the limit is 256", at the op calling it).
// Returns InvalidArgument `path:line:col: error: ...` at the first violation
// (locations from Value::loc / Op::loc; `path: error: ...` when unknown).
absl::Status ValidateProgram(const Program& program, std::string_view path);

// Why `range` cannot apply to operand `operand` of `program`, or nullopt: the
// operand is a timepoint ("range [0 for 4] of timepoint %t: a timepoint has
// no bytes"), or offset + length is not provably within its size for every
// value of the dims ("range [4000 for 200] of %t exceeds its 4096 bytes";
// symbolic sizes print as expressions). The range's expressions must mention
// only dims of `program`.
std::optional<std::string> OperandRangeProblem(const Program& program, ValueId operand,
                                               const OperandRange& range);

}  // namespace memplan
