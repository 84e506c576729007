// HLO text module -> memplan Program (docs/hlo.md).
//
// The ENTRY computation becomes the entry func; the schedule is each
// computation's instruction order (a scheduled module's order). Tuples are
// flattened: every HLO value is a list of leaf arrays, each a memplan value
// ("%t/1" is leaf 1 of tuple %t). Aliasing follows XLA's buffer rules:
//  * tuple and get-tuple-element are ops whose results are views (offset 0)
//    of their operands' leaves: they share the element buffers, no copy;
//  * bitcast is a view of its operand;
//  * while -> memplan while over the flattened loop-carried leaves (operand,
//    condition and body parameters, body root and result share storage);
//    conditional -> memplan conditional (each branch takes every branch's
//    operand leaves; its own are its parameters' storage, the others unused
//    parameters), call -> memplan call; a called computation is imported once
//    per call site (the second and later copies, and their values, named by
//    the call sites leading to them: "c2/s1/x");
//  * as XLA's copy insertion does, a `copy` op (attribute
//    inserted = "copy-insertion") is added where a loop-carried or returned
//    leaf could not share storage: a constant or entry parameter entering a
//    loop, a leaf read again after the while, a leaf passed twice, a body or
//    branch root leaf that is a parameter in another position or a constant;
//  * dynamic-update-slice (and a fusion whose root is one, and any
//    instruction with output_to_operand_aliasing) writes in place: its result
//    is tied to the operand when that operand is not a constant or entry
//    parameter and is not read again later in the computation;
//  * input_output_alias ties an entry parameter leaf to an output leaf (the
//    op writing the output takes the parameter as an extra operand, or a
//    copy into the parameter is added when that op is not a plain compute op);
//  * copy-start/copy-done and X-start/X-done (async, all-gather, all-reduce,
//    collective-permute) become memplan async pairs; the start's source
//    element is a view of its operands; async-update is an op with no results;
//  * fusion is one op; its called computation is read for cost only, as are
//    reduce/map/sort/scatter `to_apply` computations;
//  * every other opcode is `hlo.<opcode>` with fresh results, cost from
//    io/hlo/cost.h; constants are `constant` ops (constant lifetime).
// Memory-space annotations S(n) are parsed and not used: memplan plans
// memory spaces itself. For the same reason a memory-space copy (a
// copy-start/copy-done pair between spaces, io/hlo/space_copy.h) is folded:
// the copy-done is its source's value and no op is added.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "io/hlo/module.h"
#include "ir/program.h"

namespace memplan {

// Builds and validates the program of a checked module (CheckHloModule).
// Errors: InvalidArgument `path:line:col: error: ...`: a shape past 2^62
// bytes, malformed input_output_alias or output_to_operand_aliasing, a call
// graph that calls itself, nests more than kMaxNestingDepth (256) deep or
// imports more than 10^6 ops once per call site, ValidateProgram's.
absl::StatusOr<Program> ImportHloModule(const HloModule& module, const std::string& path);

// Parses, checks and imports HLO text read from `path`.
absl::StatusOr<Program> ImportHloText(std::string_view text, const std::string& path);

}  // namespace memplan
