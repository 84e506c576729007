// Hand-built plans for the memory-map tests (tests/report/map/*_test.cc), with
// geometry easy to compute by hand for the default MapOptions: plot x = 88,
// plot width = 1084, default-panel plot top = 114, plot height = 320.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "ir/buffer_set.h"
#include "ir/plan.h"

namespace memplan::maptest {

inline constexpr Bytes kKiB = 1024;
inline constexpr Bytes kMiB = 1024 * 1024;

struct PlannedBuffers {
  BufferSet buffers;
  Plan plan;
};

inline void Add(PlannedBuffers& p, std::string name, Bytes size, TimeStep start, TimeStep end,
                std::string pool, std::vector<Allocation> allocations) {
  Buffer buffer;
  buffer.name = std::move(name);
  buffer.size = size;
  buffer.start = start;
  buffer.end = end;
  p.buffers.buffers.push_back(buffer);
  p.plan.placements.push_back({pool, AllocationList(allocations.begin(), allocations.end())});
}

// Three transient buffers over 4 time steps (271 px per step), peak = lower
// bound = 2 MiB (axis top 2 MiB: 160 px per MiB):
//   a: 1 MiB,   [0,1], offset 0       -> x 88,  y 274, w 542, h 160
//   b: 1 MiB,   [1,3], offset 1 MiB   -> x 359, y 114, w 813, h 160
//   c: 512 KiB, [2,3], offset 0       -> x 630, y 354, w 542, h 80
inline PlannedBuffers SmallPlan() {
  PlannedBuffers p;
  p.buffers.input = "small.mp";
  p.buffers.time_steps = 4;
  p.plan.input = "small.mp";
  p.plan.algorithm = "hand";
  p.plan.time_steps = 4;
  p.plan.peak = 2 * kMiB;
  p.plan.lower_bound = 2 * kMiB;
  p.plan.verified = true;
  p.plan.spaces = {{"default", kDefaultSpace, std::nullopt, 2 * kMiB}};
  p.plan.pools = {{"transient", Lifetime::kTransient, kDefaultSpace, 0, 2 * kMiB, 2 * kMiB, 3, 2 * kMiB + 512 * kKiB, std::nullopt, std::nullopt}};
  Add(p, "a", kMiB, 0, 1, "transient", {{kDefaultSpace, 0, 0, 1}});
  Add(p, "b", kMiB, 1, 3, "transient", {{kDefaultSpace, kMiB, 1, 3}});
  Add(p, "c", 512 * kKiB, 2, 3, "transient", {{kDefaultSpace, 0, 2, 3}});
  return p;
}

// Memory space assignment over 10 time steps with a 1 MiB fast memory:
//   x (256 KiB) in default memory [0,3], prefetched (copy 2 -> 3) into
//     alternate memory at offset 0 for [2,6];
//   y (256 KiB) in alternate memory at 256 KiB for [0,4], evicted (copy
//     3 -> 4) to default memory at 256 KiB for [3,9].
// The two copies overlap at time 3, so the copy lane has two rows.
inline PlannedBuffers MsaPlan() {
  PlannedBuffers p;
  p.buffers.time_steps = 10;
  p.plan.input = "msa.mp";
  p.plan.algorithm = "msa";
  p.plan.time_steps = 10;
  p.plan.peak = 512 * kKiB;
  p.plan.lower_bound = 512 * kKiB;
  p.plan.verified = true;
  p.plan.spaces = {{"default", kDefaultSpace, std::nullopt, 512 * kKiB},
                   {"alternate", kAlternateSpace, kMiB, 512 * kKiB}};
  p.plan.pools = {{"transient", Lifetime::kTransient, kDefaultSpace, 0, 512 * kKiB, 512 * kKiB, 2, 512 * kKiB, std::nullopt, std::nullopt}};
  Add(p, "x", 256 * kKiB, 0, 6, "transient",
      {{kDefaultSpace, 0, 0, 3}, {kAlternateSpace, 0, 2, 6}});
  Add(p, "y", 256 * kKiB, 0, 9, "transient",
      {{kAlternateSpace, 256 * kKiB, 0, 4}, {kDefaultSpace, 256 * kKiB, 3, 9}});
  p.plan.copies = {
      {0, CopyKind::kPrefetch, kDefaultSpace, kAlternateSpace, 2, 3, 256 * kKiB},
      {1, CopyKind::kEviction, kAlternateSpace, kDefaultSpace, 3, 4, 256 * kKiB},
  };
  MsaStats msa;
  msa.estimated_time_s = 0.0015;
  msa.prefetches = 1;
  msa.evictions = 1;
  p.plan.msa = msa;
  return p;
}

// MsaPlan plus a window prefetch and a prefetch block in alternate memory
// (axis top 1 MiB: 320 px per MiB; 108.4 px per step):
//   a window of x's first 128 KiB at 512 KiB, copy-start 4, copy-done (the
//     op's step) 5 -> x 88 + 4 * 108.4, w 2 * 108.4, y plot.y + 120, h 40;
//   the block [768 KiB, 1 MiB) over the whole run -> y plot.y, h 80.
inline PlannedBuffers WindowAndBlockPlan() {
  PlannedBuffers p = MsaPlan();
  p.plan.window_prefetches = {{0, 7, 1, kAlternateSpace, 4, 5, 128 * kKiB, 512 * kKiB}};
  p.plan.msa->window_prefetches = 1;
  p.plan.msa->window_prefetch_bytes = 128 * kKiB;
  p.plan.msa->block = PrefetchBlock{768 * kKiB, 256 * kKiB};
  p.plan.msa->block_prefetches = 0;
  return p;
}

// A three-level hierarchy's pools (driver/hierarchy_job.cc): activations
// in "sram.transient" (space 2), a weight pinned to the fast level in the
// pool "alternate" (space 1) next to an activation.
inline PlannedBuffers HierarchyPlan() {
  PlannedBuffers p;
  p.buffers.time_steps = 4;
  p.plan.input = "hier.mp";
  p.plan.time_steps = 4;
  p.plan.spaces = {{"dram", kDefaultSpace, std::nullopt, 0},
                   {"scratchpad", kAlternateSpace, 256 * kKiB, 192 * kKiB},
                   {"sram", 2, kMiB, kMiB}};
  p.plan.pools = {
      {"sram.transient", Lifetime::kTransient, 2, 0, kMiB, kMiB, 1, kMiB, std::nullopt, std::nullopt},
      {"alternate", Lifetime::kTransient, kAlternateSpace, 0, 192 * kKiB, 128 * kKiB, 2,
       192 * kKiB, std::nullopt, std::nullopt}};
  Add(p, "act", kMiB, 0, 3, "sram.transient", {{2, 0, 0, 3}});
  Add(p, "w", 64 * kKiB, 0, 3, "alternate", {{kAlternateSpace, 0, 0, 3}});
  p.buffers.buffers.back().lifetime = Lifetime::kConstant;
  Add(p, "fast", 128 * kKiB, 1, 2, "alternate", {{kAlternateSpace, 64 * kKiB, 1, 2}});
  return p;
}

// A staged prefetch (AsyncCopy::via) over 4 time steps: w (256 KiB, a
// weight homed in flash, space 3) is prefetched into tcm (space 1) for
// [2,3] through sram (space 2), whose chunk [512 KiB, 768 KiB) is held over
// the copy's steps [0,1] above act (512 KiB, [0,3]): sram holds 768 KiB at
// steps 0-1, 512 KiB at 2-3.
inline PlannedBuffers StagedPlan() {
  PlannedBuffers p;
  p.buffers.time_steps = 4;
  p.plan.input = "staged.mp";
  p.plan.time_steps = 4;
  p.plan.spaces = {{"dram", kDefaultSpace, std::nullopt, 0},
                   {"tcm", kAlternateSpace, 256 * kKiB, 256 * kKiB},
                   {"sram", 2, kMiB, 768 * kKiB},
                   {"flash", 3, 4 * kMiB, 256 * kKiB}};
  Add(p, "act", 512 * kKiB, 0, 3, "sram.transient", {{2, 0, 0, 3}});
  Add(p, "w", 256 * kKiB, 0, 3, "flash.constant", {{3, 0, 0, 3}, {kAlternateSpace, 0, 2, 3}});
  p.buffers.buffers.back().lifetime = Lifetime::kConstant;
  p.plan.copies = {{1, CopyKind::kPrefetch, 3, kAlternateSpace, 0, 1, 256 * kKiB}};
  p.plan.copies[0].via = CopyVia{2, 512 * kKiB};
  return p;
}

// A hierarchy's fallback layout (driver/hierarchy_job.h: the home
// offsets kept, one transient pool per level) over 4 time steps (271 px
// per step): psram (space 0) files activation a (1 MiB, [0,1] @0) and
// weight w (1 MiB, last read at step 1, @1 MiB) in its "transient" pool,
// extent = bound = 2 MiB (160 px per MiB from y 114); flash (space 3)
// files weight f (256 KiB, read at step 0) in "flash.transient". The
// weights' bytes are theirs for the whole run.
inline PlannedBuffers FallbackLayoutPlan() {
  PlannedBuffers p;
  p.buffers.time_steps = 4;
  p.plan.input = "fallback.mp";
  p.plan.time_steps = 4;
  p.plan.peak = 2 * kMiB;
  p.plan.lower_bound = 2 * kMiB;
  p.plan.spaces = {{"psram", kDefaultSpace, 2 * kMiB, 2 * kMiB},
                   {"tcm", kAlternateSpace, 64 * kKiB, 0},
                   {"flash", 3, 4 * kMiB, 256 * kKiB}};
  p.plan.pools = {
      {"transient", Lifetime::kTransient, kDefaultSpace, 0, 2 * kMiB, 2 * kMiB, 2, 2 * kMiB,
       std::nullopt, std::nullopt},
      {"flash.transient", Lifetime::kTransient, 3, 0, 256 * kKiB, 256 * kKiB, 1, 256 * kKiB,
       std::nullopt, std::nullopt}};
  Add(p, "a", kMiB, 0, 1, "transient", {{kDefaultSpace, 0, 0, 1}});
  Add(p, "w", kMiB, 0, 1, "transient", {{kDefaultSpace, kMiB, 0, 1}});
  p.buffers.buffers.back().lifetime = Lifetime::kConstant;
  Add(p, "f", 256 * kKiB, 0, 0, "flash.transient", {{3, 0, 0, 0}});
  p.buffers.buffers.back().lifetime = Lifetime::kConstant;
  return p;
}

// `n` transient buffers of 1-3 KiB, one starting per time step and live for
// 4 steps (so the live bytes change every step), at 64 rotating 4 KiB
// offsets: far more marks than pixels.
inline PlannedBuffers LargePlan(int n) {
  PlannedBuffers p;
  p.buffers.time_steps = n;
  p.plan.input = "large.mp";
  p.plan.time_steps = n;
  p.plan.verified = true;
  for (int i = 0; i < n; ++i) {
    const TimeStep end = std::min<TimeStep>(i + 3, n - 1);
    const Bytes offset = (i % 64) * 4 * kKiB;
    Add(p, fmt::format("t{}", i), (1 + i % 3) * kKiB, i, end, "transient",
        {{kDefaultSpace, offset, i, end}});
  }
  p.plan.peak = 256 * kKiB;
  p.plan.lower_bound = 9 * kKiB;  // 3 + 1 + 2 + 3 KiB
  return p;
}

// Execution regions (same geometry as SmallPlan): region @r on gpu0 has a
// slab [0, 1] and a results reservation [0, 3] above it; region @q on gpu1
// has a slab [2, 3] that reuses r.slab's bytes.
//   r.slab    1 MiB at 0,     [0,1] -> x 88,  y 274, w 542,  h 160: a [0,1]
//   q.slab    512 KiB at 0,   [2,3] -> x 630, y 354, w 542,  h 80:  c [2,3]
//   r.results 1 MiB at 1 MiB, [0,3] -> x 88,  y 114, w 1084, h 160: b [1,3]
inline PlannedBuffers RegionPlan() {
  PlannedBuffers p = SmallPlan();
  p.plan.input = "regions.mpir";
  p.plan.pools = {
      {"r.slab", Lifetime::kTransient, kDefaultSpace, 0, kMiB, kMiB, 1, kMiB, 0, 1},
      {"q.slab", Lifetime::kTransient, kDefaultSpace, 0, 512 * kKiB, 512 * kKiB, 1, 512 * kKiB,
       2, 3},
      {"r.results", Lifetime::kTransient, kDefaultSpace, kMiB, kMiB, kMiB, 1, kMiB, 0, 3}};
  p.plan.placements[0].pool = "r.slab";
  p.plan.placements[1].pool = "r.results";
  p.plan.placements[2].pool = "q.slab";
  ::memplan::RegionPlan regions;
  const auto resource = [](std::string name, ResourceKind kind, std::string region,
                           std::string affinity, Bytes size, TimeStep start, TimeStep end) {
    Resource r;
    r.name = std::move(name);
    r.kind = kind;
    r.region = std::move(region);
    r.affinity = std::move(affinity);
    r.size = SizeExpr::Constant(size);
    r.size_bytes = size;
    r.start = start;
    r.end = end;
    return r;
  };
  regions.resources = {resource("r.results", ResourceKind::kResults, "r", "gpu0", kMiB, 0, 3),
                       resource("r.slab", ResourceKind::kSlab, "r", "gpu0", kMiB, 0, 1),
                       resource("q.slab", ResourceKind::kSlab, "q", "gpu1", 512 * kKiB, 2, 3)};
  p.plan.regions = std::move(regions);
  return p;
}

// SmallPlan with weights: a constant pool [2 MiB, 3 MiB) above the
// transient pool, laid out once (never reused), holding
//   w1: 512 KiB, used [0,1], offset 2 MiB
//   w2: 512 KiB, used [2,2], offset 2.5 MiB
// Default-space peak 3 MiB (axis top 3 MiB: 320/3 px per MiB).
inline PlannedBuffers WeightsPlan() {
  PlannedBuffers p = SmallPlan();
  p.plan.spaces[0].peak = 3 * kMiB;
  p.plan.pools.push_back({"constant", Lifetime::kConstant, kDefaultSpace, 2 * kMiB, kMiB, kMiB, 2,
                          kMiB, std::nullopt, std::nullopt});
  Add(p, "w1", 512 * kKiB, 0, 1, "constant", {{kDefaultSpace, 2 * kMiB, 0, 1}});
  Add(p, "w2", 512 * kKiB, 2, 2, "constant", {{kDefaultSpace, 2 * kMiB + 512 * kKiB, 2, 2}});
  p.buffers.buffers[3].lifetime = Lifetime::kConstant;
  p.buffers.buffers[4].lifetime = Lifetime::kConstant;
  return p;
}

}  // namespace memplan::maptest
