// Memory-aware schedule reordering (docs/reorder.md): a new op order per
// computation that lowers the program's transient max-live, the bound every
// packing of the activations is held to.
//
// A portfolio, as XLA's DefaultMemoryScheduler and Inductor's
// reorder_for_peak_memory keep the best of their schedulers: each peer
// strategy (schedule/strategies.h) orders every computation; then, per
// computation from the lowest-model-peak order found so far, a local search;
// then the exact dynamic program (schedule/exact_order.h) where the
// computation is small enough. Every candidate program is re-analysed
// (AnalyzeProgram) and its transient max-live measured; the lowest wins, ties
// to the earlier row, the input order first — so the result is never worse
// than the input order. Deterministic: no clocks decide anything.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ir/program.h"
#include "ir/units.h"

namespace memplan {

struct ReorderOptions {
  // The local search's work over all computations (schedule/strategies.h,
  // about a nanosecond each), shared in proportion to their units.
  std::int64_t local_search_work = 20'000'000;
};

// One candidate: a strategy applied to every computation.
struct ReorderRow {
  std::string name;     // "input", a peer's name, "local-search" or "exact"
  Bytes peak = 0;       // the re-analysed transient max-live of that order
  double seconds = 0;   // wall-clock seconds finding the orders (not measured: varies)
};

struct ReorderResult {
  Program program;              // the winning order (the input's when nothing is lower)
  std::string strategy;         // the winning row's name
  Bytes input_peak = 0;         // transient max-live of the input order
  Bytes peak = 0;               // ... of the winning order
  Bytes lower_bound = 0;        // order-independent (schedule/lower_bound.h)
  std::vector<ReorderRow> rows; // "input", the six peers, "local-search", "exact"
  std::vector<ComputationId> changed;  // computations whose op order differs from the input's
  // The exact program per computation that could be reordered (more than
  // one unit, not fixed): proven optimal for the model, or skipped.
  std::int32_t exact_proven = 0;
  std::int32_t exact_too_large = 0;    // more than kExactMaxUnits units
  std::int32_t exact_state_limit = 0;  // stopped at kExactMaxStates
  // Every such computation proven and the program has one computation: the
  // winning order is optimal (its model peak equals the transient max-live
  // there).
  bool optimal = false;
};

// Reorders `program` (which must pass ValidateProgram). Errors: those of
// AnalyzeProgram, InvalidArgument, for a program it rejects.
absl::StatusOr<ReorderResult> ReorderProgram(const Program& program, const ReorderOptions& options = {});

// The transient max-live (bytes) of `program` as scheduled: the peak of
// ComputeLivePeak over its transient buffers. Errors: those of AnalyzeProgram.
absl::StatusOr<Bytes> TransientMaxLive(const Program& program);

}  // namespace memplan
