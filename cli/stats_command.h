// `memplan stats`: lower bound and live-bytes profile, no planning.
#pragma once

#include "CLI/CLI.hpp"
#include "cli/input_flags.h"

namespace memplan::cli {

// Registers the `stats` verb and its flags on `app`.
CLI::App* AddStatsCommand(CLI::App& app, InputFlags& flags);

// Runs `memplan stats INPUT`: prints the lower bound and live-bytes profile.
int RunStats(const InputFlags& flags);

}  // namespace memplan::cli
