// The job behind `memplan compare`: on the buffers `memplan plan` packs into
// the transient pool of default memory (no fast memory), the arena each
// well-known planner's strategy needs (packing/peers/peer_strategies.h),
// beside memplan's own plan (the `auto` portfolio, with the dead gaps of
// conditionals) and the max-live lower bound. Every placement is checked by
// the independent verifier (verify/verifier.h) on those buffers alone: no
// two buffers live at one step share a byte, every offset is aligned. For a
// TFLite model a last row, tflite-micro-head, gives the figure `memplan
// plan` reports for TFLite Micro's greedy planner: on TFLite Micro's own
// tensors (a view is a tensor of its own there) at its 16-byte alignment,
// where every other row sees memplan's buffers (the table's header says
// which rows are on memplan's buffers, for every input).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "driver/input.h"
#include "driver/msa_job.h"
#include "driver/progress.h"
#include "report/compare_table.h"

namespace memplan {

struct CompareJobOptions {
  LoadOptions load;                      // --dim, --no-alias
  Bytes alignment = 1;                   // every offset a multiple of this
  std::optional<std::string> json_path;  // "-": into CompareJobResult::json_stdout
  // With load.reorder: the table also has the reordering strategies' rows
  // (CompareTable::orders); `timings` adds their wall-clock seconds.
  bool timings = false;
  // --target/--fast-memory: the table also has the estimated-time section
  // (CompareTable::times, driver/compare_times.h).
  std::optional<MsaJobOptions> msa;
  // Phases reported as they start (loading, memplan's plan, then the other
  // planners' strategies counted one by one; driver/progress.h); null: none.
  ProgressReporter* progress = nullptr;
};

struct CompareJobResult {
  CompareTable table;  // rows: lower bound, memplan, then the peers in order
  std::string text;    // FormatCompareTable(table)
  std::optional<std::string> json_stdout;  // the JSON when json_path is "-"
  // "name: verifier message" for each placement the verifier rejected.
  std::vector<std::string> failures;
  // With --target/--fast-memory: memplan's plan does not fit the target
  // (CompareTimes::does_not_fit); `memplan compare` exits 1 after the table.
  std::string does_not_fit;
};

// Runs the comparison on `input_path` (with --reorder: on memplan's order,
// every reordering strategy's transient max-live in CompareTable::orders).
// Errors: InvalidArgument (exit 2) for
// bad input (LoadInput, CheckInputLimits with `alignment`), a bad output
// path (missing directory, a directory, the input itself), and a program
// with execution regions (`memplan plan` allocates those per region, not as
// one transient pool); Internal when memplan's own plan fails verification
// (a bug). A strategy whose placement the verifier rejects (an emulation
// bug) is reported with verified = false and its reason in `failures`, not
// as an error; the JSON is written all the same (atomically), and `memplan
// compare` then exits 1. So too when, with fast memory, memplan's plan does
// not fit the target: the arena table and the JSON are complete, the
// estimated-time section says why it has no rows (does_not_fit).
absl::StatusOr<CompareJobResult> RunCompareJob(const std::string& input_path,
                                               const CompareJobOptions& options);

}  // namespace memplan
