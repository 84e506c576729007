// Plans an input with the driver and runs the executor on the plan (or on a
// broken copy of it), for the tests of execute/.
#pragma once

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "driver/plan_job.h"
#include "execute/executor.h"

namespace memplan::execute_testing {

// Plans `path` (fast memory of `fast_memory_bytes` when set, on `target` (a
// preset name or a target file) when not empty, text IR dims bound as
// `dims`); fails the test when planning fails.
inline PlanJobResult PlanForExecution(const std::string& path,
                                      std::optional<Bytes> fast_memory_bytes = std::nullopt,
                                      std::map<std::string, std::int64_t> dims = {},
                                      const std::string& target = "") {
  PlanJobOptions options;
  options.load.dims = std::move(dims);
  options.measure_aliasing = false;
  options.pools.effort = PackEffort::kFast;
  if (fast_memory_bytes || !target.empty()) {
    options.msa.emplace();
    options.msa->fast_memory_bytes = fast_memory_bytes;
    if (!target.empty()) options.msa->target = target;
  }
  absl::StatusOr<PlanJobResult> result = RunPlanJob(path, options);
  EXPECT_TRUE(result.ok()) << path << ": " << result.status();
  return result.ok() ? *std::move(result) : PlanJobResult{};
}

inline absl::StatusOr<ExecuteReport> Execute(const PlanJobResult& planned, const Plan& plan) {
  const Program* program = planned.input.program ? &*planned.input.program : nullptr;
  return ExecutePlan(planned.input.buffers, plan, program);
}

// The placement of the buffer named `name` in `plan`.
inline BufferPlacement& PlacementOf(const PlanJobResult& planned, Plan& plan,
                                    const std::string& name) {
  for (std::size_t b = 0; b < planned.input.buffers.buffers.size(); ++b) {
    if (planned.input.buffers.buffers[b].name == name) return plan.placements[b];
  }
  ADD_FAILURE() << "no buffer " << name;
  return plan.placements.front();
}

}  // namespace memplan::execute_testing
