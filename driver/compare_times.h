// The estimated-time section of `memplan compare` (report/compare_times.h):
// plans the input with fast memory as `memplan plan` does and reads every
// strategy's estimate off that run — on a memory hierarchy, the candidates
// of the hierarchy portfolio (msa/hierarchy.h), ExecuTorch's banked
// strategy among them; on two spaces, memplan's default mode, a second run
// in reference mode, and the all-default and all-fast times.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "driver/input.h"
#include "driver/msa_job.h"
#include "report/compare_times.h"

namespace memplan {

// `input` is the loaded input (`input_path` names it in messages);
// `alignment` is compare's --alignment, the plan's as with `memplan plan
// --alignment`. Errors:
// those of RunPlanJob with fast memory: InvalidArgument (exit 2) for a bad
// target or knob, or an input without costs (a lifetime CSV);
// Internal when a plan fails verification. When memplan's plan does not
// fit the target (RunPlanJob's ResourceExhausted) the result has no rows
// and CompareTimes::does_not_fit says why (memplan compare prints its
// arena table, then exits 1).
absl::StatusOr<CompareTimes> CompareTimesOf(const std::string& input_path,
                                            const LoadedInput& input, const MsaJobOptions& msa,
                                            Bytes alignment);

}  // namespace memplan
