// --write-onnx: an ONNX model with its main graph's nodes in another order
// (a plan's schedule), everything else as read. Runtimes run an ONNX graph's
// nodes in their order (ONNX requires it to be topological), so the file
// carries the order memplan planned.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace memplan {

// The model in `bytes` (the file at `path`) parsed with protobuf, without
// the normalizations ReadOnnxModel makes, its main graph's nodes sorted
// topologically by `position`: a node goes where the op computing one of its
// outputs runs (`position[output name]`, the lowest over its outputs); a
// node with no position (folded or hoisted by the importer: shape
// arithmetic, constants) as early as its inputs allow; ties in file order.
// Only the node order changes, byte for byte: the node records of the
// file's wire form are permuted, every other byte stays (the same file for
// an unchanged order); a file whose graph is split over several records is
// serialized again by protobuf instead. Errors: InvalidArgument `path: error: ...`
// for bytes that do not parse as a ModelProto or nodes in a dependency cycle;
// Internal when the placed nodes' positions cannot be kept in order (their
// dependencies in the graph contradict `position`).
absl::StatusOr<std::string> OnnxWithNodeOrder(std::string_view bytes, const std::string& path,
                                              const std::map<std::string, std::int64_t>& position);

}  // namespace memplan
