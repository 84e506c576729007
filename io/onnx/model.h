// Reading an ONNX model file and checking what the importer relies on, before
// any shape work: a parsable ModelProto with a graph of nodes, opsets the
// installed libonnx knows, ops in its schema registry, no control flow.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"

namespace memplan {

// Parses `path` with protobuf and checks it (never reads external weight
// data). On success the domain alias "ai.onnx" is normalized to "" in the
// opset imports and nodes. Errors (InvalidArgument, `path: error: ...`):
//  * unreadable file;
//  * not a ModelProto (corrupt, truncated or another format: protobuf may
//    accept garbage, so an ir_version >= 3, a default-domain opset import and
//    a graph with nodes are required); when protobuf fails, the byte where
//    the wire format breaks and the field there (io/onnx/wire_damage.h);
//  * an opset newer than libonnx knows, or imported twice;
//  * a graph, tensor, node, op or domain name that is not UTF-8 text or
//    contains a NUL byte;
//  * a node whose domain is not imported, whose op has no schema in a
//    standard ONNX domain (custom domains are accepted; their outputs need
//    shapes in value_info), is deprecated, or fails its schema's arity and
//    attribute checks;
//  * control flow (If, Loop, Scan) below opset 11, any other op with a
//    subgraph attribute, and model-local functions;
//  * broken dataflow: a tensor read before it is defined, defined twice, an
//    empty graph input or initializer name, a graph output nothing defines.
// Subgraphs (If branches, Loop and Scan bodies) are checked like the main
// graph, at any depth; they may read tensors of enclosing graphs defined
// before their node (outer-scope captures) but not redefine them. Errors in a
// subgraph name its place: "node 'a' (Add) in the body of node 'loop1' (Loop)".
absl::StatusOr<onnx::ModelProto> ReadOnnxModel(const std::string& path);

// The oldest default-domain opset whose If, Loop and Scan the importer reads
// (Scan's inputs changed in opset 9, its axes attributes came in 11).
inline constexpr int kMinControlFlowOpset = 11;

// Whether `node` is a default-domain If, Loop or Scan.
bool IsOnnxControlFlow(const onnx::NodeProto& node);

// The default-domain opset version of a model that passed ReadOnnxModel.
int DefaultOpset(const onnx::ModelProto& model);

// "node 'Conv_3' (Conv)"; unnamed nodes are numbered ("node #12 (Relu)") and
// ops of other domains are qualified ("node 'g' (com.microsoft.Gelu)").
std::string OnnxNodeLabel(const onnx::NodeProto& node, int index);

// InvalidArgument `path: error: message` (ONNX files have no line numbers).
absl::Status OnnxError(std::string_view path, std::string_view message);

}  // namespace memplan
