// `memplan compare`: other planners' arenas beside memplan's plan.
#pragma once

#include <string>

#include "CLI/CLI.hpp"
#include "cli/input_flags.h"
#include "cli/msa_flags.h"

namespace memplan::cli {

struct CompareFlags {
  InputFlags input;
  std::string alignment = "1";
  std::string json;
  const CLI::Option* json_option = nullptr;
  bool quiet = false;  // no table (the JSON still goes to --json) and no progress line
  bool timings = false;  // with --reorder: the reordering strategies' seconds
  MsaFlags msa;          // --target and --fast-memory only
};

// Registers the `compare` verb and its flags on `app`.
CLI::App* AddCompareCommand(CLI::App& app, CompareFlags& flags);

// `memplan compare`: the table on stdout (or the JSON alone with --json -);
// exit 1 when a strategy's placement failed verification.
int RunCompare(const CompareFlags& flags);

}  // namespace memplan::cli
