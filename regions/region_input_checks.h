// Input rules for the ops of an execution region that the text format alone
// cannot check, each a located InvalidArgument error (exit 2). A region
// program that breaks one would make the allocation read data the program
// itself has overwritten, so they are refused before planning:
//  * operand shapes: `copy`, `update` and `transfer`/`slice`/`clone` move
//    equal numbers of bytes (source range, target range, result);
//    `collective` takes exactly (send, receive) with its result tied to the
//    receive operand;
//  * no op of a wave reads a value another op of the same wave produces
//    (the ops of a wave run at once; writing into it in place, as IREE's
//    chained in-place copies into one target do, is allowed);
//  * no untied fresh result shares storage with an operand of its op (a
//    loop-carried value would be overwritten while read): tie it or copy the
//    operand first;
//  * no read of a value at or after an in-place write over it, inside the
//    region (IREE's copy-on-write pass would have cloned it).
// Cost: O(ops + operands) over the region's computations.
#pragma once

#include <vector>

#include "absl/status/status.h"
#include "analysis/analyze.h"
#include "ir/program.h"

namespace memplan {

// Checks the ops of `computations` (a region and the funcs it calls).
absl::Status CheckRegionOps(const Program& program, const ProgramAnalysis& analysis,
                            const std::vector<ComputationId>& computations);

}  // namespace memplan
