// Human-readable summaries printed by `memplan plan` and `memplan stats`.
#pragma once

#include <optional>
#include <string>

#include "analysis/schedule.h"
#include "ir/buffer_set.h"
#include "ir/plan.h"
#include "ir/program.h"

namespace memplan {

// What a summary describes: the buffers and, for program inputs, the program
// and its flattened schedule (both nullptr for a lifetime CSV).
struct SummaryInput {
  const BufferSet& buffers;
  const Program* program = nullptr;
  const FlatSchedule* schedule = nullptr;
};

// Per-pool table (buffers, bytes, extent, lower bound, % over the bound; the
// name column as wide as the widest pool name), the winning algorithm,
// verification status and, when given, what aliasing saved. Words keep one
// meaning each (docs/formats.md#glossary): a pool's *extent* is the span its
// packing takes, its *lower bound* the most of its bytes live at one step; a
// space's *used* is its highest byte, its *max live* the most bytes live
// there at one step; the *activation peak* is the most activation
// (transient) bytes live at one step.
//   transient extent 96 bytes (96 B), lower bound 64 bytes (64 B) (50.00% over)
//   activation peak: 64 bytes live at step 2 (op %b = exp) in 2 buffers:
// then the five largest of them (report/peak_attribution.h). With fast
// memory (segments in another space) the default line adds how many of the
// transient pool's buffers have bytes in default memory ("; 9 of the pool's
// 53 buffers have bytes in default memory", the JSON's
// spaces[0].transient.buffers; the table's count is the pool's), the peak
// line reads "default memory activation peak: ... in 2 buffers (of 9 with
// bytes there)", and per other space "alternate memory activation peak:
// ..." with its largest buffers; no extent or % over of the activations
// alone there, since memory space assignment packs the space as a whole
// (weights and inputs among the activations). When the default-memory
// transient pool holds nothing because fast memory holds every activation,
// "transient pool in default memory: empty (its N buffers are held in fast
// memory only)" replaces its line. Per space: "default memory: U used, max
// live M at step S (P over)" (with a capacity: "U used of C capacity, max
// live ..."), its extent against its own bound. Pools limited by
// `--capacity POOL=BYTES` (PoolInfo::capacity) get a line each, e.g.
// "transient pool: 4096 bytes (4.00 KiB) used of 8192 bytes (8.00 KiB)
// capacity (50.00%)".
// For a plan with execution regions also what the transient figures cover,
// one line per region and the plan's warnings, e.g.
//   region @stage on gpu0: slab 24576 bytes (lower bound 24576, 0.00% over),
//   results 4096 bytes in 1 allocation, uploads 0 bytes, 5 commands in 4 waves
// (one line), a symbolic slab as "slab align(4*%n, 64) + 64 = 320 bytes at
// n=64", and "warning: ..." lines. Exact byte counts, with a human size
// alongside.
// What aliasing (views, in-place reuse) saved: the transient extent of the
// same input planned with and without it, both without fast memory when
// `without_fast_memory` (the plan itself used fast memory).
struct AliasingSaving {
  Bytes aliased_peak = 0;
  Bytes unaliased_peak = 0;
  bool without_fast_memory = false;
};

// When `auto` packed the transient pool, the summary ends with its members
// (report/packing_summary.h); `with_seconds` adds their wall-clock times.
std::string FormatPlanSummary(const SummaryInput& input, const Plan& plan,
                              std::optional<AliasingSaving> aliasing, bool with_seconds = false);

// `memplan stats`: buffers, time steps, total bytes, per-lifetime totals,
// the lower bound (max live activations) and the max live of all buffers
// with the first step each is reached and its op, the activation peak's
// largest buffers and a coarse profile of the activations' live bytes.
std::string FormatStats(const SummaryInput& input);

// For a plan that does not fit its capacity, in one line (appended to the
// failure): where the activations (default-memory transient buffers, over
// their live ranges) peak, the op there and the largest buffers live then,
// largest first (at most 3), e.g. "; the activations peak at step 1 (op %b =
// exp) with 12 bytes live in 2 buffers, largest first: b 8 bytes, a 4
// bytes" (one buffer: "... in 1 buffer: b"); "" when none is live.
std::string CapacityPeakText(const SummaryInput& input);

// "12.50%" style percentage of `peak` over `bound` ("0.00%" when bound is 0).
std::string PercentOver(Bytes peak, Bytes bound);

}  // namespace memplan
