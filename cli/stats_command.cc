#include "cli/stats_command.h"

#include <iostream>

#include "cli/cli_support.h"
#include "cli/commands.h"
#include "driver/plan_job.h"
#include "report/summary.h"

namespace memplan::cli {

int RunStats(const InputFlags& input_flags) {
  absl::StatusOr<LoadOptions> load = ToLoadOptions(input_flags);
  if (!load.ok()) return Fail(load.status());
  absl::StatusOr<LoadedInput> input = LoadInput(input_flags.input, *load);
  if (!input.ok()) return Fail(input.status());
  std::cout << FormatStats(SummaryInputOf(*input));
  return kExitOk;
}


CLI::App* AddStatsCommand(CLI::App& app, InputFlags& flags) {
  CLI::App* stats = app.add_subcommand("stats", "lower bound and live-bytes profile, no planning");
  AddInputFlags(stats, flags);
  return stats;
}

}  // namespace memplan::cli
