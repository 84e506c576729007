// `memplan plan --emit-hlo`: an HLO module rewritten as XLA's memory space
// assignment leaves it, from memplan's rewritten schedule (msa/rewrite.h).
//
// The output is the input text with, in every computation the flattened
// schedule covers (the entry, while bodies and conditions, conditional
// branches, called computations; fused and to_apply computations as read):
//  * the layout of every leaf whose storage lies in alternate memory marked
//    `S(n)` (n: the memory space), and `S(n)` removed from the others;
//  * each async copy as XLA writes it, named after the instruction it copies,
//      %w.prefetch = (f32[4]{0:S(1)}, f32[4]{0}, u32[]) copy-start(%w)
//      %w.prefetched = f32[4]{0:S(1)} copy-done(%w.prefetch)
//    at its position in the schedule of the computation where it runs, and
//    the uses the plan serves from the copy reading the copy-done; the
//    entry's result reads each output's default-memory copy (an eviction's
//    copy-done);
//  * XLA's aliasing rule: a while's operand, result, condition and body
//    parameters and body root share each element's memory space (the body
//    parameter's); a call's or branch's parameters take their operands'
//    spaces and its root its caller's result's. An operand or root leaf the
//    plan holds in another space there reads the copy of it already in the
//    needed space, else a copy into that space written before it;
//  * the input's own memory-space copies (io/hlo/space_copy.h) left out,
//    their uses reading the copied value, as memplan planned it anew;
//  * a computation called from several places (whiles, calls,
//    conditionals) written once per distinct plan, as XLA's FlattenCallGraph
//    leaves it before memory space assignment: the first call site's plan
//    in place, each call site planned unlike every earlier one calling a
//    clone written after the original, named as XLA's cloning names them
//    (`%f.clone`, `%f.clone.1`, ...; instructions `%x.clone`, ...); call
//    sites of a computation whose own calls go to different clones count as
//    planned differently. Call sites planned alike share one computation,
//    so a module planned the same at every call site is written as read.
// Everything else is printed as read (header, names, attributes, metadata,
// comments). Importing the output folds the copies back (importer.h), so
// planning it again gives the same plan.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "io/hlo/module.h"
#include "ir/program.h"

namespace memplan {

// `text` is the module's text, `module` its parse, `original` its import
// (ImportHloModule) and `rewritten` the schedule RewriteSchedule made of a
// plan of `original`. Errors: FailedPrecondition naming the instruction when
// the plan cannot be written as HLO: a copy or a changed use of one leaf of a
// tuple, a use of part of a buffer, an instruction sharing its line with
// another.
absl::StatusOr<std::string> EmitHloWithMemorySpaces(std::string_view text,
                                                    const HloModule& module,
                                                    const Program& original,
                                                    const Program& rewritten);

}  // namespace memplan
