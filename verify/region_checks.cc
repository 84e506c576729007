#include "verify/region_checks.h"

#include "verify/happens_before.h"
#include "verify/region_internal.h"

namespace memplan {

absl::Status VerifyRegionPlan(const Program& program, const BufferSet& buffers, const Plan& plan,
                              RegionFailureSite* site) {
  using namespace region_verify;
  if (site) *site = RegionFailureSite{};
  if (!plan.regions) return absl::OkStatus();
  const RegionContext ctx = MakeContext(program, buffers, plan, site);
  if (absl::Status s = CheckResources(ctx); !s.ok()) return s;
  if (absl::Status s = CheckSlices(ctx); !s.ok()) return s;
  if (absl::Status s = CheckDynamicViews(ctx); !s.ok()) return s;
  if (absl::Status s = CheckCommandRanges(ctx); !s.ok()) return s;
  if (absl::Status s = CheckCopies(ctx); !s.ok()) return s;
  const HappensBefore hb(ctx.regions.steps);
  if (absl::Status s = CheckTimepoints(ctx, hb); !s.ok()) return s;
  return CheckShadowExecution(ctx, hb);
}

}  // namespace memplan
