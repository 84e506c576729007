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

// Per-pool table (buffers, bytes, peak, lower bound, % over the bound; the
// name column as wide as the widest pool name), the winning algorithm,
// verification status and, when given, what aliasing saved. The peak lines
// name the step where the plan's default-memory transient buffers peak, the
// op there and the five largest of them (report/peak_attribution.h).
// With fast memory (segments in another space) also, per such space, the
// activations there: "alternate memory activations: peak P, lower bound L
// (X% over), N transient buffers" (P: the highest offset + size of a
// transient segment there; L: their max live bytes, report/space_peaks.h)
// and their peak step, op and largest buffers; and when the default-memory
// transient pool holds nothing because fast memory holds every activation,
// "transient pool in default memory: empty (its N buffers are held in fast
// memory only)" replaces its peak line. Pools limited by `--capacity
// POOL=BYTES` (PoolInfo::capacity) get a line each, e.g. "transient pool:
// 4096 bytes (4.00 KiB) used of 8192 bytes (8.00 KiB) capacity (50.00%)".
// For a plan with execution regions also what the transient figures cover,
// one line per region and the plan's warnings, e.g.
//   region @stage on gpu0: slab 24576 bytes (lower bound 24576, 0.00% over),
//   results 4096 bytes in 1 allocation, uploads 0 bytes, 5 commands in 4 waves
// (one line), a symbolic slab as "slab align(4*%n, 64) + 64 = 320 bytes at
// n=64", and "warning: ..." lines. Exact byte counts, with a human size
// alongside.
// What aliasing (views, in-place reuse) saved: the transient peak of the
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

// `memplan stats`: buffers, time steps, total bytes, lower bound and the first
// time it is reached, per-lifetime totals and a coarse live-bytes profile.
std::string FormatStats(const SummaryInput& input);

// "12.50%" style percentage of `peak` over `bound` ("0.00%" when bound is 0).
std::string PercentOver(Bytes peak, Bytes bound);

}  // namespace memplan
