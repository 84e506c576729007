#include "msa/allocator.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "msa/allocator_state.h"
#include "msa/buffer_walk.h"
#include "msa/cross_program.h"

namespace memplan {
namespace {

std::unique_ptr<PrefetchIntervalPicker> MakePicker(const MsaProblem& problem, const CostModel& cost,
                                                   const MsaOptions& options) {
  if (options.picker == PickerKind::kInstructionCount) {
    return std::make_unique<InstructionCountPicker>(problem.timeline, options.min_overlap_ops,
                                                    options.max_overlap_ops);
  }
  return std::make_unique<CostAnalysisPicker>(problem.timeline, cost, options.min_overlap_ratio,
                                              options.preferred_overlap_ratio,
                                              options.max_overlap_ratio, options.fast_memory_bytes);
}

bool MayUseAlternate(const MsaBuffer& b) {
  return b.policy == AltPolicy::kAnywhere || b.policy == AltPolicy::kReadCopies;
}

// The buffers of step 4 in allocation order.
std::vector<BufferId> SortedBuffers(const MsaProblem& problem, BufferOrder order,
                                   const LoopPlan* loop) {
  std::vector<BufferId> ids;
  for (BufferId id = 0; id < static_cast<BufferId>(problem.buffers.size()); ++id) {
    if (MayUseAlternate(problem.buffers[id])) ids.push_back(id);
  }
  auto key = [&](BufferId id) {
    const MsaBuffer& b = problem.buffers[id];
    switch (order) {
      case BufferOrder::kMemoryBoundedness:
        return std::make_tuple(-b.memory_boundedness, -b.size, TimeStep{0}, id);
      case BufferOrder::kSize:
        return std::make_tuple(0.0, -b.size, b.start - b.end, id);
      case BufferOrder::kTotalBenefit:
        return std::make_tuple(-b.memory_boundedness * std::sqrt(static_cast<double>(b.size)),
                               -b.size, TimeStep{0}, id);
    }
    return std::make_tuple(0.0, Bytes{0}, TimeStep{0}, id);
  };
  // The loop optimizer's buffers, in its order, after the assign-first ones.
  std::vector<std::size_t> loop_rank(problem.buffers.size(), problem.buffers.size());
  if (loop) {
    for (std::size_t r = 0; r < loop->order.size(); ++r) loop_rank[static_cast<std::size_t>(loop->order[r])] = r;
  }
  // Buffers named by the user's assign-first override come first.
  std::sort(ids.begin(), ids.end(), [&](BufferId a, BufferId b) {
    const bool first_a = problem.buffers[a].assign_first;
    const bool first_b = problem.buffers[b].assign_first;
    if (first_a != first_b) return first_a;
    const std::size_t rank_a = loop_rank[static_cast<std::size_t>(a)];
    const std::size_t rank_b = loop_rank[static_cast<std::size_t>(b)];
    if (rank_a != rank_b) return rank_a < rank_b;
    return key(a) < key(b);
  });
  return ids;
}

// Re-packs every finalized block with the packing layer; keeps the new
// offsets only if they fit the capacity. Blocks of one group move together
// as one item spanning the group.
void Repack(AllocatorState& state) {
  std::vector<PackItem> items;
  std::vector<std::size_t> item_of(state.blocks.size());
  std::vector<std::size_t> group_item(state.blocks.size(), static_cast<std::size_t>(-1));
  for (std::size_t i = 0; i < state.blocks.size(); ++i) {
    const AltBlock& b = state.blocks[i];
    if (b.group >= 0 && group_item[b.group] != static_cast<std::size_t>(-1)) {
      PackItem& item = items[group_item[b.group]];
      item.start = std::min(item.start, b.start);
      item.end = std::max(item.end, b.end);
      item_of[i] = group_item[b.group];
      continue;
    }
    item_of[i] = items.size();
    if (b.group >= 0) group_item[b.group] = items.size();
    items.push_back(PackItem{b.size, 1, b.start, b.end});
  }
  // kAuto at fast effort: a repack runs many times per plan, so only the
  // near-linear members, and no search.
  const PackResult packed =
      Pack(items, state.config.repacker,
           PackOptions{.alignment = state.heap.alignment(), .effort = PackEffort::kFast});
  if (packed.peak > state.heap.capacity()) return;
  state.heap.Clear();
  for (std::size_t i = 0; i < state.blocks.size(); ++i) {
    AltBlock& b = state.blocks[i];
    b.offset = packed.offsets[item_of[i]];
    state.heap.Commit(b.start, b.end, b.offset, b.size);
  }
}

// Step 4 for one buffer: retries, repacks, then keeps the attempt (or leaves
// the buffer in default memory).
void AllocateBuffer(AllocatorState& state, BufferId id) {
  const std::int64_t retries = state.options.max_retries;
  bool repacked = false;
  std::vector<bool> default_only;  // inefficient sites found so far
  for (std::int64_t retry = 0; retry < retries; ++retry) {
    state.picker->SetRetry(static_cast<int>(retry));
    BufferAttempt attempt;
    WalkBuffer(state, id, attempt, default_only);
    const bool final_retry = retry == retries - 1;
    if (attempt.must_undo || (!final_retry && attempt.copy_limited)) {
      UndoAttempt(state, attempt);
      continue;
    }
    if (attempt.out_of_memory && !repacked && state.config.max_slices < 2 &&
        state.repacks < state.config.max_repacks) {
      UndoAttempt(state, attempt);
      ++state.repacks;
      repacked = true;
      Repack(state);
      --retry;  // the same attempt again on the repacked heap
      continue;
    }
    // Inefficient sites go to default memory and the buffer is walked
    // again from the first retry; each round adds sites, so this ends.
    const std::vector<std::size_t> sites =
        InefficientAccesses(state, id, attempt, state.options.inefficient_use_to_copy_ratio);
    default_only.resize(state.problem.buffers[id].accesses.size(), false);
    bool added = false;
    for (std::size_t i : sites) {
      added |= !default_only[i];
      default_only[i] = true;
    }
    if (added) {
      UndoAttempt(state, attempt);
      retry = -1;
      continue;
    }
    KeepAttempt(state, id, attempt);
    return;
  }
}

MsaResult CollectResult(const AllocatorState& state) {
  const std::size_t n = state.problem.buffers.size();
  MsaResult result;
  result.alternate.resize(n);
  result.needs_default = state.needs_default;
  for (const AltBlock& b : state.blocks) {
    result.alternate_peak = std::max(result.alternate_peak, b.offset + b.size);
    if (!b.reservation) result.alternate[b.buffer].push_back(Allocation{kAlternateSpace, b.offset, b.start, b.end});
  }
  for (std::vector<Allocation>& segments : result.alternate) {
    std::sort(segments.begin(), segments.end(),
              [](const Allocation& a, const Allocation& b) { return a.start < b.start; });
  }
  result.copies = state.copies;
  std::sort(result.copies.begin(), result.copies.end(), [](const AsyncCopy& a, const AsyncCopy& b) {
    return std::tie(a.start, a.done, a.buffer, a.kind, a.slice_index) <
           std::tie(b.start, b.done, b.buffer, b.kind, b.slice_index);
  });
  result.cross_program_prefetch = state.cross_program_prefetch;
  if (result.cross_program_prefetch) {
    // A repack may have moved the chunk.
    for (const AltBlock& b : state.blocks) {
      if (b.buffer == result.cross_program_prefetch->buffer) result.cross_program_prefetch->offset = b.offset;
    }
  }
  return result;
}

}  // namespace

AllocatorState::AllocatorState(const MsaProblem& problem_in, const CostModel& cost,
                               const MsaOptions& options_in, const AllocatorConfig& config_in)
    : problem(problem_in),
      cost(cost),
      options(options_in),
      config(config_in),
      heap(options_in.fast_memory_bytes, options_in.alignment),
      picker(MakePicker(problem_in, cost, options_in)),
      needs_default(problem_in.buffers.size(), false) {
  if (config.copy_bandwidth_share > 0) {
    bandwidth.emplace(cost, problem.time_steps, config.copy_bandwidth_share);
  }
}

absl::StatusOr<MsaResult> RunAllocator(const MsaProblem& problem, const CostModel& cost,
                                       const MsaOptions& options, const AllocatorConfig& config) {
  AllocatorState state(problem, cost, options, config);
  const auto n = static_cast<BufferId>(problem.buffers.size());

  // 1. Buffers pinned to alternate memory.
  for (BufferId id = 0; id < n; ++id) {
    const MsaBuffer& b = problem.buffers[id];
    if (b.policy == AltPolicy::kDefaultOnly) state.needs_default[id] = true;
    if (b.policy != AltPolicy::kPinnedAlternate) continue;
    const std::optional<Bytes> offset = state.heap.BestFit(b.start, b.end, b.size);
    if (!offset) {
      return absl::ResourceExhaustedError(
          "buffer %" + std::string(b.name) + " (" + std::to_string(b.size) +
          " bytes) is pinned to the alternate memory space but no chunk is free during [" +
          std::to_string(b.start) + ", " + std::to_string(b.end) + "] (fast memory: " +
          std::to_string(options.fast_memory_bytes) + " bytes)");
    }
    state.heap.Commit(b.start, b.end, *offset, b.size);
    state.blocks.push_back(AltBlock{id, b.start, b.end, *offset, b.size, -1, false});
  }

  if (config.required_only) {
    for (BufferId id : problem.scratch) state.needs_default[id] = true;
    for (BufferId id = 0; id < n; ++id) {
      if (MayUseAlternate(problem.buffers[id])) state.needs_default[id] = true;
    }
    return CollectResult(state);
  }

  // 2. Reserved scoped memory: scratch buffers at their op's step.
  for (BufferId id : problem.scratch) {
    const MsaBuffer& b = problem.buffers[id];
    const std::optional<Bytes> offset = state.heap.BestFit(b.start, b.end, b.size);
    state.needs_default[id] = !offset;
    if (!offset) continue;
    state.heap.Commit(b.start, b.end, *offset, b.size);
    state.blocks.push_back(AltBlock{id, b.start, b.end, *offset, b.size, -1, false});
  }

  // 3. Cross-program prefetch.
  BufferId prefetched = kNoId;
  if (options.cross_program_prefetch) {
    Bytes pressure = 0;
    for (const MsaBuffer& b : problem.buffers) {
      if (MayUseAlternate(b)) pressure += b.size;
    }
    const std::optional<BufferId> candidate =
        PickCrossProgramPrefetch(problem, options.fast_memory_bytes);
    if (candidate && PlaceCrossProgramPrefetch(state, *candidate, pressure)) prefetched = *candidate;
  }

  // 4. Everything else, in order.
  for (BufferId id : SortedBuffers(problem, config.order, config.loop)) {
    if (id == prefetched) continue;
    state.needs_default[id] = true;  // unless an attempt is kept
    AllocateBuffer(state, id);
  }
  return CollectResult(state);
}

}  // namespace memplan
