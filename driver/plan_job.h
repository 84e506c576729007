// The main job behind `memplan plan`: load -> plan pools -> verify -> render
// the requested outputs -> write them. Nothing is written unless the plan
// verified and every output rendered; each file is written atomically.
#pragma once

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "driver/input.h"
#include "driver/pools.h"
#include "ir/plan.h"

namespace memplan {

struct PlanJobOptions {
  LoadOptions load;
  PoolPlanOptions pools;
  std::optional<std::string> json_path;
  std::optional<std::string> svg_path;
  std::optional<std::string> html_path;
};

struct PlanJobResult {
  LoadedInput input;
  Plan plan;                               // verified
  std::optional<Bytes> peak_without_alias; // ONNX input with aliasing on
  std::string summary;                     // FormatPlanSummary
};

// Runs the job on `input_path`. Errors: InvalidArgument for bad input or an
// unwritable output path (exit 2), ResourceExhausted when the plan does not
// fit the capacity (exit 1), Internal when the plan fails verification (a
// planner bug; never reported as a plan).
absl::StatusOr<PlanJobResult> RunPlanJob(const std::string& input_path,
                                         const PlanJobOptions& options);

// Verifies `plan` against `buffers` with the plan's own alignment and space
// capacities. Errors: FailedPrecondition naming the first violated rule.
absl::Status VerifyAgainst(const BufferSet& buffers, const Plan& plan);

}  // namespace memplan
