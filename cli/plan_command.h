// `memplan plan`: plan buffer offsets, verify, print a summary.
#pragma once

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "cli/input_flags.h"
#include "cli/msa_flags.h"
#include "cli/region_flags.h"
#include "driver/plan_job.h"

namespace memplan::cli {

struct PlanFlags {
  InputFlags input;
  std::string algorithm = "auto";
  std::string effort = "default";  // auto's effort: fast, default or max
  double time_limit = 0;           // auto's wall-clock limit in seconds; 0 = none
  bool timings = false;            // members' seconds in the summary and JSON
  std::string alignment = "1";
  std::vector<std::string> capacities;  // BYTES or POOL=BYTES, repeatable
  std::string json, svg, html, profile;
  bool quiet = false;
  MsaFlags msa;
  RegionFlags regions;
  const CLI::Option* json_option = nullptr;
  const CLI::Option* profile_option = nullptr;
  const CLI::Option* svg_option = nullptr;
  const CLI::Option* html_option = nullptr;
};

// Registers the `plan` verb and its flags on `app`.
CLI::App* AddPlanCommand(CLI::App& app, PlanFlags& flags);

// The plan job's options from `flags`. Errors: usage errors (exit 2).
absl::StatusOr<PlanJobOptions> ToPlanJobOptions(const PlanFlags& flags);

// Runs `memplan plan`: plans, verifies, writes the outputs asked for and
// prints the summary; returns the exit code.
int RunPlan(const PlanFlags& flags);

// Every packing algorithm's flag name, comma-separated (for help texts).
std::string AlgorithmChoices();

}  // namespace memplan::cli
