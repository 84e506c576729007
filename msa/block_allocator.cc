#include "msa/block_allocator.h"

#include <algorithm>
#include <tuple>

#include "msa/block_prefetch.h"

namespace memplan {

absl::StatusOr<MsaResult> RunAllocatorWithBlock(const MsaProblem& problem, ComputationId entry,
                                                const CostModel& cost, const MsaOptions& options,
                                                const AllocatorConfig& config) {
  BlockPlan block =
      ReserveBlock(options.fast_memory_bytes, options.block_prefetch_bytes, options.alignment);
  PlanBlockPrefetch(problem, entry, options.alignment, block);
  // A block no weight went into would only take fast memory from the rest:
  // none is reserved.
  if (block.slots.empty()) return RunAllocator(problem, cost, options, config);
  // The main pass sees the block's weights as placed: default memory only
  // for it (nor may it pick one for the cross-program prefetch, which would
  // open the weight's one alternate segment a second time), and the
  // alternate memory below the block.
  MsaProblem rest = problem;
  for (const BlockSlot& s : block.slots) {
    MsaBuffer& weight = rest.buffers[static_cast<std::size_t>(s.buffer)];
    weight.policy = AltPolicy::kDefaultOnly;
    weight.weight_parameter = false;
  }
  MsaOptions below = options;
  below.fast_memory_bytes = block.offset;
  absl::StatusOr<MsaResult> result = RunAllocator(rest, cost, below, config);
  if (!result.ok()) return result.status();
  for (const BlockSlot& s : block.slots) {
    const std::size_t b = static_cast<std::size_t>(s.buffer);
    result->alternate[b] = {
        Allocation{kAlternateSpace, s.offset, std::max<TimeStep>(s.start, 0), s.last_use}};
    result->needs_default[b] = true;
    result->alternate_peak = std::max(result->alternate_peak, s.offset + s.bytes);
    AsyncCopy copy;
    copy.buffer = s.buffer;
    copy.start = s.start;
    copy.done = s.done;
    copy.bytes = s.bytes;
    copy.block = true;
    result->copies.push_back(copy);
  }
  std::sort(result->copies.begin(), result->copies.end(), [](const AsyncCopy& a, const AsyncCopy& b) {
    return std::tie(a.start, a.done, a.buffer, a.kind, a.slice_index) <
           std::tie(b.start, b.done, b.buffer, b.kind, b.slice_index);
  });
  result->block = PrefetchBlock{block.offset, block.size};
  return result;
}

bool BlockWouldTakeDefaultReads(const MsaProblem& problem, ComputationId entry,
                                const MsaOptions& options, Bytes block_bytes,
                                const MsaResult& result) {
  BlockPlan block = ReserveBlock(options.fast_memory_bytes, block_bytes, options.alignment);
  PlanBlockPrefetch(problem, entry, options.alignment, block);
  for (const BlockSlot& s : block.slots) {
    const std::size_t b = static_cast<std::size_t>(s.buffer);
    const std::vector<Allocation>& segments = result.alternate[b];
    for (const BufferAccess& a : problem.buffers[b].accesses) {
      const bool in_fast = std::any_of(segments.begin(), segments.end(), [&](const Allocation& g) {
        return g.start <= a.time && a.time <= g.end;
      });
      if (!in_fast) return true;
    }
  }
  return false;
}

}  // namespace memplan
