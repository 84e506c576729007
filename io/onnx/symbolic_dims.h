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
//    (NonZero) (output 'idx' dim 1 'unk__0')" (every unknown dim of its
//    outputs, by the name shape inference gave it), in graph order.
// The --dim hint lists the names of all of them that can be bound.
// Dependencies are traced forward through every node: an output depends on
// the union of its inputs' sources unless its value is in `known_values`
// (folded). N counts the (tensor, dim) pairs without a value, each tensor
// once, and once each read node output with no shape at all (unknown rank).
// When such dims come from an If, Loop, Scan or custom-domain node with no
// symbolic input, OK is returned: the importer reports those with its own,
// more precise errors (branches of different sizes, a scan output of a
// non-constant trip count, an op missing from the schema registry).
// Example: ids [batch, seq] -> Shape -> ... -> Reshape gives "7 tensor dims
// are symbolic; they follow from input dims: 'batch' (input 'ids' dim 0),
// 'seq' (input 'ids' dim 1); bind them with --dim batch=VALUE --dim
// seq=VALUE".
absl::Status SymbolicDimsError(const onnx::GraphProto& graph,
                               const std::unordered_set<std::string>& known_values,
                               std::string_view path);

}  // namespace memplan
