// Parser of the memplan IR text format (grammar and semantics: docs/ir.md).
//
// Example input:
//   program @tiny
//   entry func @main(%x: f32[4]) {
//     %y = exp(%x) : f32[4] {transcendentals = 4}
//     %z = relu(%y) : f32[4] tied(%y)
//     return %z
//   }
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "ir/program.h"
#include "ir/size_expr.h"

namespace memplan {

// Parses `text` into a Program and checks it with ValidateProgram
// (ir/validate.h). `path` names the input in messages and becomes
// Program::source. Every value, op and computation gets the SourceLocation of
// its defining token (value: its %name, op: its opcode, computation: its
// @name). Errors: InvalidArgument `path:line:col: error: ...` at the first
// problem (column = 1-based byte column); bad bytes never crash or hang.
absl::StatusOr<Program> ParseProgram(std::string_view text, std::string_view path);

// Reads the file at `path` and parses it. A file that cannot be read gives
// InvalidArgument `path: error: cannot read file: <reason>`.
absl::StatusOr<Program> ParseProgramFile(const std::string& path);

// Parses `text` as one size expression (docs/ir.md: integers, dims %n of
// `program`, +, *, parentheses, max(...), align(..., A)), e.g. the canonical
// text of SizeExpr::ToString: "align(4*%n, 64) + 128" -> that SizeExpr. Uses
// the grammar, nesting and size limits of ParseProgram. Errors:
// InvalidArgument `path:1:col: error: ...` (e.g. "unknown dim %k",
// "expected '+', '*' or the end of the size expression, got ...").
absl::StatusOr<SizeExpr> ParseSizeExpr(std::string_view text, const Program& program,
                                       std::string_view path);

}  // namespace memplan
