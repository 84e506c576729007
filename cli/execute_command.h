// `memplan execute`: run a saved JSON plan on real byte arenas.
#pragma once

#include <string>

#include "CLI/CLI.hpp"
#include "cli/input_flags.h"

namespace memplan::cli {

struct ExecuteFlags {
  InputFlags input;
  std::string plan;    // the plan JSON
  bool quiet = false;  // print nothing on success
};

// Registers the `execute` verb and its flags on `app`.
CLI::App* AddExecuteCommand(CLI::App& app, ExecuteFlags& flags);

// Runs `memplan execute INPUT PLAN.json`: loads the input as the plan
// records, runs the plan on byte arenas (execute/executor.h) and prints what
// ran. Exit 1 when a read finds bytes its producer did not write (`PLAN:
// error: execution failed: op %y (step 4) reads %x: ...`), 2 for bad input.
int RunExecute(const ExecuteFlags& flags);

}  // namespace memplan::cli
