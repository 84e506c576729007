// Step 5 of regions/allocate_regions.h: the host timeline. Walks the
// flattened schedule and emits, in order:
//  * a join step for each timepoint parameter of the entry (already
//    signalled: the caller provides it) and a host step whose `input` command
//    writes the entry's parameters;
//  * per execute of region R: an upload step per upload resource of R
//    (`upload` commands writing its constants), an alloca step per result and
//    slab resource (awaiting the execute's timepoint operands), the execute
//    step (awaiting those, the allocas and the uploads R reads; R's commands
//    from regions/lowering.h), a dealloca step per slab (awaiting the
//    execute), and a join of the execute, the deallocas and the uploads R did
//    not wait on (omitted when it would join the execute alone) — the
//    timepoint the execute's timepoint results stand for downstream;
//  * for host ops: a join step for an op with timepoint results (`join`,
//    awaiting its timepoint operands); a host step with the op's commands
//    (load, store, constants as `upload`, other compute as `dispatch`);
//  * a host step whose `output` command reads the entry's results and the
//    initializers' results.
// Timepoint names: the entry parameter's name, "<resource>.ready",
// "<region>.done", "<resource>.freed", "<region>.joined", and a join op's
// result name.
#pragma once

#include "analysis/analyze.h"
#include "ir/program.h"
#include "ir/region_plan.h"
#include "regions/region_scope.h"

namespace memplan {

// Appends plan.steps and fills each RegionInfo's `downstream`. Needs
// plan.resources and plan.regions from BuildRegionResources. Command ranges
// are value-relative (regions/lowering.h).
void BuildHostTimeline(const Program& program, const ProgramAnalysis& analysis,
                       const RegionScopes& scopes, RegionPlan& plan);

}  // namespace memplan
