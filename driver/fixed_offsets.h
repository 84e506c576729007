// Fixed offsets (Buffer::fixed_offset, a lifetime CSV's `offset` column) that
// cannot all hold: two fixed buffers of one memory space that are live at a
// common step (outside their dead gaps) and hold a common byte then (in an
// occupancy window, Buffer::windows, a buffer holds only the window's bytes
// [offset + lo, offset + hi); elsewhere its whole extent). No packer can
// honour both, so planning refuses the input (exit 1) instead of reporting
// a plan the verifier would reject. Sub-allocations (Buffer::inside) are
// not compared: they share their container's bytes by design.
#pragma once

#include "absl/status/status.h"
#include "ir/buffer_set.h"

namespace memplan {

// OK unless two fixed buffers collide. Error: FailedPrecondition naming the
// first collision a sweep over time meets (earliest step, then the lower
// buffer id), both buffers, the bytes they both hold and the steps of the
// two held pieces (HeldPieces) that meet, e.g. "fixed offsets collide:
// buffers 'a' (offset 0, 8 bytes) and 'b' (offset 4, 8 bytes) both hold
// bytes [4, 8) at steps 2 to 3". O(f log f) for f held pieces of fixed
// buffers (O(fixed buffers + their gaps and windows)): a sweep keeping the
// held fixed chunks of each space ordered by offset (pairwise disjoint until
// the first collision, so a new chunk is compared with its two neighbours
// only).
absl::Status CheckFixedOffsetsDisjoint(const BufferSet& buffers);

}  // namespace memplan
