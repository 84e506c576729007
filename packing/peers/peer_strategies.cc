#include "packing/peers/peer_strategies.h"

#include "packing/baselines.h"
#include "packing/peers/onnxruntime_pattern.h"
#include "packing/peers/tflite_arena.h"
#include "packing/peers/tflite_micro_greedy.h"
#include "packing/peers/xla_heap.h"

namespace memplan::peers {
namespace {

std::vector<PackItem> Hulls(const std::vector<PackItem>& items) {
  std::vector<PackItem> hulls = items;
  for (PackItem& item : hulls) {
    if (item.extras) item.mutable_gaps().clear();
  }
  return hulls;
}

PackResult IreeInOrder(const std::vector<PackItem>& items, Bytes alignment) {
  PackResult result = InOrderPack(Hulls(items), alignment);
  result.algorithm = "iree-in-order";
  return result;
}

PackResult NoReuse(const std::vector<PackItem>& items, Bytes alignment) {
  PackResult result = NaivePack(items, alignment);
  result.algorithm = "no-reuse";
  return result;
}

}  // namespace

const std::vector<PeerStrategy>& PeerStrategies() {
  static const std::vector<PeerStrategy> strategies = {
      {"tflite-arena", "TFLite ArenaPlanner",
       "greedy by size: largest first, each in the tightest gap among the buffers it meets",
       "tensorflow/lite/arena_planner.cc, simple_memory_arena.cc", &TfliteArenaPack},
      {"tflite-micro-greedy", "TFLite Micro GreedyMemoryPlanner",
       "greedy by size: largest first, each in the lowest gap among the buffers it meets",
       "tensorflow/lite/micro/memory_planner/greedy_memory_planner.cc",
       &TfliteMicroGreedyPack},
      {"onnxruntime-mem-pattern", "ONNX Runtime memory pattern",
       "online best fit in execution order: freed at last use, least-waste free gap, arena grows",
       "onnxruntime/core/framework/mem_pattern_planner.h", &OnnxRuntimePatternPack},
      {"iree-in-order", "IREE LayoutSlices",
       "in-order best fit: each buffer in schedule order takes the tightest gap it meets",
       "iree/compiler/Dialect/Stream/Transforms/LayoutSlices.cpp", &IreeInOrder},
      {"xla-heap", "XLA heap simulator",
       "global best fit by size and by live range (kSpatial, kTemporal), the smaller heap kept",
       "xla/service/heap_simulator/heap_simulator.cc, buffer_assignment.cc", &XlaHeapPack},
      {"no-reuse", "no reuse", "every buffer its own bytes, end to end (sum of sizes)",
       "baseline", &NoReuse},
  };
  return strategies;
}

}  // namespace memplan::peers
