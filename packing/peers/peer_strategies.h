// The offset strategies of well-known planners that `memplan compare` sets
// beside memplan's own plan, in table order, each with the one-line rule and
// the source it follows (docs/compare.md describes each).
//
// Every strategy reads the items as their hulls [start, end]: none of these
// planners lets a buffer reuse the bytes of a conditional's untaken branch
// (memplan's plan and the lower bound do, PackItem::gaps). Each returns
// offsets that are multiples of max(item.alignment, alignment).
//
// | name                    | planner                          | file                   |
// |-------------------------|----------------------------------|------------------------|
// | tflite-arena            | TFLite ArenaPlanner              | tflite_arena.h         |
// | tflite-micro-greedy     | TFLite Micro GreedyMemoryPlanner | tflite_micro_greedy.h  |
// | onnxruntime-mem-pattern | ONNX Runtime MemPatternPlanner   | onnxruntime_pattern.h  |
// | iree-in-order           | IREE LayoutSlices                | ../baselines.h InOrderPack (the same algorithm) |
// | xla-heap                | XLA heap simulator               | xla_heap.h (memplan's best-fit-spatial/temporal) |
// | no-reuse                | every buffer its own bytes       | ../baselines.h NaivePack |
#pragma once

#include <string_view>
#include <vector>

#include "ir/units.h"
#include "packing/packer.h"

namespace memplan::peers {

struct PeerStrategy {
  std::string_view name;     // e.g. "tflite-arena"
  std::string_view planner;  // whose strategy, e.g. "TFLite ArenaPlanner"
  std::string_view rule;     // one line: order and placement rule
  std::string_view source;   // the files it follows
  // Packs the items (gaps ignored). PackResult::algorithm is `name`, except
  // for xla-heap, where it names the winning run.
  PackResult (*pack)(const std::vector<PackItem>& items, Bytes alignment);
};

// Every strategy, in the order above.
const std::vector<PeerStrategy>& PeerStrategies();

}  // namespace memplan::peers
