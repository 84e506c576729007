// New static shapes for an ONNX model's graph inputs (`--input-shape
// NAME=8x3x224x224`, `sweep --batch 1,2,4,8`), e.g. to ask how the peak grows
// with the batch of a model exported at [1, 3, 224, 224]: every other shape
// is inferred again from them (io/onnx/shapes.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "onnx/onnx_pb.h"

namespace memplan {

struct OnnxInputShapes {
  // Graph input name -> its dims, e.g. {"input", {8, 3, 224, 224}}.
  std::map<std::string, std::vector<std::int64_t>> shapes;
  // The leading dim of every graph input of rank >= 1 (before `shapes`,
  // which win for the inputs they name).
  std::optional<std::int64_t> batch;
  bool empty() const { return shapes.empty() && !batch; }
};

// Gives the graph inputs of `graph` (initializers excluded) the dims of
// `given` and drops the shapes of its value_info and outputs (element types
// stay), so shape inference derives them from the new inputs. Nothing
// changes when `given` is empty. Errors (InvalidArgument `path: error:
// ...`): a name that is no graph input ("--input-shape img=1x3x8x8: the
// model has no input 'img' (its inputs: x)"), or a shape of another rank
// than the input's declared one ("--input-shape x=8x3: input 'x' has rank 4
// ([1, 3, 224, 224])").
absl::Status SetOnnxInputShapes(onnx::GraphProto& graph, const OnnxInputShapes& given,
                                std::string_view path);

// `8x3x224x224` for messages.
std::string FormatInputShape(const std::vector<std::int64_t>& dims);

}  // namespace memplan
