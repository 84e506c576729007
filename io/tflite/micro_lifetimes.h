// The arena-head tensors of a TFLite model's subgraph 0 with the lifetimes
// TFLite Micro's allocator gives them (its rule, docs/tflite.md): a tensor
// is live from the operator that writes it (graph inputs, and tensors that
// no operator writes, from their first use; graph inputs from operator 0) to
// the last operator that reads it (graph outputs to the last operator).
// Weights (tensors with buffer data) and variables are not in the head.
// Unlike memplan's program, no tensor shares bytes with another: TFLite
// Micro's greedy planner places a RESHAPE's output as a tensor of its own.
//
// Example (tflite_test::ConvReshapeFc): input [0,0] 32 B, conv [0,1] 64 B,
// reshape [1,2] 64 B, output [2,2] 8 B.
#pragma once

#include <cstdint>
#include <vector>

#include "io/tflite/model.h"

namespace memplan {

struct TfliteHeadTensor {
  std::int32_t tensor = 0;   // index in subgraph 0
  std::int64_t bytes = 0;
  std::int64_t first = 0;    // operator index
  std::int64_t last = 0;     // operator index, >= first
};

// In tensor order. Tensors no operator or graph input/output touches are
// left out, as are tensors of no fixed size (the importer refuses those).
// O(tensors + operand lists).
std::vector<TfliteHeadTensor> TfliteMicroHeadTensors(const TfliteModel& model);

}  // namespace memplan
