// `memplan verify`: re-check a saved JSON plan against its input.
#pragma once

#include <string>

#include "CLI/CLI.hpp"
#include "cli/input_flags.h"

namespace memplan::cli {

struct VerifyFlags {
  InputFlags input;
  std::string plan;  // the plan JSON, or a CSV solution (by its .csv extension)
  bool quiet = false;  // print nothing on success (errors are still printed)
  // --capacity BYTES: with a CSV solution, no buffer may end above it (a
  // JSON plan records its own capacity: there it is a usage error).
  std::string capacity;
  CLI::Option* capacity_option = nullptr;
};

// Registers the `verify` verb and its flags on `app`.
CLI::App* AddVerifyCommand(CLI::App& app, VerifyFlags& flags);

// Runs `memplan verify INPUT PLAN`: re-loads the input as the plan records
// and checks the plan with the independent verifier; exit 1 when it fails.
// A PLAN ending in .csv is a solution in MiniMalloc's output form for a
// lifetime CSV INPUT (driver/csv_solution.h), held to --capacity when given
// (exit 1 when a buffer ends above it; --capacity with a JSON plan is a
// usage error, exit 2).
int RunVerify(const VerifyFlags& flags);

}  // namespace memplan::cli
