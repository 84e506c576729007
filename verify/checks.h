// The verifier's rule groups (see verify/verifier.h for the rules). Each
// check assumes the groups before it passed: e.g. the overlap sweep relies on
// segments being well-formed and one buffer's segments being disjoint in time
// within a space.
#pragma once

#include "absl/status/status.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "verify/verifier.h"

namespace memplan::verify_internal {

// Rules 1 and 2: plan shape, each segment, coverage of live ranges.
absl::Status CheckShapeAndSegments(const BufferSet& buffers, const Plan& plan,
                                   const VerifyOptions& options);

// Rule 3: no two live segments of one space share a byte.
absl::Status CheckNoOverlap(const BufferSet& buffers, const Plan& plan);

// Rules 4 and 5: async copies and outstanding-copy limits.
absl::Status CheckCopies(const BufferSet& buffers, const Plan& plan, const VerifyOptions& options);

// Rules 6 and 7: pools, space peaks, plan peak and lower bound, MSA counts.
absl::Status CheckSummaries(const BufferSet& buffers, const Plan& plan,
                            const VerifyOptions& options);

// Rule 8: one segment per buffer holds the data from its start without a copy.
absl::Status CheckSingleOrigin(const BufferSet& buffers, const Plan& plan);

// Rule 9: segments and copies respect while loops and conditionals.
absl::Status CheckControlFlow(const BufferSet& buffers, const Plan& plan);

}  // namespace memplan::verify_internal
