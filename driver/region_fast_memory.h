// Fast memory for programs with execution regions (--fast-memory, --target):
// the levels regions/ may move slab slices to (RegionFastMemory: per level
// its space, capacity, alignment, the devices that may access it, and per
// buffer the seconds a run saves with the buffer there, from
// msa/cost_model.h as memory space assignment estimates them), and the
// plan's estimated times. A flat target has one level, its alternate memory;
// a hierarchy target every writable level faster than its slowest writable
// one (the default space), fastest first.
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

// Resolves the target of `options` and rates every buffer per level: its
// benefit in a level is computed with the level's bandwidth (the slower of
// its read and write ones; a flat target's alternate_bandwidth) as the fast
// memory's. --fast-memory sizes the fastest level. Each level's alignment is
// the least common multiple of its own and `plan_alignment`. Errors:
// InvalidArgument for a bad target (ResolveTarget), an alignment above
// 2^32, and a hierarchy target without a writable level faster than its
// default one. A level a region's device may not access is no error: that
// region's slices skip it (regions/region_resources.h).
// Example: npu-3level gives scratchpad (space 1, 256 KiB, 256e9 B/s) and
// sram (space 2, 4 MiB, 64e9 B/s); a 4096-byte buffer read once saves
// 4096 / 8e9 - 4096 / 256e9 s in the first, 4096 / 8e9 - 4096 / 64e9 s in
// the second.
absl::StatusOr<RegionFastMemorySetup> SetUpRegionFastMemory(const Program& program,
                                                            const ProgramAnalysis& analysis,
                                                            const MsaJobOptions& options,
                                                            Bytes plan_alignment);

// Fills every RegionInfo's estimated_s and all_default_s (seconds of one run
// of the region's own ops) and the RegionPlan's for the whole program (every
// op, weighted by how often it runs): an op's operand and result bytes whose
// buffer is placed outside the default space move at that space's bandwidth
// (as SetUpRegionFastMemory rates it), the rest at the default bandwidth;
// the op takes max(compute, memory) seconds.
void EstimateRegionTimes(const Program& program, const ProgramAnalysis& analysis,
                         const Target& target, const CostModelOptions& cost, Plan& plan);

}  // namespace memplan
