// `memplan compare --target T [--fast-memory S]`: beside the packers' arena
// table, the estimated run time (msa/cost_model.h, msa/simulator.h) of the
// strategies that place data in fast memory, on the same cost model, with
// the time bound (msa/time_bound.h) no plan can beat.
//
// On a memory hierarchy (a target with spaces[]): every buffer in the
// slowest writable level; ExecuTorch's banked planner (no copies; buffers by
// size fill the fastest bank, then spill to the next); memplan with only the
// fastest level (two spaces); memplan over the whole hierarchy; the plan
// memplan keeps. On two spaces: every buffer in default memory; memplan in
// reference mode (XLA's 2021 pass as memplan re-creates it); memplan's
// default mode; every buffer in fast memory (what unlimited fast memory
// would give).
//
// Text example (examples/mlp.mpir --target npu-3level --fast-memory 64KiB):
//   estimated time on npu-3level (fast memory 64.00 KiB); only the kept plan is verified
//
//   strategy                  est. time  vs bound  rule
//   time bound                 14.57 us     1.000  no plan is faster: ...
//   executorch-banked (kept)   17.45 us     1.198  ExecuTorch banked ...
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/units.h"

namespace memplan {

// One strategy's estimate.
struct CompareTimeRow {
  std::string name;     // "time bound", "executorch-banked", "memplan", ...
  std::string planner;  // whose strategy, e.g. "ExecuTorch banked memory planner"
  std::string rule;     // one line: how it places data
  std::string source;   // the files or paper it follows; "" for memplan's own
  // Seconds; nullopt when the strategy's placement does not fit the target
  // or it was not run.
  std::optional<double> estimated_s;
  bool kept = false;    // the plan `memplan plan` reports (verified)
  std::string not_run;  // why the strategy was not run ("" when it was)
  std::string does_not_fit;  // why its placement does not fit ("" when it fits or was not run)
};

struct CompareTimes {
  std::string target;          // preset name or file, as given
  Bytes fast_memory_bytes = 0;  // of the fastest level
  double bound_s = 0;          // the time bound (the first row)
  std::vector<CompareTimeRow> rows;  // the bound first, then fastest to slowest
  // Why there are no rows: memplan's plan does not fit the target (the
  // planner's message, e.g. "plan does not fit: buffer 'h1' (32768 bytes)
  // fits in no memory space of target 'tiny' ..."); "" when it fits.
  std::string does_not_fit;
};

// The section (a blank line, its title, a blank line, one line per row;
// when the plan does not fit, the title and the reason on one line:
// "estimated time on tiny (fast memory 4.00 KiB): none: plan does not
// fit: ..."):
// name (with " (kept)" on the kept plan's row), estimated time (4 significant digits, "does not fit"
// or "not run" when none; a row not run gives its reason after the rule),
// ratio to the bound (3 decimals), "planner: rule". Deterministic.
std::string FormatCompareTimes(const CompareTimes& times);

// estimated / bound; 1 when both are 0; nullopt when the estimate is
// missing or only the bound is 0.
std::optional<double> RatioToBound(std::optional<double> estimated_s, double bound_s);

}  // namespace memplan
