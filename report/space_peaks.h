// Where each memory space of a plan peaks, and how much of it the
// activations (transient buffers) take: the figures behind the summary's
// per-space lines and the JSON plan's `spaces[]` peak fields. Everything is
// measured on the plan's own segments (report/space_view.h), so with fast
// memory the alternate space counts what memory space assignment put there,
// from each prefetch's start, and the default space only what stays there;
// a memory hierarchy's intermediate level counts the chunks of the copies
// staged through it too.
//
// Example: a plan whose transient buffers a (4 B, [0,1]) and b (8 B, [1,2])
// both sit in alternate memory at offsets 0 and 4, with a constant w (16 B,
// [0,2]) in default memory, gives for the default space max live 16 B at
// step 0 (with w's pool held all run the same: resident 16 B, 16 B at step
// 0), no transient data (peak 0, lower bound 0, step none); for the
// alternate space max live 12 B at step 1, transient peak_bytes 12 B
// (highest end; not an extent of the activations alone: weights may sit
// below them), lower bound 12 B (max live) at step 1 in 2 buffers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan {

struct SpacePeak {
  MemorySpace space = kDefaultSpace;
  // Every segment of the space: the most bytes held at one step, and the
  // first step where that happens (kNoId when the space holds nothing).
  Bytes max_live_bytes = 0;
  TimeStep peak_step = kNoId;
  // The same with the pools laid out once for the whole run (never reused:
  // constant, variable, external, without a time range) held at every step,
  // as the plan holds them: `resident_bytes` (those pools' lower bounds, the
  // bytes of their buffers) plus the most bytes of the other segments live
  // at one step, first reached at `resident_peak_step`. No plan of the
  // space's pools uses fewer bytes, so the space's % over is measured
  // against it. Equal to max_live_bytes / peak_step when the space has no
  // such pool.
  Bytes resident_bytes = 0;
  std::vector<std::string> resident_pools;  // their names, in plan.pools order
  Bytes resident_max_live_bytes = 0;
  TimeStep resident_peak_step = kNoId;
  // The transient buffers' segments (the activations). peak: for the default
  // space the plan's transient pool size (Plan::peak), for another space the
  // highest offset + size of such a segment; lower_bound: their max live
  // bytes (for the default space Plan::lower_bound), reached first at
  // `transient_step` (kNoId when none is there); `transient_buffers`: how
  // many distinct transient buffers have a segment in the space.
  Bytes transient_peak = 0;
  Bytes transient_lower_bound = 0;
  TimeStep transient_step = kNoId;
  std::int64_t transient_buffers = 0;
};

// One entry per space of plan.spaces, in that order. O(n log n) in segments.
std::vector<SpacePeak> ComputeSpacePeaks(const BufferSet& buffers, const Plan& plan);

}  // namespace memplan
