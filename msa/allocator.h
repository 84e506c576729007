// The memory space assignment allocator: one greedy pass over the buffers
// (XLA's AlternateMemoryBestFitHeap::Finish, msa.md §3), configurable so
// that AssignMemorySpaces can run the reference behaviour and variants of it.
//
// Order of work:
//  1. buffers pinned to alternate memory get one best-fit chunk for their
//     whole live range (failure is an error);
//  2. reserved scoped memory: each op's scratch buffer gets a best-fit chunk
//     at that op's step when it fits (else it stays in default memory);
//  3. cross-program prefetch of one weight parameter (msa/cross_program.h);
//  4. every other buffer that may use alternate memory, in the configured
//     order (buffers marked assign_first, msa/user_overrides.h, before all
//     others), walked access by access (msa/buffer_walk.h). With
//     MsaOptions::inefficient_use_to_copy_ratio > 0, a kept attempt with
//     inefficient segments (InefficientAccesses) is undone, those accesses
//     are served from default memory, and the buffer is walked again.
// Retries (step 4): an attempt that must be undone (an impossible eviction)
// or, before the last retry, that had a copy refused by a limit is undone
// and retried with the picker's relaxed limits, max_retries attempts in all;
// a buffer whose last attempt must be undone stays in default memory. When
// an attempt ran out of memory, up to max_repacks times per run (once per
// buffer) every committed alternate chunk is repacked with the packing
// layer (config.repacker) — kept only if the new layout fits — and the
// attempt is repeated; unlike the reference, a repack that does not help
// does not cost the buffer its attempt.
// Cost per access: a few interval-tree queries (O(log n + k) for k chunks
// overlapping in time) and O(log T) picker queries; a prefetch tries each
// candidate start at most once and skips every start at or before one that
// ran out of memory (its range contains that one's).
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "msa/assignment.h"
#include "msa/cost_model.h"
#include "msa/loop_optimizer.h"
#include "msa/problem.h"
#include "packing/packer.h"

namespace memplan {

// Sequence in which buffers claim alternate memory (step 4).
enum class BufferOrder {
  kMemoryBoundedness,  // CostModel::MemoryBoundedness desc, size desc, id (reference)
  kSize,               // size desc, longer live range, id (XLA's spatial order)
  kTotalBenefit,       // memory boundedness x sqrt(size) desc, size desc, id
};

struct AllocatorConfig {
  BufferOrder order = BufferOrder::kMemoryBoundedness;
  // Among the first `fragmentation_candidates` feasible prefetch starts,
  // take the one whose chunk leaves the least free room in its address hole
  // (openxla/xla #45289); 1 = first feasible start (reference).
  int fragmentation_candidates = 1;
  PackingAlgorithm repacker = PackingAlgorithm::kBestFitSpatial;
  std::int64_t max_repacks = 0;
  // > 0: model the DMA queue (msa/copy_bandwidth.h) with this share of each
  // step's time and refuse copies that could not finish by their done; 0:
  // ignore copy bandwidth, as the reference does.
  double copy_bandwidth_share = 0;
  // Entry parameters' prefetches may be issued before the first op (start
  // -1, the reference's parameter schedule positions); false: from step 0
  // on, so copies cannot all pile up on the first op's time.
  bool prefetch_before_first_op = true;
  // Only step 1: every other buffer, scratch included, stays in default
  // memory (the empty assignment; the "never slower" guard's last resort).
  bool required_only = false;
  // >= 2: prefetches may be sliced into up to this many slices
  // (msa/sliced_prefetch.h; MsaOptions::sliced_prefetch gives the sizes). A
  // run with slices never repacks (a slice's chunk moves with its segment
  // but is not one item the packer knows). 0: no slicing.
  std::int64_t max_slices = 0;
  // The memory-bound loop optimizer's preferences (msa/loop_optimizer.h),
  // or null: its chosen buffers are allocated right after the assign-first
  // ones, in its order, and a prefetch tries the buffer's preferred start
  // first (when it lies in the range the walk allows), then the picker's
  // candidates.
  const LoopPlan* loop = nullptr;
};

// Runs steps 1-4 and returns the result in msa/assignment.h's conventions
// (mode and variant left empty). Errors: ResourceExhausted naming a buffer
// pinned to alternate memory that cannot get a chunk.
absl::StatusOr<MsaResult> RunAllocator(const MsaProblem& problem, const CostModel& cost,
                                       const MsaOptions& options, const AllocatorConfig& config);

}  // namespace memplan
