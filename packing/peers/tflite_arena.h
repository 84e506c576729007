// TFLite's arena planner (tensorflow/lite/arena_planner.cc with
// simple_memory_arena.cc), emulated on PackItems: greedy by size, best fit.
//
// Order (ArenaPlanner::CreateTensorAllocationVector): items alive for the
// whole run (starting at step 0 and ending at the last step any item
// reaches: graph inputs and variables, which TFLite never frees) come
// first, by index; then the rest by size, largest first, then earlier start,
// then index (TFLite's std::sort leaves that last tie unspecified).
//
// Placement (SimpleMemoryArena::Allocate): walk the placed items whose
// closed lifetimes meet the new one's, in order of offset, keeping `current`
// = the highest end seen so far. Before each, the candidate is `current`
// rounded up to the alignment; it is taken when the item fits below that
// placed item and the room there (the placed item's offset minus the
// candidate) is below the best so far, which is then recorded as the room
// measured from the unaligned `current` (TFLite's own quirk: with
// alignment 1 this is plain best fit, ties to the lower gap). With no gap,
// the item goes to `current` rounded up: on top of the items it meets, not
// on top of the arena.
//
// Differences from memplan's best-fit-spatial (XLA's kSpatial): the
// whole-run group first, ties by start instead of by longer range, the room
// quirk above. Zero-size items go to offset 0.
//
// Example (alignment 1): a(10)[0,3] b(20)[1,6] c(40)[2,7] d(30)[4,8]
// e(50)[5,9]. Order e, c, d, b, a: e 0; c meets e -> 50; d meets e, c -> 90;
// b meets all three -> 120; a meets c (50..90) and b (120..140): gaps
// [0,50) (room 50) and [90,120) (room 30) -> 90. Arena 140.
#pragma once

#include <vector>

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan::peers {

// TFLite arena planning of `items` (hulls; gaps ignored); every offset is a
// multiple of max(item.alignment, alignment). PackResult::algorithm is
// "tflite-arena". O(n log n + p log p), p the pairs of items live together.
PackResult TfliteArenaPack(const std::vector<PackItem>& items, Bytes alignment);

}  // namespace memplan::peers
