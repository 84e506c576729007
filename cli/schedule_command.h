// `memplan schedule INPUT`: each reordering strategy's transient max-live
// (and with --timings its seconds), the order-independent bound, and the
// order kept (docs/reorder.md).
#pragma once

#include "CLI/CLI.hpp"
#include "cli/input_flags.h"

namespace memplan::cli {

struct ScheduleFlags {
  InputFlags input;
  bool timings = false;  // each strategy's wall-clock seconds (vary from run to run)
};

// Registers the `schedule` verb and its flags on `app`.
CLI::App* AddScheduleCommand(CLI::App& app, ScheduleFlags& flags);

// Runs `memplan schedule`: reorders (schedule/reorder.h), verifies the new
// order (verify/schedule_checks.h) and prints the table and the order.
// Returns the exit code: 2 for bad input (a lifetime CSV included).
int RunSchedule(const ScheduleFlags& flags);

}  // namespace memplan::cli
