// Structural validation of a Program, shared by the text parser and by every
// importer that builds programs in code (ir/program_builder.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "ir/program.h"

namespace memplan {

// Checks the invariants listed in ir/program.h and docs/ir.md: known opcodes,
// operands defined earlier in the same computation, unique names (dims and
// values share one namespace), an entry, well-formed dims and symbolic sizes
// (Value::size is its size_expr at the evaluation point, ir/dims.h), tied
// results with equal size expressions, views and operand ranges provably
// within their operand for every value of the dims, arity and sizes of
// while/conditional/call/execute against their callees, async start/done
// pairing, initializers (funcs without parameters, never called, not the
// entry), each other non-entry computation called exactly once and no
// recursion.
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
