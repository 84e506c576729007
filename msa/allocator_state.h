// The mutable state of one allocator run (msa/allocator.h), shared by its
// steps: the alternate heap, the committed copies and their limits, the
// picker, and the finalized alternate-memory blocks.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "ir/plan.h"
#include "ir/units.h"
#include "msa/allocator.h"
#include "msa/alternate_heap.h"
#include "msa/assignment.h"
#include "msa/copy_bandwidth.h"
#include "msa/copy_limits.h"
#include "msa/cost_model.h"
#include "msa/prefetch_picker.h"
#include "msa/problem.h"

namespace memplan {

// A finalized alternate-memory chunk: one residency segment of a buffer, or
// (reservation) the cross-program-prefetched buffer's chunk kept after its
// last use. Blocks of one group (>= 0) must keep a common offset when
// repacked.
struct AltBlock {
  BufferId buffer = kNoId;
  TimeStep start = 0;
  TimeStep end = 0;
  Bytes offset = 0;
  Bytes size = 0;
  std::int32_t group = -1;
  bool reservation = false;
};

struct AllocatorState {
  AllocatorState(const MsaProblem& problem, const CostModel& cost, const MsaOptions& options,
                 const AllocatorConfig& config);

  const MsaProblem& problem;
  const CostModel& cost;
  const MsaOptions& options;
  const AllocatorConfig& config;
  AlternateHeap heap;
  AsyncCopyLimits limits;
  std::unique_ptr<PrefetchIntervalPicker> picker;
  std::optional<CopyBandwidth> bandwidth;  // when config.copy_bandwidth_share > 0
  std::vector<AltBlock> blocks;
  std::vector<AsyncCopy> copies;
  std::vector<bool> needs_default;  // per BufferId
  std::optional<CrossProgramPrefetch> cross_program_prefetch;
  std::int64_t repacks = 0;
};

}  // namespace memplan
