#include "driver/execute_job.h"

namespace memplan {

absl::StatusOr<ExecuteReport> ExecuteSavedPlan(const LoadedInput& input, const Plan& plan,
                                               const ExecuteOptions& options) {
  const Program* program = input.program ? &*input.program : nullptr;
  return ExecutePlan(input.buffers, plan, program, options);
}

}  // namespace memplan
