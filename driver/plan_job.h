// The main job behind `memplan plan`: load -> plan pools (with fast memory:
// memory space assignment first, driver/msa_job.h) -> verify -> render the
// requested outputs -> write them. Nothing is written unless the plan
// verified and every output rendered; each file is written atomically.
#pragma once

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "driver/input.h"
#include "driver/msa_job.h"
#include "driver/pools.h"
#include "ir/plan.h"

namespace memplan {

struct PlanJobOptions {
  LoadOptions load;
  PoolPlanOptions pools;
  std::optional<std::string> json_path;
  std::optional<std::string> svg_path;
  std::optional<std::string> html_path;
  std::optional<MsaJobOptions> msa;        // plan fast memory too
  std::optional<std::string> emit_ir_path; // with msa: the rewritten program (text IR)
};

struct PlanJobResult {
  LoadedInput input;
  Plan plan;                               // verified
  std::optional<Bytes> peak_without_alias; // ONNX input with aliasing on
  std::optional<MsaJobResult> msa;         // when fast memory was planned
  std::string summary;                     // FormatPlanSummary
};

// Runs the job on `input_path`. Errors: InvalidArgument for bad input, an
// unwritable output path, --emit-ir without fast memory, or fast memory for
// a CSV input (no program, no costs) (exit 2); ResourceExhausted when the plan
// does not fit the capacity (exit 1); FailedPrecondition when the rewrite for
// --emit-ir is impossible (exit 1); Internal when the plan fails verification
// (a planner bug; never reported as a plan).
absl::StatusOr<PlanJobResult> RunPlanJob(const std::string& input_path,
                                         const PlanJobOptions& options);

// Verifies `plan` against `buffers` with the plan's own alignment and space
// capacities, and the outstanding-copy limits when given (< 0: unlimited).
// Errors: FailedPrecondition naming the first violated rule.
absl::Status VerifyAgainst(const BufferSet& buffers, const Plan& plan,
                           std::int64_t max_outstanding_prefetches = -1,
                           std::int64_t max_outstanding_evictions = -1);

}  // namespace memplan
