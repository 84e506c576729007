// A lower bound on the height of a stack of buffers that all share one time
// step, counting the bytes alignment forces to stay empty between them.
//
// The buffers of one section overlap in time, so any packing stacks them in
// offset order. Take an alignment A and the buffers S_A whose alignment is a
// multiple of A (their offsets are multiples of A, fixed ones aside). Between
// two consecutive S_A buffers u and v lie the other buffers W of that segment,
// so offset(v) - offset(u) is a multiple of A and at least
// size(u) + sum(size(W)): the segment wastes (-(size(u) + sum(size(W)))) mod A
// bytes. It wastes A - size(u) mod A unless W holds a buffer whose size is not
// a multiple of A (or a fixed buffer), and the segments are disjoint, so with
// m such buffers at most m segments escape their waste, and the topmost S_A
// buffer has no segment above it. Hence, with k the S_A buffers whose size is
// not a multiple of A, the waste is at least the sum of the k - 1 - m smallest
// A - size mod A. When every buffer is in S_A the lowest also starts at a
// multiple of A. The bound is the max over the alignments present.
//
// Example: sizes 5, 3, 1 at alignment 2 and 4 at alignment 1 above floor 0:
// k = 3 odd-sized aligned buffers, m = 0, waste >= 2, height >= 13 + 2 = 15
// (max-live says 13).
#pragma once

#include <cstddef>
#include <vector>

#include "ir/units.h"

namespace memplan::exact {

// One buffer of a stack: size > 0, alignment >= 1; a fixed buffer keeps an
// offset of its own and counts as a filler of any segment.
struct StackBuffer {
  Bytes size = 0;
  Bytes alignment = 1;
  bool fixed = false;
};

// The lowest top any stack of `buffers` with every offset >= floor can have:
// floor + their sizes + the alignment waste above. O(d k log k) for k buffers
// of d distinct alignments. `scratch` is reused storage.
Bytes MinStackTop(Bytes floor, const std::vector<StackBuffer>& buffers,
                  std::vector<Bytes>& scratch);

// A fixed buffer's bytes [begin, end).
struct Interval {
  Bytes begin = 0;
  Bytes end = 0;
};

// The lowest top of a stack of the movable `buffers` (their `fixed` is
// ignored; at most kExactStackLimit of them) from offset 0 around the
// `fixed` intervals (sorted by begin, disjoint), exactly: the minimum over
// the orders of putting each at the lowest aligned offset above the previous
// one that misses the fixed intervals, by dynamic programming over subsets
// (the lowest offset is monotone in the previous top, so the lowest top of
// each subset suffices), and at least the top of every fixed interval.
// O(2^k k f).
// Example: sizes 5, 3, 1 at alignment 2 and 4 at alignment 1, nothing
// fixed: 15; with [4, 6) fixed as well: 17.
inline constexpr std::size_t kExactStackLimit = 12;
Bytes ExactStackTop(const std::vector<StackBuffer>& buffers, const std::vector<Interval>& fixed);

}  // namespace memplan::exact
