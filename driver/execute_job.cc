#include "driver/execute_job.h"

#include <cstddef>

#include "fmt/format.h"

namespace memplan {

absl::StatusOr<ExecuteReport> ExecuteSavedPlan(const LoadedInput& input, const Plan& plan,
                                               const ExecuteOptions& options) {
  // A sub-allocation's bytes belong to its container, which the input's own
  // code (an NPU command stream) lays out: the executor cannot tell its
  // writes from a clobber, so it refuses rather than report a false one.
  std::size_t nested = 0;
  for (const Buffer& b : input.buffers.buffers) nested += b.inside() ? 1 : 0;
  if (nested > 0) {
    return absl::InvalidArgumentError(  // the caller names the plan file
        fmt::format("execute does not run sub-allocated buffers ({} of this plan's buffers sit "
                    "inside another's bytes, as --offline-plan places them); memplan verify checks "
                    "them (rule 13), or plan without --offline-plan to execute",
                    nested));
  }
  const Program* program = input.program ? &*input.program : nullptr;
  return ExecutePlan(input.buffers, plan, program, options);
}

}  // namespace memplan
