#include "cli/commands.h"

#include <algorithm>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "cli/cli_support.h"
#include "cli/compare_command.h"
#include "cli/did_you_mean.h"
#include "cli/execute_command.h"
#include "cli/parse_error.h"
#include "cli/plan_command.h"
#include "cli/schedule_command.h"
#include "cli/stats_command.h"
#include "cli/sweep_command.h"
#include "cli/targets_command.h"
#include "cli/verify_command.h"
#include "packing/parallel_tasks.h"
#include "fmt/format.h"

namespace memplan {

int RunCli(int argc, char** argv) {
  using namespace cli;
  CLI::App app{"memplan: plans where every tensor buffer of an ML model lives"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "memplan 0.1.0");

  PlanFlags plan_flags;
  VerifyFlags verify_flags;
  InputFlags stats_flags;
  CompareFlags compare_flags;
  SweepFlags sweep_flags;
  ExecuteFlags execute_flags;
  ScheduleFlags schedule_flags;
  CLI::App* plan = AddPlanCommand(app, plan_flags);
  CLI::App* verify = AddVerifyCommand(app, verify_flags);
  CLI::App* stats = AddStatsCommand(app, stats_flags);
  CLI::App* compare = AddCompareCommand(app, compare_flags);
  CLI::App* sweep = AddSweepCommand(app, sweep_flags);
  CLI::App* execute = AddExecuteCommand(app, execute_flags);
  CLI::App* schedule = AddScheduleCommand(app, schedule_flags);
  CLI::App* targets = AddTargetsCommand(app);
  const CLI::App* verbs[] = {plan, verify, execute, stats, schedule, compare, sweep, targets};

  // CLI11 would report an unknown verb as a missing one.
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(std::begin(verbs), std::end(verbs),
                   [&](const CLI::App* verb) { return verb->get_name() == argv[1]; })) {
    std::vector<std::string> names;
    for (const CLI::App* verb : verbs) names.push_back(verb->get_name());
    const std::optional<std::string> closest = ClosestName(argv[1], names);
    return Fail(UsageError(fmt::format(
        "unknown command '{}' ({}expected plan, verify, execute, stats, schedule, compare, sweep or targets; "
        "see memplan --help)",
        argv[1], closest ? fmt::format("did you mean {}? ", *closest) : "")));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    const CLI::App* verb = nullptr;
    for (const CLI::App* v : verbs) {
      if (v->parsed()) verb = v;
    }
    PrintError(fmt::format("memplan: error: {} (see memplan --help)", ParseErrorMessage(e, app, verb)));
    return kExitBadInput;
  }
  if (const std::string problem = PackingThreadsProblem(); !problem.empty()) {
    return Fail(UsageError(problem));
  }
  if (plan->parsed()) return RunPlan(plan_flags);
  if (verify->parsed()) return RunVerify(verify_flags);
  if (execute->parsed()) return RunExecute(execute_flags);
  if (sweep->parsed()) return RunSweep(sweep_flags);
  if (targets->parsed()) return RunTargets();
  if (schedule->parsed()) return RunSchedule(schedule_flags);
  if (compare->parsed()) return RunCompare(compare_flags);
  return RunStats(stats_flags);
}

}  // namespace memplan
