// Checks a packing in MiniMalloc's output form (a lifetime CSV whose rows
// carry an `offset`: written by `memplan plan X.csv --csv SOLUTION.csv`,
// io/csv/solution_writer.h, or by MiniMalloc itself) against the problem it
// solves, with the independent verifier (verify/verifier.h): the solution's
// offsets become a plan of one transient pool, and the problem's own rows
// (ranges, sizes, alignments, gaps, fixed offsets) are what it is checked
// against. `memplan verify X.csv SOLUTION.csv` runs it.
#pragma once

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan {

// The plan that `solution` states for `problem` (both read by
// io/csv/reader.h): buffers are matched by id; each gets one default-space
// segment over its live range at the solution's offset, in the pool
// "transient" at 0 whose size (and the plan's peak) is the highest end and
// whose lower bound is the problem's max-live bound (a buffer counting
// nothing in its dead gaps and only its window's bytes during a window;
// capped at that size, so an invalid solution still reaches the verifier).
// Not verified. Errors: InvalidArgument `solution_path:line:col: error:
// ...` when the solution has no `offset` column (at 1:1), a row without an
// offset (at its offset field), a row whose id the problem lacks (at the
// id), a row that disagrees with the problem's row on lower, upper or size
// (at the first of those fields that differs), a solution with a `gaps`
// column whose row states other gaps than the problem's row (at its gaps
// field; compared as read, so `2-4 4-6` equals `2-6`; without the column
// the problem's gaps hold), or `solution_path: error: ...` when it lacks a
// row of the problem. O(n log n + gaps).
absl::StatusOr<Plan> PlanOfCsvSolution(const BufferSet& problem, const BufferSet& solution,
                                       const std::string& solution_path);

// Reads the solution, builds the plan (PlanOfCsvSolution) and verifies it
// against `problem` (its gaps are input, VerifyOptions::input_gaps; its
// fixed offsets must be kept) and, when given, `capacity` (no buffer may
// end above that many bytes: `memplan verify X.csv SOLUTION.csv --capacity
// N`). Returns the verified plan. Errors: InvalidArgument (exit 2) for a
// solution that does not read or does not match the problem (as above);
// FailedPrecondition (exit 1) `solution_path:line:col: error: verification
// failed: ...` naming the first violated rule, located at the offset field
// of the row of the buffer it is about (ViolationBuffer, verify/verifier.h:
// e.g. a buffer above the capacity, or of two buffers live together that
// share bytes the one named first), or `solution_path: error: ...` for a
// violation about no one buffer.
absl::StatusOr<Plan> VerifyCsvSolution(const BufferSet& problem, const std::string& solution_path,
                                       std::optional<Bytes> capacity = std::nullopt);

}  // namespace memplan
