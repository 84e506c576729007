// The exact solver's first packing (its incumbent), from heuristics called
// directly, never through kAuto: AutoPack may one day run the exact solver
// as a member, and the incumbent must not recurse into it.
//
// Measured on MiniMalloc's challenging A-K at capacity 1,048,576 (Release,
// docs/packing.md "exact"): no heuristic packing fits there, so in capacity
// mode all the incumbent can do is skip the search on easy inputs; the
// constructive members take about 1 ms on these inputs, where kAuto at the
// default effort spent 0.7-1 CPU s per instance on its local search for a
// packing that still did not fit. In minimize mode the local search's lower
// peak saves decisions, so it runs there (ExactIncumbent's `search`).
#pragma once

#include <vector>

#include "ir/units.h"
#include "packing/deadline.h"
#include "packing/packer.h"

namespace memplan::exact {

// The lowest-peak packing of the constructive members (skyline-area,
// skyline-longest, the four best-fit orders, in-order, online-best-fit; ties
// to the earlier in that list), and with `search` also skyline-local-search
// at the default effort from the lower of the two skyline packings (kept
// only when strictly lower). Every offset is a
// multiple of max(item alignment, alignment); fixed offsets are not
// honoured (the caller seeds inputs with fixed items from the search).
// Deterministic without a `deadline`. With one, a member still running when
// it passes gives up (online-best-fit, O(n log n), always runs, so there is
// a packing) and the local search stops there: the incumbent of a search
// with --time-limit 1 on 18,692 buffers took 5 s when the heuristics
// ignored it. Cost: O(n log n + p log n) for p overlapping pairs, plus the
// local search's budget with `search`.
std::vector<Bytes> ExactIncumbent(const std::vector<PackItem>& items, Bytes alignment, bool search,
                                  const PackDeadline& deadline = {});

}  // namespace memplan::exact
