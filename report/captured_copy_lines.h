// The summary's view of regions' copies of captured values (RegionCopy,
// ir/region_plan.h): a copy holds bytes of its fast slab from its step
// through its last read but is no buffer of the plan, so the pool table and
// the activation peak, which count placed buffers, add it here.
#pragma once

#include <cstdint>
#include <string>

#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"

namespace memplan {

// `segments` plus one transient buffer "<value> (copy)" per region copy into
// `space`, live over [copy step, last read]; `copies` is set to how many.
BufferSet WithCapturedCopies(const BufferSet& segments, const Plan& plan, const Program* program,
                             MemorySpace space, std::int64_t& copies);

// The note under a fast slab's pool row when it holds copies, e.g.
//   "  (r.scratchpad also holds 1 copy (w, 4096 bytes over steps 0..3) in its
//   extent; ...)\n"; "" without copies. The row itself stays the plan's
//   PoolInfo, whose counts verify/summary_checks.cc checks against the slices.
std::string PoolCopiesNote(const Plan& plan, const Program* program, const PoolInfo& pool);

}  // namespace memplan
