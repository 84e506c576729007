// Semantic checks of a parsed HLO module (io/hlo/parser.h), run before
// import so the importer can rely on them. Per computation, in text order:
//  * every operand names an instruction of the same computation defined
//    earlier ("operand %x is used before it is defined (at 7:3)", "unknown
//    operand %x", "operand %x belongs to computation %other, not %body");
//  * a printed operand shape equals the operand's ("operand %a is used as
//    f32[3] but defined as f32[2] at 3:3");
//  * called computations exist and are not the entry (`to_apply`, `calls`,
//    `condition`, `body`, `branch_computations`, `true_computation`,
//    `false_computation`): "unknown computation %nope";
//  * parameters are numbered 0..n-1 once each;
//  * shapes where XLA's shape inference fixes them: elementwise operands
//    have the result's dims, dot contracting dims agree, get-tuple-element
//    indexes a tuple in range and returns that element's shape, bitcast keeps
//    the byte size, dynamic-update-slice returns its operand 0's shape,
//    while/call/conditional operands match their callees' parameters and
//    roots, a while condition returns pred[].
// Errors: InvalidArgument `path:line:col: error: ...` at the first problem.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "io/hlo/module.h"

namespace memplan {

absl::Status CheckHloModule(const HloModule& module, const std::string& path);

// Index of the computation called `name`, or -1.
int FindHloComputation(const HloModule& module, const std::string& name);

// The computations an instruction calls for control flow (while: condition
// then body; conditional: branches in order; call: to_apply), and for cost
// only (fusion `calls`, reduce/map/sort/scatter `to_apply`, async `calls`).
// Names are as written (without '%'); attribute locations in `locs`.
struct HloCallees {
  std::vector<std::string> control;
  std::vector<std::string> other;
  std::vector<SourceLocation> control_locs;
  std::vector<SourceLocation> other_locs;
};
HloCallees CalleesOf(const HloInstruction& instr);

// Index of the leaf array of `shape` at tuple `index` path, and how many
// leaves that sub-shape has; nullopt when the path leaves the shape.
struct HloLeafRange {
  std::size_t first = 0;
  std::size_t count = 0;
  const HloShape* shape = nullptr;
};
std::optional<HloLeafRange> LeafRangeAt(const HloShape& shape, const std::vector<std::int64_t>& index);

}  // namespace memplan
