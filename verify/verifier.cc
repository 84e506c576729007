#include "verify/verifier.h"

#include "verify/checks.h"

namespace memplan {

absl::Status VerifyPlan(const BufferSet& buffers, const Plan& plan, const VerifyOptions& options) {
  using namespace verify_internal;
  if (absl::Status s = CheckShapeAndSegments(buffers, plan, options); !s.ok()) return s;
  if (absl::Status s = CheckNoOverlap(buffers, plan); !s.ok()) return s;
  if (absl::Status s = CheckCopies(buffers, plan, options); !s.ok()) return s;
  if (absl::Status s = CheckSummaries(buffers, plan, options); !s.ok()) return s;
  if (absl::Status s = CheckSingleOrigin(buffers, plan); !s.ok()) return s;
  return CheckControlFlow(buffers, plan);
}

}  // namespace memplan
