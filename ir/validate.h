// Structural validation of a Program, shared by the text parser and by every
// importer that builds programs in code (ir/program_builder.h).
#pragma once

#include <string_view>

#include "absl/status/status.h"
#include "ir/program.h"

namespace memplan {

// Checks the invariants listed in ir/program.h and docs/ir.md: known opcodes,
// operands defined earlier in the same computation, unique names, an entry,
// tied results with equal size, views within their operand, arity and sizes of
// while/conditional/call/execute against their callees, async start/done
// pairing, each non-entry computation called exactly once and no recursion.
// Returns InvalidArgument `path:line:col: error: ...` at the first violation
// (locations from Value::loc / Op::loc; `path: error: ...` when unknown).
absl::Status ValidateProgram(const Program& program, std::string_view path);

}  // namespace memplan
