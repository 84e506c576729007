// The window an ONNX Slice takes of its data input, resolved from its
// starts/ends/axes/steps (inputs from opset 10, attributes before) — shared
// by the folder (io/onnx/fold.h, which copies the elements) and the importer
// (which records where a static slice begins, io/onnx/importer.h, so the
// alias pass can make it a view at a byte offset, io/onnx/alias.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "io/onnx/fold.h"
#include "onnx/onnx_pb.h"

namespace memplan {

// One axis of a slice: the first index taken, the step and the element count.
struct OnnxSliceAxis {
  std::int64_t start = 0;
  std::int64_t step = 1;
  std::int64_t count = 0;
};

// ONNX clamping of one axis of length `n`: negative `start`/`end` count from
// the end; with a positive step both clamp to [0, n], with a negative one to
// [-1, n-1]; the count is the number of indices start, start + step, ...
// before `end` (0 when empty). Never overflows, however large the step.
// Example: start -3, end 1000, step 1, n 8 -> {5, 1, 3}.
OnnxSliceAxis ClampOnnxSliceAxis(std::int64_t start, std::int64_t end, std::int64_t step,
                                 std::int64_t n);

// The window of Slice node `node` (opset `opset`; `inputs[i]` describes
// node.input(i), only the values of inputs 1-4 are read) over data of dims
// `data_dims`: one OnnxSliceAxis per dim, unlisted axes whole ({0, 1, n}).
// Axes default to 0, 1, ...; steps to 1. nullopt when a starts/ends/axes/steps
// value is not known, their lengths disagree, an axis is out of range or
// repeated, or a step is 0.
// Example: dims [1, 8, 4], starts [2], ends [-1], axes [1] ->
// {0,1,1}, {2,1,5}, {0,1,4}.
std::optional<std::vector<OnnxSliceAxis>> ResolveOnnxSlice(const onnx::NodeProto& node, int opset,
                                                           std::span<const FoldInput> inputs,
                                                           std::span<const std::int64_t> data_dims);

}  // namespace memplan
