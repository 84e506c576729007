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
//     order, walked access by access (msa/buffer_walk.h) with retries and,
//     on running out of memory, up to max_repacks repacks of all committed
//     alternate chunks with the packing layer.
// Cost: O(n log n) tree work per access plus the picker's O(log T) queries;
// the prefetch search visits each candidate start at most once per use and
// stops early once a start runs out of memory (every earlier start would
// too: its range contains the later one's).
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "msa/assignment.h"
#include "msa/cost_model.h"
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
};

// Runs steps 1-4 and returns the result in msa/assignment.h's conventions
// (mode and variant left empty). Errors: ResourceExhausted naming a buffer
// pinned to alternate memory that cannot get a chunk.
absl::StatusOr<MsaResult> RunAllocator(const MsaProblem& problem, const CostModel& cost,
                                       const MsaOptions& options, const AllocatorConfig& config);

}  // namespace memplan
