// Static shapes for every tensor of an ONNX graph: bind symbolic dims, run
// ONNX shape inference, fold integer shape computations, repeat.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ir/program.h"
#include "onnx/onnx_pb.h"

namespace memplan {

// Symbolic dim name -> value, e.g. {"batch", 8} (the CLI's --dim batch=8).
using OnnxDimBindings = std::map<std::string, std::int64_t>;

// Fills `model`'s value_info (and graph outputs) with static shapes:
//  1. every dim_param named in `dims` becomes that value in graph inputs,
//     outputs and value_info;
//  2. every graph input that is not an initializer must then be a tensor of
//     a supported dtype (SizeOnnxTensor) whose dims are static or named
//     (named ones left unbound are reported in step 5);
//  3. ONNX shape inference (onnx::shape_inference::InferShapes, strict mode,
//     type checks and data propagation on, so Shape -> Gather -> Concat ->
//     Reshape chains resolve within one run) runs in a child process
//     (io/onnx/child_process.h) because libonnx can crash on malformed
//     models; shape computations whose inputs are now known are evaluated
//     (io/onnx/fold.h) and replaced by Constant nodes in the graph being
//     inferred. A graph without subgraphs is inferred window by window
//     (io/onnx/windowed_inference.h: a node is inferred again only after a
//     fold before it in its window, so the cost stays linear in the nodes);
//     when that does not give every tensor
//     static dims or libonnx reports an error, whole-graph rounds follow
//     (infer, fold, repeat until nothing new folds: at most as many rounds
//     as nodes), whose results and messages are the reference;
//  4. the bindings apply again, now also to dims that inference named for
//     data-dependent shapes (e.g. `unk__0` for NonZero's count); if any
//     applied, back to 3;
//  5. any dim of the main graph still without a value is an error naming
//     every symbolic input dim and data-dependent node behind it, at once
//     (SymbolicDimsError, io/onnx/symbolic_dims.h).
// Subgraphs (If branches, Loop and Scan bodies) take part at any depth:
// bindings apply to their declared types, libonnx infers their tensors from
// the outer scope's types, and folding runs inside them with the enclosing
// graphs' known values and dims (a subgraph's own folded values stay its
// own). Their inferred types are kept in their inputs, value_info and outputs.
// On return the model's nodes are the original ones. `model` must have
// passed ReadOnnxModel. Errors (InvalidArgument `path: error: ...`): a
// negative binding; a binding naming no symbolic dim of the model ("--dim
// NAME=VALUE: the model has no symbolic dim 'NAME' (its symbolic dims:
// ...)"; checked after step 1, before any other error, except for names of
// the form `unk__N` that inference may create, checked after step 4); a
// graph input failing SizeOnnxTensor other than by named symbolic dims (e.g.
// "tensor 'x' dim 0 is unknown (it has neither a value nor a name to bind
// with --dim)"); a shape inference failure (ONNX's message, which names the
// node; with unbound symbolic inputs, the step 5 error instead) or crash;
// step 5 ("97 tensor dims are symbolic; they follow from input dims: 'batch'
// (input 'ids' dim 0), 'seq' (input 'ids' dim 1); bind them with --dim
// batch=VALUE --dim seq=VALUE").
absl::Status InferOnnxShapes(onnx::ModelProto& model, const OnnxDimBindings& dims,
                             std::string_view path);

// A tensor's memplan type and storage size.
struct OnnxTensorType {
  TensorType type;  // memplan dtype name and static dims
  Bytes bytes = 0;  // TensorBytes(type): ceil(element count x dtype bits / 8)
};

// Checks that `type` is a tensor with a supported dtype and static dims and
// sizes it. `tensor` names it in errors: symbolic dims (with the --dim hint),
// unknown or negative dims, no shape, non-tensor types (sequence, map,
// optional), unsupported dtypes (STRING, UNDEFINED), and a size above
// kMaxTotalBytes (ir/units.h), also one overflowing int64: "tensor 'x' is
// 4611686018427387908 bytes (shape [1152921504606846977], FLOAT), above the
// limit of 2^62 (4611686018427387904) bytes".
absl::StatusOr<OnnxTensorType> SizeOnnxTensor(const onnx::TypeProto& type, std::string_view tensor,
                                              std::string_view path);

// Same for an initializer, typed by its own dims and data_type.
absl::StatusOr<OnnxTensorType> SizeOnnxInitializer(const onnx::TensorProto& tensor,
                                                   std::string_view path);

}  // namespace memplan
