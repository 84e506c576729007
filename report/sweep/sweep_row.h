// One row of `memplan sweep`'s table: a grid point (symbolic-dim bindings
// and a fast-memory size) and the figures of its verified plan. Built by
// driver/sweep_job.h, written by report/sweep/sweep_table.h and
// report/sweep/sweep_chart.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/plan.h"
#include "ir/units.h"

namespace memplan {

// One point of the grid: a binding per swept dim and, when fast memory is
// swept, its size (nullopt: the base options' fast memory, if any; a row
// records the size its plan used, e.g. the --target's).
struct SweepPoint {
  std::vector<std::pair<std::string, std::int64_t>> dims;  // in SweepDim order
  // dims.front() is `batch`, the leading dim of every graph input (sweep
  // --batch), not a symbolic dim.
  bool batch_first = false;
  std::optional<Bytes> fast_memory;
};

// `--dim seq=4 --fast-memory 1MiB` style (`--batch 4` for a batch), for messages and labels; "" for
// an empty point.
std::string DescribeSweepPoint(const SweepPoint& point);

// What a sweep reports of one point's verified plan.
struct SweepRow {
  SweepPoint point;
  // Set when the plan does not fit --capacity: the planner's message. The
  // figures are then those of the same point planned without the limits
  // (what it needs; `verified` is that plan's), or all zero with no
  // `msa` when even that failed (a pinned buffer larger than the fast
  // memory). The sweep goes on.
  std::optional<std::string> over_capacity;
  Bytes peak = 0;                 // Plan::peak: default-memory transient extent
  Bytes lower_bound = 0;          // Plan::lower_bound (max live transient bytes)
  Bytes default_bytes = 0;        // default memory used: highest byte, weights included
  std::optional<Bytes> alternate_bytes;  // alternate (fast) memory used, with MSA
  std::optional<MsaStats> msa;    // with fast memory: estimated time and bounds (seconds)
  double captured_speedup = 0;    // with fast memory: CapturedSpeedup (driver/msa_job.h), 0..1
  TimeStep time_steps = 0;
  std::int64_t buffers = 0;
  bool verified = false;          // always true for a row with figures
  // --algorithm exact: Plan::search_status ("optimal", "feasible",
  // "infeasible" or "stopped"; "" for other algorithms) and the time limit
  // the search ran under (seconds; default_time_limit when none was given).
  std::string search_status;
  double search_time_limit_seconds = 0;
  bool search_default_time_limit = false;

  // Whether the row holds a plan's figures (false only for a point over
  // capacity that did not plan without the limits either).
  bool HasFigures() const { return verified; }
};

}  // namespace memplan
