// Steps 1-4 of regions/allocate_regions.h: the upload, result and slab
// resources of every region, with their slices laid out.
#pragma once

#include "absl/status/status.h"
#include "analysis/analyze.h"
#include "ir/program.h"
#include "ir/region_plan.h"
#include "packing/packer.h"
#include "regions/region_scope.h"
#include "regions/slice_layout.h"

namespace memplan {

struct ResourceBuildOptions {
  LayoutOptions layout;
  bool in_order = false;                 // IREE's LayoutSlices for slabs
  PackingAlgorithm algorithm = PackingAlgorithm::kAuto;  // otherwise
  std::optional<Bytes> max_allocation_size;
  std::optional<RegionFastMemory> fast_memory;  // fast slabs (regions/fast_slab.h)
};

// With fast memory, each level (fastest first) the region's device may
// access takes, from the slab slices no faster level took, those
// ChooseFastSlices picks by the level's benefits and capacity into a slab
// "<region>.<suffix>" in its space (offsets also multiples of its
// alignment; Resource::devices its devices); a name already taken (a level
// called "slab") gets ".fast" appended. The level's captured copies of the
// region (RegionFastLevel::copies) no faster level took compete in the same
// choice; those taken are laid out in the fast slab and recorded in
// RegionInfo::copies (regions/captured_copies.h). The rest stays in "<region>.slab".
// Appends to plan.resources and plan.regions (one RegionInfo per scope, in
// the same order; RegionInfo::resources lists the region's own resources
// only, the host timeline adds captured ones) and plan.warnings.
void BuildRegionResources(const Program& program, const ProgramAnalysis& analysis,
                          const RegionScopes& scopes, const ResourceBuildOptions& options,
                          RegionPlan& plan);

// "gpu0" for one device, "optimal(gpu0,gpu1)" for several (in order of
// first appearance), "" for none; empty names are skipped.
std::string JoinAffinities(const std::vector<std::string>& affinities);

}  // namespace memplan
