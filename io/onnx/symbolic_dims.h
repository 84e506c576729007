// The one error for a model whose dims stay symbolic after shape inference
// and folding: how many tensor dims are unknown and what would fix them all.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>

#include "absl/status/status.h"
#include "onnx/onnx_pb.h"

namespace memplan {

// OK when every tensor of `graph` (its inputs, value_info and outputs) has
// static dims. Otherwise InvalidArgument `path: error: N tensor dims are
// symbolic; they follow from ...; bind them with --dim NAME=VALUE ...`,
// naming every source the unknown dims follow from, each once:
//  * symbolic graph input dims: "input dims: 'batch' (input 'x' dim 0),
//    'seq' (input 'ids' dim 1)", in input order;
//  * nodes whose output dims depend on data computed at run time (a NonZero,
//    or a Reshape whose shape is computed from activations), when none of
//    their inputs has a symbolic dim: "data computed at run time by node 'nz'
//    (NonZero) (dim 0 'unk__0' of output 'idx')", in graph order.
// The --dim hint lists the names of all of them that can be bound.
// Dependencies are traced forward through every node: an output depends on
// the union of its inputs' sources unless its value is in `known_values`
// (folded). N counts the (tensor, dim) pairs without a value, each tensor
// once. Tensors with no type at all are left to the importer's own errors.
// Example: ids [batch, seq] -> Shape -> ... -> Reshape gives "7 tensor dims
// are symbolic; they follow from input dims: 'batch' (input 'ids' dim 0),
// 'seq' (input 'ids' dim 1); bind them with --dim batch=VALUE --dim
// seq=VALUE".
absl::Status SymbolicDimsError(const onnx::GraphProto& graph,
                               const std::unordered_set<std::string>& known_values,
                               std::string_view path);

}  // namespace memplan
