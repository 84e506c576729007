// Online best fit: replay the items as a trace of allocations and frees in
// start-time order, the way a runtime allocator with a best-fit free list
// would place them (ONNX Runtime's early MemPatternPlanner, XLA's FastMerge
// free-chunks sweep; packing.md §2.4, §3.6; the free list is FreeBlocks,
// free_blocks.h). peers/onnxruntime_pattern.h emulates today's ONNX Runtime
// rule, which differs in order and in how it weighs the space below the
// high-water mark. Unlike the global packers it
// never looks at the chunks live during an item's whole range, only at the
// free blocks at its start, so it costs O(n log n) however many items
// overlap: the portfolio's fallback for dense inputs.
//
// Sweep: items by (start, size desc, longer range, index). Before the items
// starting at t are placed, every item ending before t is freed; its block
// merges with free neighbours. An item takes the smallest free block it fits
// in (ties: lower offset), at the block's aligned start. The space above the
// highest live block is one unbounded free block, so an item that fits no
// hole lands right on top of the live blocks (reusing any free space just
// below the top), and the peak grows by no more than it must.
//
// Example (alignment 1): a(10)[0,3] b(20)[1,6] c(40)[2,7] d(30)[4,8]
// e(50)[5,9]. a 0, b 10, c 30; at t=4 a is freed: hole [0,10) is too small
// for d -> 70 on top; at t=5 e -> 100. Peak 150.
#pragma once

#include <vector>

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan {

// Online best-fit packing; every offset is a multiple of max(item.alignment,
// alignment); zero-size items go to 0. O(n log n).
PackResult OnlineBestFitPack(const std::vector<PackItem>& items, Bytes alignment);

}  // namespace memplan
