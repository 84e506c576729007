// Live-size profile: how many bytes are live at each time step. Its peak is
// the max-live lower bound on any packing of the selected buffers (no
// placement can use less than the bytes simultaneously live; cf. XLA's
// NoFragmentationStatsHeap). Used by `memplan stats` and the HTML map.
//
// Example: buffers a = 4 B [0,1], b = 8 B [1,2], c = 2 B [3,3] over 4 steps
// give bytes = {4, 12, 8, 2}, peak = 12 at peak_time = 1.
#pragma once

#include <vector>

#include "absl/functional/function_ref.h"
#include "ir/buffer_set.h"
#include "ir/units.h"

namespace memplan {

struct LiveProfile {
  std::vector<Bytes> bytes;       // per time step in [0, time_steps): bytes live then
  Bytes peak = 0;                 // max of bytes (0 if empty): the max-live lower bound
  TimeStep peak_time = kNoId;     // first step where bytes == peak; kNoId if no steps
};

// Profile of the buffers of `buffers` for which `include` returns true (e.g.
// only transient buffers of the default space). Live ranges are closed;
// parts outside [0, buffers.time_steps) are ignored. O(buffers + time_steps)
// via a difference array.
LiveProfile ComputeLiveProfile(const BufferSet& buffers,
                               absl::FunctionRef<bool(const Buffer&)> include);

}  // namespace memplan
