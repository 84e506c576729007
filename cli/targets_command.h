// `memplan targets`: the preset machines for --target.
#pragma once

#include "CLI/CLI.hpp"

namespace memplan::cli {

// Registers the `targets` verb on `app`.
CLI::App* AddTargetsCommand(CLI::App& app);

// Runs `memplan targets`: one line per preset machine.
int RunTargets();

}  // namespace memplan::cli
