// TFLite Micro's GreedyMemoryPlanner
// (tensorflow/lite/micro/memory_planner/greedy_memory_planner.cc),
// emulated on PackItems: greedy by size, first fit.
//
// Order: sizes, largest first; equal sizes keep their input order (the
// planner's ReverseSortInPlace is a stable bubble sort). TFLM rounds every
// size up to its 16-byte buffer alignment before planning; here sizes are
// rounded up to the effective alignment (max(item.alignment, alignment)).
//
// Placement (CalculateOffsetsIfNeeded): walk the placed items whose closed
// lifetimes meet the new one's, in order of offset; the candidate starts at
// 0 and becomes the highest end seen so far (rounded up to the alignment)
// after each. The item goes into the first gap below a placed item that
// holds it, else after the last: the lowest gap that fits, where TFLite's
// arena planner (tflite_arena.h) takes the tightest one. That is the whole
// difference between the two: same order up to ties, same walk, first fit
// instead of best fit. Offline-planned offsets (a Vela metadata plan) are not
// modelled. Zero-size items go to offset 0.
//
// Example (alignment 1): a(10)[0,3] b(20)[1,6] c(40)[2,7] d(30)[4,8]
// e(50)[5,9], order e, c, d, b, a: e 0, c 50, d 90, b 120, and a (meeting c
// at 50 and b at 120) takes the first gap [0,50) -> 0, where TFLite's best
// fit picks the tighter [90,120). Arena 140 either way.
#pragma once

#include <vector>

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan::peers {

// TFLM greedy planning of `items` (hulls; gaps ignored); every offset is a
// multiple of max(item.alignment, alignment); the peak counts the items'
// own sizes (not the rounded ones). PackResult::algorithm is
// "tflite-micro-greedy". O(n log n + p log p), p the pairs of items live
// together.
PackResult TfliteMicroGreedyPack(const std::vector<PackItem>& items, Bytes alignment);

}  // namespace memplan::peers
