// `memplan verify`: re-check a saved JSON plan against its input.
#pragma once

#include <string>

#include "CLI/CLI.hpp"
#include "cli/input_flags.h"

namespace memplan::cli {

struct VerifyFlags {
  InputFlags input;
  std::string plan;  // the plan JSON
  bool quiet = false;  // print nothing on success (errors are still printed)
};

// Registers the `verify` verb and its flags on `app`.
CLI::App* AddVerifyCommand(CLI::App& app, VerifyFlags& flags);

// Runs `memplan verify INPUT PLAN`: re-loads the input as the plan records
// and checks the plan with the independent verifier; exit 1 when it fails.
int RunVerify(const VerifyFlags& flags);

}  // namespace memplan::cli
