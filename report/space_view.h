// What a plan holds in one memory space over time, as a buffer set: one
// entry per non-empty allocation segment of the space (a buffer that fast
// memory receives twice appears twice), live over the segment's time range
// outside its buffer's dead gaps, holding only a window's bytes in its
// occupancy windows. The live-bytes tools of analysis/
// (ComputeLiveProfile) and report/peak_attribution.h then measure the plan
// itself, not the buffers' live ranges: with memory space assignment a
// segment opened by a prefetch is reserved from the copy's start, and a
// default-memory chunk may begin at an eviction or outlast the live range
// for an end-of-program refill (driver/pools.h).
//
// Example: buffer a (8 B, transient, live [0,5]) with allocations
// {default, 0, [0,1]}, {alternate, 0, [2,3]}, {alternate, 32, [4,5]} gives,
// for the alternate space, two entries "a" over [2,3] and [4,5] with
// origin {0, 0}; for the default space one entry over [0,1].
#pragma once

#include <vector>

#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan {

struct SpaceView {
  BufferSet segments;            // name, size, lifetime, space copied from the buffer
  std::vector<BufferId> origin;  // parallel to segments.buffers: the buffer of each
  std::vector<Bytes> offset;     // parallel: the segment's offset in the space
};

// The segments of `plan` in `space` (plan.placements parallel to
// buffers.buffers). Each entry keeps its buffer's dead gaps that lie
// strictly inside the segment and its occupancy windows clipped to it. Sub-allocations (Buffer::inside) are left
// out: their bytes are their container's. O(n + segments).
SpaceView ViewSpace(const BufferSet& buffers, const Plan& plan, MemorySpace space);

}  // namespace memplan
