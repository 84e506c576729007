// `memplan execute`: runs a saved plan on real byte arenas (execute/).
#pragma once

#include "absl/status/statusor.h"
#include "driver/input.h"
#include "execute/executor.h"
#include "ir/plan.h"

namespace memplan {

// Runs `plan` (read back for `input`) with ExecutePlan (execute/executor.h):
// a second check of the plan, independent of the verifier. Errors: those of
// ExecutePlan (FailedPrecondition: a read found other data than its
// producer wrote; InvalidArgument: the arenas are over the limit, or the plan
// is for another input).
absl::StatusOr<ExecuteReport> ExecuteSavedPlan(const LoadedInput& input, const Plan& plan,
                                               const ExecuteOptions& options = {});

}  // namespace memplan
