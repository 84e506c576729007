#include "verify/region_checks.h"

#include "verify/region_internal.h"

namespace memplan {

absl::Status VerifyRegionPlan(const Program& program, const BufferSet& buffers, const Plan& plan) {
  using namespace region_verify;
  if (!plan.regions) return absl::OkStatus();
  const RegionContext ctx = MakeContext(program, buffers, plan);
  if (absl::Status s = CheckResources(ctx); !s.ok()) return s;
  if (absl::Status s = CheckSlices(ctx); !s.ok()) return s;
  if (absl::Status s = CheckCommandRanges(ctx); !s.ok()) return s;
  if (absl::Status s = CheckTimepoints(ctx); !s.ok()) return s;
  return CheckShadowExecution(ctx);
}

}  // namespace memplan
