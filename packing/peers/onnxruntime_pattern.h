// ONNX Runtime's memory pattern (onnxruntime/core/framework/
// mem_pattern_planner.h, MemPatternPlanner::TraceAllocation / TraceFree, as
// driven by SessionState when a session with static shapes records its
// allocation pattern), emulated on PackItems: online best fit in execution
// order.
//
// Replay: items by (start, index) — a node's outputs in the order the
// schedule defines them. Before the items of step t, every item that ended
// before t is freed (ORT frees a value after the node that last reads it).
// Each size is rounded up to the effective alignment (ORT rounds to 64 B).
//
// Placement: among the gaps between the live blocks (from offset 0 up to
// the highest live block's end, `top`) and the gap [top, high-water mark)
// left by blocks freed at the top, take the one that wastes the fewest bytes
// (gap minus size; ties: the lower gap); with none, place at `top` and raise
// the high-water mark. Considering the space below the high-water mark as a
// gap of its own is what sets today's planner apart from memplan's
// online-best-fit (online_best_fit.h, ORT's early rule): a tight fit there
// beats a loose gap further down. The arena is the high-water mark. Zero-size
// items go to offset 0.
//
// Example (alignment 1), items (size)[start,end] in this order: p(40)[0,1]
// -> 0; q(4)[0,9] -> 40; r(10)[0,1] -> 44 (high water 54). At step 2 p and
// r are freed: gap [0,40) and top gap [44,54). s(10)[2,9] wastes 30 below
// and 0 on top -> 44; t(38)[3,9] then fits [0,40) -> 0. Arena 54. Without
// the top gap (ORT's early rule) s would take 0 and t go on top at 44:
// arena 82.
#pragma once

#include <vector>

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan::peers {

// ORT memory-pattern planning of `items` (hulls; gaps ignored); every offset
// is a multiple of max(item.alignment, alignment); the peak counts the
// items' own sizes. PackResult::algorithm is "onnxruntime-mem-pattern".
// O(n log n).
PackResult OnnxRuntimePatternPack(const std::vector<PackItem>& items, Bytes alignment);

}  // namespace memplan::peers
