// Execution-region allocation: memplan's version of IREE's ScheduleAllocation
// pass (../shared/reference/regions.md §6), on memplan's program model.
//
// Reads: a Program whose dims are bound (ir/dims.h) and its ProgramAnalysis.
// Guarantees, per region (in execution order):
//  1. constants produced in the region are hoisted into upload resources,
//     grouped by lifetime (constant, then variable), by whether they escape
//     the region and by the devices that use them; the region waits only on
//     the uploads it reads, the rest are joined into its downstream timepoint;
//  2. escaping results not tied to an operand get result reservations, one
//     per (affinity, lifetime), laid end to end (no two results alias);
//     affinity = the devices that produce and use the value (the region's,
//     a transfer's target_affinity, every region that captures it), written
//     "optimal(a,b)" when several;
//  3. every region-local buffer is a slice of the region's transient slab,
//     laid out with `options.pack`: "in-order" reproduces IREE's
//     LayoutSlices, anything else is a packing algorithm (packing/packer.h)
//     at the dims' planning point with symbolic offsets (regions/slice_layout.h);
//  4. with options.max_allocation_size, any resource above it is split
//     (regions/allocation_split.h), an over-limit item alone with a warning;
//  5. every op becomes commands (regions/lowering.h) and the host timeline
//     becomes steps: per execute, uploads, allocas (awaiting the region's
//     awaited timepoints), the execute (awaiting the allocas and the uploads
//     it reads), deallocas of its slabs (awaiting the execute) and a join that
//     later users of the region's timepoint results wait on.
// Resources of kind kPool (program-level pools) are not produced here: the
// caller adds them (driver/region_pools.h) and then calls
// ResolveCommandRanges. Sizes, offsets and ranges are symbolic; the *_bytes
// fields are filled by EvaluateRegionPlan.
#pragma once

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "ir/program.h"
#include "ir/region_plan.h"

namespace memplan {

// Runs the pass. Errors: InvalidArgument (exit 2), located, from
// FindRegionScopes (regions/region_scope.h) and for an unknown options.pack
// name; options must have alignments >= 1.
absl::StatusOr<RegionPlan> AllocateRegions(const Program& program,
                                           const ProgramAnalysis& analysis,
                                           const RegionPlanOptions& options);

// Whether `program` has an execution region (a computation of kind kRegion).
bool HasRegions(const Program& program);

// The symbolic size of buffer `b`: the max over its members of their byte
// offset in the buffer plus their size (a constant for static buffers and
// scratch buffers).
SizeExpr BufferSizeExpr(const Program& program, const ProgramAnalysis& analysis, BufferId b);

// Places every command range (value-relative after AllocateRegions) in the
// resource whose slice holds the value's buffer: resource-relative offset =
// slice offset + the value's offset in its buffer + the range offset.
// Errors: Internal when a value's buffer is in no resource (a memplan bug).
absl::Status ResolveCommandRanges(const Program& program, const ProgramAnalysis& analysis,
                                  RegionPlan& plan);

// Fills every *_bytes field at the program's evaluation point (ir/dims.h) and
// each region's slab_bytes and slab_lower_bound. Errors: InvalidArgument
// when a value overflows or exceeds kMaxTotalBytes there.
absl::Status EvaluateRegionPlan(const Program& program, RegionPlan& plan);

}  // namespace memplan
