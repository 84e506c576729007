// Offline memory plans in TFLite models: the `OfflineMemoryAllocation`
// metadata that Arm's Vela (and memplan's --write-tflite) store and TFLite
// Micro's allocator honours. Its buffer holds little-endian int32s:
//   [version, subgraphs, n, offset_0, ..., offset_{n-1}]
// with one offset per tensor of all subgraphs in order: a byte offset into
// the arena head, or -1 for "plan this tensor at run time".
//
// Example: version 1, 1 subgraph, 3 tensors: {1, 1, 3, 0, -1, 64} puts
// tensor 0 at byte 0 and tensor 2 at byte 64 of the head.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "io/tflite/model.h"

namespace memplan {

inline constexpr std::string_view kOfflinePlanMetadata = "OfflineMemoryAllocation";

// The offsets of `model`'s offline plan (one per tensor of all subgraphs),
// empty when it has none. `bytes` is the file the model was parsed from.
// Errors: InvalidArgument `path: error: ...` for a plan buffer that is not a
// whole number of int32s, shorter than its header, whose n differs from the
// model's tensor count or from its length, or with an offset below -1.
absl::StatusOr<std::vector<std::int32_t>> ReadOfflinePlan(const TfliteModel& model,
                                                          std::string_view bytes,
                                                          const std::string& path);

// A copy of the model in `bytes` whose metadata holds `offsets` as its
// OfflineMemoryAllocation (replacing one it had): a new Model table, its
// metadata and buffers vectors and the plan's buffer are written in front of
// the original file, which follows unchanged (16-byte aligned, so every
// offset and alignment inside it still holds); the new root shares every
// other field with the old one. The old root stays as unused bytes.
// With `operator_order` (indices into subgraph 0's operators, a
// permutation), subgraph 0 runs its operators in that order: a new SubGraph
// table shares every other field with the old one, and its operators vector
// lists the old Operator tables in the new order; other subgraphs are kept.
// Errors: InvalidArgument for a model with weights stored past the
// flatbuffer (Buffer.offset: absolute file positions would move), with Model
// fields memplan does not know (id > 7) or, with an order, SubGraph fields
// (id > 5), `offsets` of the wrong length, or an order that is not a
// permutation of subgraph 0's operators.
absl::StatusOr<std::string> WriteOfflinePlan(const TfliteModel& model, std::string_view bytes,
                                             const std::vector<std::int32_t>& offsets,
                                             const std::string& path,
                                             const std::vector<std::int32_t>& operator_order = {});

}  // namespace memplan
