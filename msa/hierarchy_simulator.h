// Run-time simulator and time bound for a memory hierarchy (issue 27): the
// two-space simulator (msa/simulator.h) with every buffer's default-memory
// data in its *home* space, one level of the target, and one DMA queue set
// per link.
//
// Model, as SimulateMsa's, except:
//  * an op's memory time is the sum, over its operand (result) positions, of
//    the bytes it reads (writes) there divided by the read (write) bandwidth
//    of the level serving the position — level 0 when an alternate segment
//    serves it (msa/residency.h), else the buffer's home level — plus, once
//    per level it touches, that level's latency; bytes not attributed to a
//    position (Op::cost.bytes_accessed on size-0 values) are read from the
//    slowest writable level. The op takes max(compute, memory) seconds;
//  * a prefetch of buffer b goes over the link from b's home level to level
//    0, an eviction the other way; each link serves its copies in issue
//    order on the first of its `queues` queues to be free, taking the
//    source level's latency plus bytes / the link's bandwidth.
//    Copies on different links run concurrently (contention is per link).
//    A staged prefetch (AsyncCopy::via) runs its first leg on the link
//    home -> via and, when that finishes, its second on via -> level 0,
//    each leg as a copy of its own link (its queues, source latency and
//    bandwidth); the copy is done when the second leg finishes.
#pragma once

#include <vector>

#include "analysis/analyze.h"
#include "msa/assignment.h"
#include "msa/cost_model.h"
#include "msa/simulator.h"
#include "msa/target.h"

namespace memplan {

// Simulates `fast` (level-0 segments and copies, sorted by start) with home
// spaces `home` (plan space ids, msa/target.h SpaceIdOfLevel; per buffer)
// on hierarchy target `target`. A copy on a pair without a link uses the
// target's copy_bandwidth on one extra queue (the verifier refuses such a
// plan). O(ops + operands * log segments + copies * queues).
SimulationResult SimulateHierarchy(const ProgramAnalysis& analysis, const CostModel& cost,
                                   const Target& target, const MsaResult& fast,
                                   const std::vector<MemorySpace>& home);

// The time with every operand byte read at the highest read bandwidth of
// any level and every result byte written at the highest write bandwidth,
// no copies: bounds every plan's SimulateHierarchy time from below (a
// hierarchy plan's time_all_fast_s). Its time_all_default_s is
// SimulateHierarchy with every buffer in the slowest writable level, the
// default space.
double HierarchyTimeAllFastest(const ProgramAnalysis& analysis, const CostModel& cost,
                               const Target& target);

// A lower bound on SimulateHierarchy's elapsed_s of any plan on `target`
// (msa/time_bound.h's relaxation with N levels): copies free, latencies
// (a copy's) left out, each level charging max(read, write) bandwidth for every byte,
// and per op a fractional knapsack over the levels: the op's buffers by
// bytes accessed per byte of size fill the fastest level's capacity, then
// the next one's, the rest at the slowest writable level's bandwidth. A
// buffer nested in another (Buffer::inside) weighs 0. O(ops k log k).
double HierarchyTimeBound(const ProgramAnalysis& analysis, const CostModel& cost,
                          const Target& target);

}  // namespace memplan
