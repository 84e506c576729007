#include "execute/executor.h"

#include "execute/csv_run.h"
#include "execute/machine.h"
#include "execute/program_layout.h"
#include "execute/program_run.h"
#include "fmt/format.h"

namespace memplan {

absl::StatusOr<ExecuteReport> ExecutePlan(const BufferSet& buffers, const Plan& plan,
                                          const Program* program, const ExecuteOptions& options) {
  if (plan.placements.size() != buffers.buffers.size()) {
    return absl::InvalidArgumentError(fmt::format(
        "the plan places {} buffers but the input has {}: this plan is for another input",
        plan.placements.size(), buffers.buffers.size()));
  }
  ExecuteReport report;
  std::optional<ProgramLayout> layout;
  if (program != nullptr) {
    absl::StatusOr<ProgramLayout> laid_out = LayOutProgram(*program, buffers);
    if (!laid_out.ok()) return laid_out.status();
    if (laid_out->time_steps != plan.time_steps) {
      return absl::InvalidArgumentError(fmt::format(
          "the program runs {} time steps but the plan has {}: this plan is for another input",
          laid_out->time_steps, plan.time_steps));
    }
    layout = *std::move(laid_out);
  }
  ExecutionMachine machine(buffers, plan, report);
  if (absl::Status s = machine.AllocateArenas(options.max_arena_bytes); !s.ok()) return s;
  if (program != nullptr) {
    ProgramRun run(*program, *layout, machine, options);
    if (absl::Status s = run.Run(); !s.ok()) return s;
  } else {
    machine.StartClock();
    if (absl::Status s = RunLifetimeCsv(machine); !s.ok()) return s;
  }
  return report;
}

}  // namespace memplan
