// Which buffers each execution region owns, and in what role: the
// classification at the heart of IREE's ScheduleAllocation, on memplan's
// program-wide alias sets (analysis/alias_sets.h) instead of per-region
// union-find. Reads: a Program and its ProgramAnalysis. Guarantees: every
// buffer has at most one owning region.
//
// A region R covers its own ops and those of the funcs it calls. For each
// buffer (alias set) with a member defined there:
//  * a member is a parameter of R         -> captured: R uses storage owned
//    outside (tied results map to their operand, pass-through results become
//    the operand), so R allocates nothing for it;
//  * else a member is returned by R       -> escaping: an upload when it is a
//    constant produced in R (constant/variable lifetime), else a result
//    reservation;
//  * else                                 -> local: an upload (region-local
//    constant) or a slice of R's transient slab (whatever its declared
//    lifetime, as IREE does). Scratch buffers of R's ops are slab slices.
//
// Example (examples/region.mpir): @stage owns slab {zeros, t0, t1/acc,
// o.scratch} and result {o}; %in is captured.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "analysis/analyze.h"
#include "ir/program.h"

namespace memplan {

struct RegionScope {
  ComputationId region = kNoId;
  OpId execute = kNoId;                      // the op that runs it
  bool once = false;                         // runs at most once per run (initializer, no loop)
  std::vector<ComputationId> computations;   // the region, then the funcs it calls
  std::vector<BufferId> slab;                // ascending
  std::vector<BufferId> results;             // ascending
  std::vector<BufferId> uploads;             // ascending
  std::vector<bool> upload_escapes;          // parallel to uploads
};

struct RegionScopes {
  std::vector<RegionScope> regions;          // in flattened (execution) order
  std::vector<std::int32_t> owner;           // per BufferId: index into regions, or kNoId
};

// Classifies every buffer. Errors (InvalidArgument, located at the op or
// value):
//  * "while inside execution region @r: regions hold async commands only;
//    move the loop to the host function around the region" (also
//    conditional and execute);
//  * "%x is read by <opcode> after %y overwrote it in place (at L:C); clone
//    it first (e.g. %x_copy = clone(%x)) and read the clone" — a read of a
//    value, inside a region, at or after the time an op writes a result
//    tied to it (IREE's MaterializeCopyOnWrite would have inserted the clone);
//  * "execute of @b reads %x, produced by region @a, without waiting for it:
//    ..." — an execute whose operand another region produced, when none of
//    its timepoint operands implies that region's completion (through
//    execute timepoint results and joins; a called func's timepoint
//    parameter stands for its call site's operand).
absl::StatusOr<RegionScopes> FindRegionScopes(const Program& program,
                                              const ProgramAnalysis& analysis);

}  // namespace memplan
