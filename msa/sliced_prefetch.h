// Sliced prefetch (XLA's SlicedPrefetchOptions, memory_space_assignment/
// slice.h and algorithm.cc): a prefetch of a large buffer is split into N
// copies, each moving an adjacent byte range ("slice") of the buffer. The
// slices' copy-starts are staggered across the prefetch window and all are
// done before the same use, where the whole value is contiguous. A slice's
// chunk of alternate memory is reserved only from its own copy-start, so a
// long prefetch window holds less fast memory and more prefetches fit.
//
// memplan's conventions (msa/assignment.h, ir/plan.h): the alternate
// segment the slices fill is one chunk of the whole buffer, starting at the
// last slice's start (max(start, 0)); slice k reserves [segment offset +
// slice_offset_k, + bytes_k) from max(start_k, 0) until that segment
// starts. Slices are numbered in start order and laid out in byte order
// (slice 0, the first to start, holds the lowest bytes) or, when that
// layout's earlier slices collide with other chunks, in reverse byte order.
//
// Differences from XLA (docs/msa.md "Sliced prefetch"): XLA slices along a
// shape dimension and may assign slice times to chunk positions in any
// permutation; memplan slices along bytes (every slice a multiple of the
// fast-memory alignment, the last one taking the remainder) and tries two
// of those permutations (byte order and its reverse).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ir/units.h"

namespace memplan {

// The knobs of XLA's SlicedPrefetchOptions that memplan honours.
struct SlicedPrefetchOptions {
  // Most slices per prefetch (XLA's max_slices); 0 or 1: never slice.
  // nullopt: the mode decides (reference mode: 0, the pass as it was;
  // default mode: kDefaultMaxSlices in its sliced variants).
  std::optional<std::int64_t> max_slices;
  // Buffers smaller than this many bytes are never sliced (XLA's min_bytes).
  Bytes min_bytes = 0;
  // > 0: at most ceil(size / preferred_slice_bytes) slices, so slices are
  // about this size (XLA's preferred_slice_size); 0: max_slices slices.
  Bytes preferred_slice_bytes = 0;
};

// Slices per prefetch in default mode's sliced variants when the user gives
// no --sliced-prefetch.
inline constexpr std::int64_t kDefaultMaxSlices = 4;

// One slice's bytes within its buffer.
struct ByteSlice {
  Bytes offset = 0;
  Bytes bytes = 0;
};

// How a buffer of `size` bytes is sliced: at most `max_slices` adjacent
// slices in byte order covering [0, size), each but the last a multiple of
// `alignment` (>= 1) bytes long, none empty; one slice (the whole buffer)
// when slicing does not apply (max_slices < 2, size < min_bytes, or fewer
// than two aligned slices fit). With preferred_slice_bytes > 0 the count
// is also at most ceil(size / preferred_slice_bytes).
// Example: size 1000, 4 slices, alignment 64: {0,256} {256,256} {512,256}
// {768,232}.
std::vector<ByteSlice> SliceBuffer(Bytes size, std::int64_t max_slices,
                                   const SlicedPrefetchOptions& options, Bytes alignment);

// Staggered copy-start times for `count` slices of a prefetch that may
// start at `first` (-1: before the first op) and is done before `done`.
// `own_steps` are the sorted steps the copies may start at (the
// computation's own steps; `first` need not be among them) and
// `elapsed(s, d)` is the compute time a copy issued after s and awaited
// before d overlaps (CostModel::ElapsedBetween). Slice 0 starts at `first`;
// slice k at the latest own step t in [start of slice k-1, done) whose
// overlap elapsed(t, done) is still at least (count - k) / count of
// elapsed(first, done), so the overlap left to each later slice shrinks
// evenly, as XLA's SlicedPrefetchStartTimePicker spreads the starts. The
// result is non-decreasing, `count` long, every entry < done.
// Example: four ops of 1 s each at steps 0..3, first -1, done 4, count 2:
// elapsed(-1, 4) = 4 s, so slice 1 starts at the latest t with elapsed(t, 4)
// >= 2 s: t = 1 (steps 2 and 3 remain): {-1, 1}.
std::vector<TimeStep> PickSliceStarts(std::size_t count, TimeStep first, TimeStep done,
                                      const std::vector<TimeStep>& own_steps,
                                      const std::function<double(TimeStep, TimeStep)>& elapsed);

}  // namespace memplan
