// `memplan sweep`: plan's flags, with lists for --dim and --fast-memory.
#pragma once

#include <string>

#include "CLI/CLI.hpp"
#include "cli/plan_command.h"

namespace memplan::cli {

// `memplan sweep`: plan's flags, with lists for --dim and --fast-memory.
struct SweepFlags {
  PlanFlags plan;
  std::string csv, svg;
  std::string batch;  // --batch 1,2,4,8
  const CLI::Option* batch_option = nullptr;
  const CLI::Option* csv_option = nullptr;
  const CLI::Option* svg_option = nullptr;
};

// Registers the `sweep` verb and its flags on `app`.
CLI::App* AddSweepCommand(CLI::App& app, SweepFlags& flags);

// Runs `memplan sweep`: plans every point, prints the table, writes --csv
// and --svg; exit 1 when a point does not fit.
int RunSweep(const SweepFlags& flags);

}  // namespace memplan::cli
