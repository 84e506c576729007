#include "msa/cross_program.h"

namespace memplan {

std::optional<BufferId> PickCrossProgramPrefetch(const MsaProblem& problem, Bytes capacity) {
  std::optional<BufferId> best;
  for (BufferId id = 0; id < static_cast<BufferId>(problem.buffers.size()); ++id) {
    const MsaBuffer& b = problem.buffers[id];
    if (!b.weight_parameter || b.size > capacity) continue;
    if (!best) {
      best = id;
      continue;
    }
    const MsaBuffer& other = problem.buffers[*best];
    if (b.size > other.size ||
        (b.size == other.size && b.reader_output_bytes > other.reader_output_bytes)) {
      best = id;
    }
  }
  return best;
}

bool PlaceCrossProgramPrefetch(AllocatorState& state, BufferId id, Bytes memory_pressure) {
  const MsaProblem& problem = state.problem;
  const MsaBuffer& b = problem.buffers[id];
  const TimeStep last_step = problem.time_steps - 1;
  // The plan shows the prefetch as a copy over [start, start] (it completes
  // before the first step), so it counts against the outstanding limit.
  if (state.limits.ExceedsLimit(CopyKind::kPrefetch, b.start, b.start,
                                state.options.max_outstanding_prefetches)) {
    return false;
  }
  const std::optional<Bytes> offset = state.heap.BestFit(b.start, last_step, b.size);
  if (!offset) return false;

  // A last read inside a loop keeps the chunk through the loop's end (every
  // iteration reads it; msa/control_scopes.h).
  const TimeStep last_read = *problem.scopes.SegmentEnd(b.start - 1, b.accesses.back().time);
  TimeStep reserved_from = last_read + 1;
  bool freed = false;
  if (state.options.cross_program_prefetch_freeing && memory_pressure > state.heap.capacity() &&
      last_read < last_step && b.outlives_run) {
    const TimeStep preferred =
        state.picker->PreferredStart(b.size, last_read + 1, last_step, problem.time_steps);
    const TimeStep refill = problem.timeline.OwnStepAtOrBefore(last_step, preferred);
    // The refill is a copy over [refill, last step]: it needs a step to
    // overlap, room under the outstanding limit and, when modelled, time on
    // the DMA queue; else the buffer is kept.
    const double seconds = state.cost.CopySeconds(b.size);
    if (refill > last_read && refill < last_step &&
        !state.limits.ExceedsLimit(CopyKind::kPrefetch, refill, last_step,
                                   state.options.max_outstanding_prefetches) &&
        (!state.bandwidth || state.bandwidth->Fits(refill, last_step, seconds))) {
      reserved_from = refill;
      freed = true;
    }
  }

  const auto group = static_cast<std::int32_t>(state.blocks.size());
  state.heap.Commit(b.start, last_read, *offset, b.size);
  state.blocks.push_back(AltBlock{id, b.start, last_read, *offset, b.size, group, false});
  if (reserved_from <= last_step) {
    state.heap.Commit(reserved_from, last_step, *offset, b.size);
    // A refilled chunk is a segment opened by a real prefetch; a kept one
    // stays a reservation.
    state.blocks.push_back(AltBlock{id, reserved_from, last_step, *offset, b.size, group, !freed});
  }
  if (freed) {
    state.copies.push_back(AsyncCopy{id, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace,
                                     reserved_from, last_step, b.size});
    state.limits.Add(CopyKind::kPrefetch, reserved_from, last_step);
    if (state.bandwidth) {
      state.bandwidth->Consume(reserved_from, last_step, state.cost.CopySeconds(b.size));
    }
  }
  state.limits.Add(CopyKind::kPrefetch, b.start, b.start);
  state.needs_default[id] = true;
  state.cross_program_prefetch = CrossProgramPrefetch{id, *offset, reserved_from, freed};
  return true;
}

}  // namespace memplan
