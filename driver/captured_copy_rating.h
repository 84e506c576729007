// Which captured values of the regions would gain from a copy into a fast
// level (ir/region_plan.h CopyCandidate): the driver's half of copies
// between memory spaces as region commands (regions/captured_copies.h lays
// them out and lowers them).
//
// Rule: a candidate is a parameter %v of region R with a static size whose
// buffer no op of R writes (no result of R's ops in it, none of R's returned
// values in it) and that no call of R takes, read by at least one op of R.
// Its net benefit in a level L (homed in the default level D) is
//   sum over R's ops reading %v, times their runs, of
//       (op time with all in D) - (op time with %v's operand bytes in L)
//   - runs of R x copy seconds,
// the op times from msa/cost_model.h (for memory-bound ops: bytes read x
// (1 / bandwidth(D) - 1 / bandwidth(L))). Copy seconds: on a flat target
// bytes / copy_bandwidth, as memory space assignment costs a prefetch; on a
// hierarchy target each leg of FindCopyRoute(D, L) costs its source level's
// latency plus bytes / the link's bandwidth (no route: no candidate). Only
// net benefits > 0 are kept. Deterministic: by region, then value id.
// Cost: O(ops + params x ops of their region).
//
// Example (edge-npu: 8e9 B/s default and copies, 64e9 B/s fast): a 4096-byte
// weight read by 4 memory-bound dispatches gains 4 x 4096 x (1/8e9 -
// 1/64e9) = 1.792e-6 s, its copy costs 4096 / 8e9 = 5.12e-7 s: net
// 1.28e-6 s, a candidate; one read only (4.48e-7 s) is not.
#pragma once

#include <vector>

#include "analysis/analyze.h"
#include "ir/program.h"
#include "ir/region_plan.h"
#include "msa/cost_model.h"
#include "msa/target.h"

namespace memplan {

// `rated` is the target with its alternate bandwidth set to the level's (as
// driver/region_fast_memory.h rates slices); `level` is the level's index in
// rated.spaces on a hierarchy target (ignored on a flat one).
std::vector<CopyCandidate> RateCapturedCopies(const Program& program,
                                              const ProgramAnalysis& analysis,
                                              const Target& rated, int level,
                                              const CostModelOptions& cost);

}  // namespace memplan
