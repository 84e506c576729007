// The fast path of InferOnnxShapes (io/onnx/shapes.h) for graphs without
// subgraphs: ONNX shape inference over windows of consecutive nodes, with
// folding (io/onnx/fold.h) between windows.
//
// Why: whole-graph rounds (infer everything, fold, infer everything again)
// cost O(nodes x rounds), and a model alternating folds and inferred shapes
// along its depth (a Swin block: pad sizes -> Pad -> Shape -> window
// reshape) needs a round per alternation. Here a node is inferred again only
// when a node before it in its window folded, so the cost is O(nodes +
// folds x kWindowNodes).
#pragma once

#include <optional>
#include <string>
#include <unordered_map>

#include "io/onnx/known_tensor.h"
#include "onnx/onnx_pb.h"

namespace memplan {

// Nodes per inference window: bounds the nodes inferred again after a fold
// (each fold re-infers at most this many) while keeping the number of
// libonnx calls per node small.
inline constexpr int kWindowNodes = 32;

// Infers the types of `model`'s main graph (symbolic dims already bound)
// window by window. A window is kWindowNodes nodes whose inputs are typed
// from the graph inputs and earlier windows, known values (`values`, e.g.
// integer initializers and folded outputs) and small initializers given as
// data; after inference its nodes fold in order into `values` (and into
// Constant nodes of `model`), and the next window starts after the first node
// that folded (nodes before it are final), else after the window.
// Returns, like the whole-graph inference, a GraphProto holding the graph's
// inputs, value_info (every node output that is not a graph output) and
// outputs with their inferred types, when every node output has static dims.
// nullopt when the graph has a subgraph, a node output stays without static
// dims, a node reads an undefined tensor, or libonnx reports an error: the
// caller then runs whole-graph rounds, whose results and messages are the
// reference. Runs libonnx in the calling process: call it in a child
// process (io/onnx/child_process.h).
std::optional<onnx::GraphProto> InferInWindows(onnx::ModelProto& model,
                                               std::unordered_map<std::string, KnownTensor>& values);

}  // namespace memplan
