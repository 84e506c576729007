// Fast memory for programs with execution regions (--fast-memory, --target):
// the target's fast memory as regions/ uses it (RegionFastMemory: which
// space, its capacity and alignment, and per buffer the seconds a run saves
// with the buffer there, from msa/cost_model.h as memory space assignment
// estimates them), and the plan's estimated times. With a hierarchy target
// the fastest level is the fast memory; the other levels hold nothing.
#pragma once

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "driver/msa_job.h"
#include "ir/plan.h"
#include "ir/program.h"
#include "ir/region_plan.h"
#include "msa/target.h"

namespace memplan {

struct RegionFastMemorySetup {
  Target target;              // as resolved, --fast-memory and --fast-memory-alignment applied
  RegionFastMemory memory;
};

// Resolves the target of `options` and rates every buffer. The alignment is
// the least common multiple of the target's and `plan_alignment`. Errors:
// InvalidArgument for a bad target (ResolveTarget), an alignment above 2^32,
// and, located at the region, a region whose device may not access the
// fast memory ("region @r runs on npu0, which cannot access memory space
// 'tcm' of target 't' ...").
absl::StatusOr<RegionFastMemorySetup> SetUpRegionFastMemory(const Program& program,
                                                            const ProgramAnalysis& analysis,
                                                            const MsaJobOptions& options,
                                                            Bytes plan_alignment);

// Fills every RegionInfo's estimated_s and all_default_s (seconds of one run
// of the region's own ops) and the RegionPlan's for the whole program (every
// op, weighted by how often it runs): an op's operands and results whose
// buffer is placed outside the default space are served by the fast memory.
void EstimateRegionTimes(const Program& program, const ProgramAnalysis& analysis,
                         const Target& target, const CostModelOptions& cost, Plan& plan);

}  // namespace memplan
