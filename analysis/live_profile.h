// Live-size profile: how many bytes are live over time, as a step function
// over event points (sorted buffer starts and ends), so its cost depends on
// the number of buffers, never on the length of the time line (a MiniMalloc
// CSV may span 2^62 time steps). Its peak is the max-live lower bound on any
// packing of the selected buffers (no placement can use less than the bytes
// simultaneously live; cf. XLA's NoFragmentationStatsHeap). Used by
// `memplan stats`.
//
// Example: buffers a = 4 B [0,1], b = 8 B [1,2], c = 2 B [3,3] over 4 steps
// give changes = {{0, 4}, {1, 12}, {2, 8}, {3, 2}} (4 B from time 0, 12 B
// from time 1, ...), peak = 12 at peak_time = 1. The same buffers over 1000
// steps add {4, 0}: nothing is live from time 4 to 999.
#pragma once

#include <vector>

#include "absl/functional/function_ref.h"
#include "ir/buffer_set.h"
#include "ir/units.h"

namespace memplan {

// From time step `start` on (until the next change), `bytes` are live.
struct LiveChange {
  TimeStep start = 0;
  Bytes bytes = 0;
  bool operator==(const LiveChange&) const = default;
};

struct LiveProfile {
  TimeStep time_steps = 0;          // the time line is [0, time_steps)
  // Sorted by start, strictly increasing; the first starts at 0 and
  // consecutive entries differ in bytes. Empty when time_steps <= 0.
  std::vector<LiveChange> changes;
  Bytes peak = 0;                   // max live bytes (0 if empty): the max-live lower bound
  TimeStep peak_time = kNoId;       // first step where the peak is live; kNoId if no steps
};

// Profile of the buffers of `buffers` for which `include` returns true (e.g.
// only transient buffers). Live ranges are closed; a buffer counts at the
// steps of [start, end] outside its dead gaps (Buffer::gaps), so with
// conditionals the peak is still exact: the buffers live at one step all
// hold data together in every execution reaching it; in an occupancy window
// (Buffer::windows, a lifetime CSV's `L-U@LO:HI`) it counts HI - LO bytes,
// the bytes it holds then. Parts outside [0,
// buffers.time_steps) are ignored, and so are sub-allocations
// (Buffer::inside): their bytes are their container's. The sizes of the included buffers must
// total at most kMaxTotalBytes (ir/units.h; no overflow). O(n log n) time and
// O(n) memory in the number n of buffers, gaps and windows, whatever
// time_steps is.
LiveProfile ComputeLiveProfile(const BufferSet& buffers,
                               absl::FunctionRef<bool(const Buffer&)> include);

// The peak of ComputeLiveProfile(buffers, include) without the profile
// itself, for callers that need no more (its memory is 2 events of 16 bytes
// per buffer, gap and window, and none for the changes).
struct LivePeak {
  Bytes peak = 0;              // LiveProfile::peak
  TimeStep peak_time = kNoId;  // LiveProfile::peak_time
};
LivePeak ComputeLivePeak(const BufferSet& buffers, absl::FunctionRef<bool(const Buffer&)> include);

// The most bytes live at any step of the closed range [first, last],
// clamped to the time line; 0 when the clamped range is empty. O(log changes
// + changes inside the range).
Bytes MaxLiveIn(const LiveProfile& profile, TimeStep first, TimeStep last);

}  // namespace memplan
