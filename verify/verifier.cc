#include "verify/verifier.h"

#include <vector>

#include "verify/checks.h"
#include "verify/program_liveness.h"

namespace memplan {

absl::Status VerifyPlan(const BufferSet& buffers, const Plan& plan, const VerifyOptions& options) {
  using namespace verify_internal;
  if (absl::Status s = CheckShapeAndSegments(buffers, plan, options); !s.ok()) return s;
  // Dead steps let two buffers share bytes; they come from the program
  // only, never from the planners' Buffer::gaps.
  const std::vector<std::vector<StepRange>> dead =
      options.program ? DeadSteps(*options.program, buffers)
                      : std::vector<std::vector<StepRange>>{};
  if (absl::Status s = CheckNoOverlap(buffers, plan, dead); !s.ok()) return s;
  if (absl::Status s = CheckCopies(buffers, plan, options); !s.ok()) return s;
  if (absl::Status s = CheckSummaries(buffers, plan, options); !s.ok()) return s;
  if (absl::Status s = CheckSingleOrigin(buffers, plan); !s.ok()) return s;
  if (absl::Status s = CheckControlFlow(buffers, plan); !s.ok()) return s;
  if (!options.program) return absl::OkStatus();
  if (absl::Status s = CheckWritesEvicted(buffers, plan, *options.program); !s.ok()) return s;
  if (absl::Status s = CheckGathers(buffers, *options.program); !s.ok()) return s;
  return CheckSliceViews(*options.program);
}

}  // namespace memplan
