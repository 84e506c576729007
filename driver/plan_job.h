// The main job behind `memplan plan`: load -> plan pools (with fast memory:
// memory space assignment first, driver/msa_job.h) -> verify -> render the
// requested outputs -> write them. Nothing is written unless the plan
// verified and every output rendered; each file is written atomically.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "driver/input.h"
#include "driver/msa_job.h"
#include "verify/verifier.h"
#include "driver/pools.h"
#include "driver/progress.h"
#include "driver/recorded_machine.h"
#include "ir/plan.h"
#include "ir/region_plan.h"

namespace memplan {

// As an output path: standard output (only for the JSON plan).
inline constexpr std::string_view kStdoutPath = "-";

struct PlanJobOptions {
  LoadOptions load;
  PoolPlanOptions pools;
  std::optional<std::string> json_path;    // kStdoutPath: into PlanJobResult::json_stdout
  std::optional<std::string> svg_path;
  std::optional<std::string> html_path;
  std::optional<std::string> profile_path; // live bytes per step as CSV (report/profile_csv.h)
  // The packing in MiniMalloc's output form (io/csv/solution_writer.h); a
  // lifetime CSV input only.
  std::optional<std::string> csv_path;
  std::optional<MsaJobOptions> msa;        // plan fast memory too
  // TFLite input: a copy of the model with the plan as its offline plan
  // (driver/tflite_offline.h, TfliteWithPlan).
  std::optional<std::string> tflite_path;
  // ONNX input: a copy of the model with its main graph's nodes in the
  // plan's order (driver/onnx_order.h, OnnxInPlanOrder).
  std::optional<std::string> onnx_path;
  std::optional<std::string> emit_ir_path; // with msa: the rewritten program (text IR);
                                           // with regions: the command form
  // HLO input with msa: the module rewritten with the plan's memory spaces
  // and copies (io/hlo/emitter.h).
  std::optional<std::string> emit_hlo_path;
  // Execution-region allocation (regions/): used when the program has
  // regions. `regions_given` says the flags were set explicitly (an error
  // for an input without regions).
  RegionPlanOptions regions;
  bool regions_given = false;
  // ONNX with aliasing: plan once more without aliasing to report the saving
  // (PlanJobResult::aliasing). Sweeps turn it off: it doubles the work.
  bool measure_aliasing = true;
  // `--timings`: the summary and the JSON also give the packing members'
  // wall-clock seconds (they differ from run to run; off keeps the output
  // byte-identical for the same input and options).
  bool timings = false;
  // Phases reported here as they start (driver/progress.h); null: none.
  ProgressReporter* progress = nullptr;
};

struct PlanJobResult {
  LoadedInput input;
  Plan plan;                               // verified
  std::optional<AliasingSaving> aliasing;  // ONNX input with aliasing on
  std::optional<MsaJobResult> msa;         // when fast memory was planned
  std::string summary;                     // FormatPlanSummary
  std::optional<std::string> json_stdout;  // the JSON plan when json_path is kStdoutPath
};

// Runs the job on `input_path`. Every error message is one line in the
// CLI's form: `path[:line:col]: error: ...`, or `memplan: error: ...` when no
// file is concerned. Errors: InvalidArgument (exit 2) for bad input (LoadInput),
// an input past the limits with `pools.alignment` (CheckInputLimits), an
// output path whose directory does not exist, that is a directory, that is
// the input or that another output also names, --emit-ir without fast memory,
// --csv for an input that is not a lifetime CSV, --write-tflite or
// --write-onnx for an input in another format,
// fast memory for a CSV input (no program, no costs), or a bad target or MSA
// knob; ResourceExhausted `input: error: ...` when the plan does not fit the
// capacity (exit 1); FailedPrecondition when the rewrite for --emit-ir is
// impossible (exit 1); Internal when the plan fails verification (a planner
// bug; never reported as a plan). Nothing is written on any error. The JSON
// records the load options (input_options) and, with fast memory, the
// target, mode and winning variant. A json_path of kStdoutPath ("-") is not
// written: the JSON is returned in json_stdout, for the caller to print once
// every file is written. Outputs follow symbolic links and write special files
// (/dev/null, FIFOs) directly (io/file_io.h).
// `loaded`: the input already loaded (e.g. the Python package's buffer
// lists, read with ReadLifetimeCsv); `input_path` then only names it in
// messages and the JSON, and options.load is not used to load it.
absl::StatusOr<PlanJobResult> RunPlanJob(const std::string& input_path,
                                         const PlanJobOptions& options,
                                         std::optional<LoadedInput> loaded = std::nullopt);

// Checks a saved plan (read back with ReadPlanJson) against the input it was
// made for, as `memplan verify` does: the input limits at the plan's
// alignment, VerifyAgainst with the plan's outstanding-copy limits, and the
// regions' allocations when the program has regions. Errors:
// InvalidArgument for an input past the limits; FailedPrecondition naming
// the first violated rule (a program with regions and a plan without a
// regions block is one).
// With `machine` (the plan's recorded target, driver/recorded_machine.h) and
// fast memory in the plan, the alternate space is checked against the
// target resolved again — its capacity and alignment — not the numbers the
// plan records (WithResolvedMachine; its errors too); on a hierarchy target
// also its rules (rule 15) and, for a plan without regions, its
// msa.time_all_default_fits against AllSlowestWritableDoesNotFit computed
// again (FailedPrecondition "the MSA statistics report
// time_all_default_fits = false, but every buffer in the slowest writable
// space 'sram' fits it ..." when they differ).
absl::Status VerifySavedPlan(const LoadedInput& input, const Plan& plan,
                             const std::optional<RecordedMachine>& machine = std::nullopt);

// Verifies `plan` against `buffers` with the plan's own alignment and space
// capacities, and the outstanding-copy limits when given (< 0: unlimited).
// With the `program` the buffers were analysed from, buffers may share bytes
// at steps where one holds no data (conditional branches, VerifyOptions::program);
// without it, at the dead gaps a lifetime CSV states (VerifyOptions::input_gaps).
// With `hierarchy`, also the rules of a memory hierarchy (rule 15).
// Errors: FailedPrecondition naming the first violated rule.
absl::Status VerifyAgainst(const BufferSet& buffers, const Plan& plan,
                           std::int64_t max_outstanding_prefetches = -1,
                           std::int64_t max_outstanding_evictions = -1,
                           const Program* program = nullptr,
                           const HierarchyRules* hierarchy = nullptr);

}  // namespace memplan
