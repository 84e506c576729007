// One attempt at placing one buffer: walk its accesses in time order and
// decide each *use segment* (from the previous access to this one), as
// XLA's AllocateSegment does (msa.md §3):
//  1. no copy: keep the data where it is in alternate memory, at the same
//     offset, if the picker allows the range and the chunk is free (for the
//     first segment: produce the buffer in alternate memory, kAnywhere only);
//  2. if leaving alternate memory while the default copy is stale (the data
//     was written in alternate memory), evict: an async copy from the last
//     write to the picker's eviction done time, extending the alternate
//     chunk as far as it is free; if no eviction fits the limits, the whole
//     attempt must be undone;
//  3. prefetch: try the picker's candidate starts; the first start that
//     passes FIFO ordering, the outstanding-prefetch limit and (when
//     modelled) the copy bandwidth, and gets a chunk, wins;
//  4. else the access uses default memory.
// Chunks come from a look-ahead best fit: the farthest later access that
// could still be reached without a copy whose range [start, access] still
// fits, so that a chunk free now is not blocked for the next segment.
//
// Timing rules that keep the result conventions of msa/assignment.h exact:
// a prefetch starts after every earlier step of the buffer served in default
// memory and after its previous alternate segment (segments of one buffer
// never share a step); an eviction completes before the next access, which
// then reads default memory; all copy times are own steps of the buffer's
// computation (msa/prefetch_picker.h).
#pragma once

#include <vector>

#include "ir/plan.h"
#include "ir/units.h"
#include "msa/allocator_state.h"
#include "msa/copy_bandwidth.h"
#include "msa/copy_limits.h"
#include "packing/interval_tree.h"

namespace memplan {

// What one attempt did (undone wholesale or kept).
struct BufferAttempt {
  struct Segment {
    Bytes offset = 0;
    TimeStep start = 0;
    TimeStep end = 0;
  };
  std::vector<Segment> segments;
  // Chunks held without data of their own: a loop's condition steps under an
  // exit segment (msa/control_scopes.h); paired with segments[reserved_for[k]].
  std::vector<Segment> reservations;
  std::vector<std::size_t> reserved_for;
  std::vector<AsyncCopy> copies;
  std::vector<IntervalTree::Handle> chunks;
  std::vector<AsyncCopyLimits::Handle> copy_handles;
  std::vector<CopyBandwidth::Usage> bandwidth_usage;
  bool needs_default = false;
  // Why some access ended in default memory (only failures that were not
  // rescued later in the same segment count).
  bool out_of_memory = false;
  bool copy_limited = false;   // an outstanding limit or FIFO ordering refused a copy
  bool must_undo = false;      // an eviction was impossible
};

// Walks buffer `id` (policy kAnywhere or kReadCopies), committing chunks and
// copies into `state` as it goes and recording them in `attempt`. Accesses
// whose index is set in `default_only` (empty: none) are served from default
// memory (the inefficient sites of msa/allocator.h).
void WalkBuffer(AllocatorState& state, BufferId id, BufferAttempt& attempt,
                const std::vector<bool>& default_only = {});

// The reference's inefficient-allocation check (inefficient_use_to_copy_ratio,
// msa.md §3 step 7): the indices of the accesses served by an alternate
// segment of `attempt` that async copies fill (a prefetch opening it) or
// drain (an eviction from it) while its ops use fewer than `ratio` x the
// copied bytes (buffer size per such copy); the bytes used are the accesses'
// BufferAccess::used_bytes. Empty when ratio <= 0. Example: a 64-byte buffer
// prefetched for one op that reads an 8-byte view of it uses 8 of 64 copied
// bytes: inefficient for ratio 0.5, not for 0.1.
std::vector<std::size_t> InefficientAccesses(const AllocatorState& state, BufferId id,
                                             const BufferAttempt& attempt, double ratio);

// Removes everything `attempt` committed.
void UndoAttempt(AllocatorState& state, BufferAttempt& attempt);

// Makes `attempt` final for buffer `id`: its segments become blocks, its
// copies result copies.
void KeepAttempt(AllocatorState& state, BufferId id, const BufferAttempt& attempt);

}  // namespace memplan
