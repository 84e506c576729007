// Where an imported ONNX Slice's window lies in its input's bytes, when the
// window is one contiguous run of them (io/onnx/alias.h turns such a slice
// into a view when it pays).
#pragma once

#include <optional>

#include "ir/program.h"

namespace memplan {

// The byte offset into `data` of the window that `slice` (an onnx.Slice
// whose first operand is `data` and first result `window`) takes, when the
// window is one contiguous run of `data`'s bytes; nullopt otherwise.
//
// Reads the op's `starts` attribute (per dim of `data`, the first index of
// the window; the importer records it for static slices that step by 1,
// io/onnx/importer.h) and the dims of `data` and `window`. Contiguous means:
// along the innermost dim k where the window is shorter than `data`, every
// dim before k takes one index and every dim after k is whole — the
// outer-axis case (every dim before k is 1) and its generalisation
// x[i:i+1, a:b, :]. The offset is the row-major index of `starts` times the
// element size (`data`'s bytes / its element count). nullopt also when the
// types are missing, dtypes or ranks differ, `starts` is absent, of another
// rank or puts the window outside `data`, or sizes disagree with the dims.
// O(rank).
//
// Example: data f32[1,8,4], window f32[1,3,4], starts [0, 2, 0]: k = 1, the
// window is elements [8, 20): offset 32 bytes. Window f32[1,8,2] of the same
// data (starts [0, 0, 2]) is 8 runs of 2 elements: nullopt.
std::optional<Bytes> ContiguousSliceOffset(const Op& slice, const Value& data,
                                           const Value& window);

}  // namespace memplan
