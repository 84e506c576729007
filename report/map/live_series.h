// What the memory map shows besides the rectangles: which buffers are
// activations (for the HTML "activations only" view), how many bytes each
// memory space holds over time (the live-bytes chart) and where that peaks
// (the peak marker drawn on the map and on the chart).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/map/layout.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan::memmap {

// Whether a pool of `lifetime` holds activations: the transient and staging
// pools, which are packed with reuse between ops. Constant (weights),
// variable (state) and external (model inputs and outputs) pools are laid
// out once and never reused (driver/pools.h).
bool IsActivationLifetime(Lifetime lifetime);

// The lifetime of each buffer's pool (PoolOf): the lifetime of the plan's
// pool of that name, else the buffer's own lifetime. Parallel to
// buffers.buffers. O(n log pools).
std::vector<Lifetime> PoolLifetimes(const BufferSet& buffers, const Plan& plan);

// Whether each buffer is shown in the activations-only view: its pool holds
// activations (PoolLifetimes) and it is not itself a weight, state or model
// input or output (a hierarchy places weights in the fast level's
// "alternate" pool, whose lifetime is transient). Parallel to buffers.buffers.
std::vector<bool> ActivationBuffers(const BufferSet& buffers, const Plan& plan);

// Live bytes of a memory space other than the default one over time: the
// sum of the sizes of the buffers with an allocation in `space` covering the
// step (a buffer counted once per step even with several allocations there),
// plus the chunks of the copies staged through `space` (AsyncCopy::via)
// over their StagingSteps and the regions' copies of captured values into
// it (RegionCopy) over their steps, in the same step form as
// TransientLiveProfile.
// With `activations_only`, only the buffers (and chunks) of ActivationBuffers
// (no region copies).
// Example: x 256 KiB in space 1 over [2,6], y 256 KiB over [0,4] ->
// {0: 256 KiB}, {2: 512 KiB}, {5: 256 KiB}, {7: 0}. O(n log n).
std::vector<LiveStep> SpaceLiveProfile(const BufferSet& buffers, const Plan& plan,
                                       MemorySpace space, bool activations_only);

// The first time step at which a profile reaches its maximum, and that
// maximum; nullopt when nothing is ever live (every step 0 bytes).
// Example: {0: 4}, {1: 12}, {2: 8}, {3: 0} -> step 1, 12 bytes.
struct ProfilePeak {
  TimeStep step = 0;
  Bytes bytes = 0;
  bool operator==(const ProfilePeak&) const = default;
};
std::optional<ProfilePeak> PeakOf(const std::vector<LiveStep>& profile);

}  // namespace memplan::memmap
