// Schedule rewrite after memory space assignment (the reference's
// Allocation::Process + ScheduleAsynchronousCopies + FixSchedule, msa.md §2
// steps 4, 6 and 8): turns an MsaResult into a new Program in which every
// async copy is an explicit copy-start / copy-done pair and every use reads
// the value that holds its data in the memory space it is served from.
//
// Contract. Reads a validated program, its analysis and an MsaResult that
// follows msa/assignment.h (ideally one that verifies). Produces a program
// that passes ValidateProgram and prints/parses back identically, where:
//  * copy c becomes `%x.prefetch = copy-start(%src) : T space(to)` inserted
//    right after the last op of step c.start and `%x.prefetched =
//    copy-done(...)` right before the first op of step c.done (evictions:
//    `.evict` / `.evicted`); at one step copy-dones come before the step's
//    ops and copy-starts after them, each group in MsaResult::copies order;
//  * a use at step t is served by the *residency* the assignment conventions
//    give (simulator.h: an alternate segment covering t whose data has
//    arrived, else the default chunk); when that residency is not where the
//    operand value itself was produced, the operand is replaced by the
//    residency's current value — the copy-done, or the latest value written
//    in place over it — or by a `view` of it (bytes_accessed = 0) when the
//    operand is only part of the buffer (nonzero offset or smaller size);
//  * values produced in alternate memory, and copies into it, are pinned
//    with space(1); eviction copies with space(0);
//  * a copy with start -1 (an entry parameter's prefetch) is issued before
//    the entry's first op;
//  * a copy whose start and done lie in two computations, one of them
//    `call`ed (directly or through nested calls) from the other, is written
//    in the caller: a done at the callee's first step right before the
//    call, whose operand then reads the copy-done (the callee's parameter
//    takes its space), and a start after the callee's last step right
//    after the call, reading its result. The timing is the plan's: nothing
//    runs between a call and its callee's first step or after its last.
//    Example: `%c = call(%a, %w) {callee = @f}` with @f's first op reading
//    %w, w prefetched over [0, 1] (1: @f's first step) ==>
//    `%w.prefetch = copy-start(%w)`, `%w.prefetched = copy-done(...)`,
//    `%c = call(%a, %w.prefetched)` in the caller, @f's %q in space(1);
//  * the entry returns each result's default-memory value: an output written
//    in place in alternate memory returns its eviction's copy-done (a new
//    value, no longer tied to the parameter whose storage it updated);
//  * a cross-program prefetch (MsaResult::cross_program_prefetch) becomes a
//    copy-start before the entry's first op and a copy-done before the first
//    read of its alternate segment, or before the entry's first op when that
//    read lies in a called computation (before the call when the entry's
//    first op is a call; at run time the copy overlaps the previous run; the
//    IR shows where the data comes from).
// New names derive from the copied value (`%w.prefetch`, `%w.prefetched`,
// `%a.in.w.prefetched` for a view), with `.1`, `.2`, ... appended on a clash.
//
// Example (w prefetched for its use at step 1, start 0, done 1):
//   %a = exp(%x) : f32[4]                  %a = exp(%x) : f32[4]
//   %b = mul(%a, %w) : f32[4]     ==>      %w.prefetch = copy-start(%w) : f32[4] space(1)
//                                          %w.prefetched = copy-done(%w.prefetch) : f32[4] space(1)
//                                          %b = mul(%a, %w.prefetched) : f32[4]
//
// Errors (FailedPrecondition, naming the copy or use): a copy whose start and
// done steps lie in different computations other than as above (across a
// while or conditional boundary), or whose source value is not visible
// there; a use whose residency has no value yet (e.g. a default-
// memory read of a buffer produced in alternate memory before its eviction
// is done); a copy of a buffer without values (scratch). Internal if the new
// program fails validation (a bug).
#pragma once

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "ir/program.h"
#include "msa/assignment.h"

namespace memplan {

// O((ops + operands) log segments + copies).
absl::StatusOr<Program> RewriteSchedule(const Program& program, const ProgramAnalysis& analysis,
                                        const MsaResult& result);

}  // namespace memplan
