// The plan of a program with execution regions: regions/ allocates each
// region's uploads, result reservations and transient slab; every such
// allocation becomes a pool with a time range (slabs exist over their
// region's span, result reservations from the region's start to their last
// use, uploads for the whole run), placed among the default-space pools of
// its lifetime by driver/pools.h (PlanPoolsAround), so that allocations never
// alive together share memory — what a queue-ordered allocator could reuse,
// and what IREE's per-region planning leaves on the table. Buffers outside
// every region allocation (entry parameters, host values) form the usual
// program pools, which the region plan lists as resources of kind "pool";
// a host buffer a region reads or writes keeps its bytes to the end of the
// run (the region may still run when the host's text order has moved on).
// Finally every command range is placed in its resource and every figure is
// evaluated at the dims' evaluation point (ir/dims.h). With
// RegionPlanOptions::fast_memory, each level's slabs are packed over their
// time ranges into the level's space (declared with its capacity); while
// that arena exceeds the capacity (regions that may run at once), the slice
// or captured copy with the lowest benefit per byte in the fastest such
// level leaves it (a slower level or the slab may take it) and the regions
// are planned again.
#pragma once

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "driver/pools.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "ir/region_plan.h"

namespace memplan {

// Errors: those of AllocateRegions and EvaluateRegionPlan (InvalidArgument);
// InvalidArgument for a value pinned to a memory space other than the
// default (not supported with regions); ResourceExhausted as PlanPools when
// the default space exceeds options.capacity; Internal for a memplan bug.
// With `reuse` false, nothing shares memory: slabs are laid out end to end
// and every allocation exists for the whole run — the program as written,
// for telling an input that reads data it overwrote from a planner bug.
absl::StatusOr<Plan> PlanRegions(const Program& program, const ProgramAnalysis& analysis,
                                 const RegionPlanOptions& region_options,
                                 const PoolPlanOptions& options, bool reuse = true);

}  // namespace memplan
