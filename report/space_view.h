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
// A staged copy through the space (AsyncCopy::via) adds an entry for its
// chunk: the copy's bytes over StagingSteps, at the via offset.
//
// Example: buffer a (8 B, transient, live [0,5]) with allocations
// {default, 0, [0,1]}, {alternate, 0, [2,3]}, {alternate, 32, [4,5]} gives,
// for the alternate space, two entries "a" over [2,3] and [4,5] with
// origin {0, 0}; for the default space one entry over [0,1].
#pragma once

#include <cstddef>
#include <vector>

#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan {

// When the space's segments are exactly the buffers (every buffer that
// takes bytes has one segment there, over its own live range: a plan
// without fast memory), the view is the input itself, not a copy: at 10^7
// buffers a copy would cost as much as the input.
class SpaceView {
 public:
  // The segments as buffers: name, size, lifetime and space copied from
  // their buffers, live over the segment. When the view is the input,
  // buffers without bytes there (size 0, sub-allocations) are among them:
  // their bytes count nowhere, so each use must skip them as the live-bytes
  // tools do.
  const BufferSet& segments() const { return same_ != nullptr ? *same_ : copy_; }
  std::size_t size() const { return segments().buffers.size(); }
  // The buffer of segment i (plan.placements index).
  BufferId origin(std::size_t i) const {
    return same_ != nullptr ? static_cast<BufferId>(i) : origin_[i];
  }
  // Segment i's offset in the space.
  Bytes offset(std::size_t i) const;
  // Whether segment i is a staged copy's chunk, not an allocation.
  bool staged(std::size_t i) const { return same_ == nullptr && staged_[i]; }

 private:
  friend SpaceView ViewSpace(const BufferSet& buffers, const Plan& plan, MemorySpace space);
  const BufferSet* same_ = nullptr;  // the input, when the view is it
  const Plan* plan_ = nullptr;       // for the offsets then
  MemorySpace space_ = kDefaultSpace;
  BufferSet copy_;
  std::vector<BufferId> origin_;     // parallel to copy_.buffers
  std::vector<Bytes> offset_;        // parallel to copy_.buffers
  std::vector<bool> staged_;         // parallel to copy_.buffers
};

// The segments of `plan` in `space` (plan.placements parallel to
// buffers.buffers). Each entry keeps its buffer's dead gaps that lie
// strictly inside the segment and its occupancy windows clipped to it. Sub-allocations (Buffer::inside) are left
// out: their bytes are their container's. O(n + segments).
SpaceView ViewSpace(const BufferSet& buffers, const Plan& plan, MemorySpace space);

}  // namespace memplan
