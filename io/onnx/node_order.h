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
// A node never goes before a node it reads in the file: one the plan put
// before its input's producer (it reads only values the importer folded, such
// as a Shape of an activation, so the plan saw no dependency) waits for that
// producer; its result then lives for fewer steps than planned.
// Only the node order changes, byte for byte: the node records of the
// file's wire form are permuted, every other byte stays (the same file for
// an unchanged order); a file whose graph is split over several records is
// serialized again by protobuf instead. Errors: InvalidArgument `path: error: ...`
// for bytes that do not parse as a ModelProto or nodes in a dependency cycle.
absl::StatusOr<std::string> OnnxWithNodeOrder(std::string_view bytes, const std::string& path,
                                              const std::map<std::string, std::int64_t>& position);

}  // namespace memplan
