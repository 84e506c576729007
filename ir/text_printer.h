// Printer of the memplan IR text format (docs/ir.md).
#pragma once

#include <string>

#include "ir/program.h"

namespace memplan {

// Canonical text of `program`, which must pass ValidateProgram: `dim` lines
// after the program line (bounds only: a --dim binding is not part of the
// text), one op per line, two-space indent, a blank line between
// computations, symbolic sizes as `(EXPR)` and operand ranges as
// `%x[OFFSET for LENGTH]` in SizeExpr::ToString's form, names quoted
// only when needed, qualifiers in the order tied/view, space, lifetime, and
// attributes in the order cond, body, branches, callee, trip_count, wave,
// affinity, flops, transcendentals, bytes_accessed, scratch, then the
// generic ones in their stored order; zero costs and zero scratch are
// omitted. ParseProgram(PrintProgram(p)) gives a program that prints
// identically.
std::string PrintProgram(const Program& program);

}  // namespace memplan
