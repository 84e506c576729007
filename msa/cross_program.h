// Cross-program prefetch (msa.md §3 step 4): one entry parameter that looks
// like a weight is brought into alternate memory before the run starts (the
// copy overlaps the previous run, as XLA's runtime issues it) and, placed
// ahead of every other buffer, serves all its reads from alternate memory
// (CrossProgramPrefetch in msa/assignment.h).
//
// Candidates (MsaBuffer::weight_parameter, msa/problem.h): entry-parameter
// buffers that are not entry results, are only read, and every read is the
// weight operand of a convolution / matrix product (operand >= 1) or the
// table of a gather (operand 0) — views of it are judged by their own
// reads — and that fit the fast memory. The largest wins; ties: larger total
// output of the ops reading it, then the lower buffer id (the reference also
// prefers size over its buffer order).
//
// Example (the reference's CrossProgramPrefetch scenario): dot(%lhs 256 B,
// %rhs 64 B) with 128 B of fast memory: %lhs is a dot's first operand (an
// activation) and too large, so %rhs is chosen.
#pragma once

#include <optional>

#include "ir/units.h"
#include "msa/allocator_state.h"
#include "msa/problem.h"

namespace memplan {

// The candidate to cross-program prefetch, if any.
std::optional<BufferId> PickCrossProgramPrefetch(const MsaProblem& problem, Bytes capacity);

// Places candidate `id`: a best-fit chunk free from the buffer's start to
// the program end, its alternate segment from its start through its last
// read (no copy in the result: the data arrives before the run), and the
// reservation after it. The buffer is freed after its last read (and
// refilled by an end-of-program prefetch: a copy over [refill, last step]
// opening a segment, msa/assignment.h) when freeing is enabled,
// `memory_pressure` (bytes of all buffers that may use alternate memory)
// exceeds the capacity, the picker's preferred refill start lies strictly
// between the last read and the last step, and the refill passes the
// outstanding-prefetch limit and (when modelled) the copy bandwidth. The prefetch is recorded in state.limits as
// a prefetch over [start, start] (the copy the plan shows for it), so later
// prefetches respect max_outstanding_prefetches with it counted. Returns
// false (placing nothing) when no chunk is free or the limit leaves no room
// (e.g. a limit of 0).
bool PlaceCrossProgramPrefetch(AllocatorState& state, BufferId id, Bytes memory_pressure);

}  // namespace memplan
