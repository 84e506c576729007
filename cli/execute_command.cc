#include "cli/execute_command.h"

#include <iostream>

#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/saved_plan.h"
#include "driver/execute_job.h"
#include "fmt/format.h"
#include "ir/diagnostic.h"
#include "ir/plural.h"

namespace memplan::cli {

int RunExecute(const ExecuteFlags& execute_flags) {
  const std::string& plan_path = execute_flags.plan;
  absl::StatusOr<LoadOptions> flags = ToLoadOptions(execute_flags.input);
  if (!flags.ok()) return Fail(flags.status());
  absl::StatusOr<SavedPlan> saved = LoadSavedPlan(execute_flags.input, *flags, plan_path, "execute");
  if (!saved.ok()) return Fail(saved.status());
  absl::StatusOr<ExecuteReport> report = ExecuteSavedPlan(saved->input, saved->plan);
  // A plan that is not for this input, or one the executor cannot run
  // (window prefetches): usage, not a clobbered read.
  if (report.status().code() == absl::StatusCode::kInvalidArgument ||
      report.status().code() == absl::StatusCode::kUnimplemented) {
    return Fail(LocatedError(plan_path, SourceLocation{}, std::string(report.status().message())));
  }
  if (!report.ok()) {
    PrintError(fmt::format("{}: error: execution failed: {}", plan_path,
                           std::string(report.status().message())));
    return kExitPlanningFailure;
  }
  if (execute_flags.quiet) return kExitOk;
  std::cout << fmt::format(
      "{}: plan executed: {}, {}, {}; {} written, {} checked, in {} of arenas; every read found "
      "its producer's data\n",
      plan_path, CountOf(report->ops, "op run"), CountOf(report->commands, "region command"),
      CountOf(report->copies, "async copy", "async copies"), CountOf(report->bytes_written, "byte"),
      CountOf(report->bytes_checked, "byte"), CountOf(report->arena_bytes, "byte"));
  return kExitOk;
}

CLI::App* AddExecuteCommand(CLI::App& app, ExecuteFlags& flags) {
  CLI::App* execute = app.add_subcommand(
      "execute", "run a saved JSON plan on real byte arenas and check every read");
  AddInputFlags(execute, flags.input);
  execute->add_option("PLAN", flags.plan, "plan JSON written by memplan plan --json")->required();
  execute->add_flag("--quiet,-q", flags.quiet, "print nothing on success");
  return execute;
}

}  // namespace memplan::cli
