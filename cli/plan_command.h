// `memplan plan`: plan buffer offsets, verify, print a summary.
#pragma once

#include <string>
#include <utility>
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
  double time_limit = 0;           // auto's or exact's wall-clock limit in seconds; 0 = none
  bool timings = false;            // members' seconds in the summary and JSON
  std::string alignment = "1";
  std::vector<std::string> capacities;  // BYTES or POOL=BYTES, repeatable
  std::string json, svg, html, profile;
  std::string csv;  // the packing in MiniMalloc's output form (lifetime CSV input)
  std::string write_tflite;  // TFLite input: a copy with the plan as its offline plan
  std::string write_onnx;    // ONNX input: a copy with its nodes in the plan's order
  bool offline_plan = false;  // TFLite input: keep the model's offline plan's offsets
  bool quiet = false;
  bool minimize = false;    // --minimize (--algorithm exact)
  MsaFlags msa;
  RegionFlags regions;
  const CLI::Option* json_option = nullptr;
  const CLI::Option* profile_option = nullptr;
  const CLI::Option* svg_option = nullptr;
  const CLI::Option* html_option = nullptr;
  const CLI::Option* csv_option = nullptr;
  const CLI::Option* write_tflite_option = nullptr;
  const CLI::Option* write_onnx_option = nullptr;
  const CLI::Option* effort_option = nullptr;
  const CLI::Option* time_limit_option = nullptr;
  const CLI::Option* timings_option = nullptr;
};

// Registers the `plan` verb and its flags on `app`.
CLI::App* AddPlanCommand(CLI::App& app, PlanFlags& flags);

// The plan job's options from `flags`. Errors: usage errors (exit 2).
absl::StatusOr<PlanJobOptions> ToPlanJobOptions(const PlanFlags& flags);

// Runs `memplan plan`: plans, verifies, writes the outputs asked for and
// prints the summary; returns the exit code.
int RunPlan(const PlanFlags& flags);

// The plan job's options and input path from `args`, the arguments of
// `memplan plan` without the program and verb names (INPUT and flags, e.g.
// {"model.onnx", "--fast-memory", "2MiB"}), parsed and checked exactly as
// the command line does: for programs that embed memplan (the Python
// package). Errors: InvalidArgument `memplan: error: ...` (the CLI's exit 2
// message) for a parse or usage error; --help and --version are errors here.
absl::StatusOr<std::pair<std::string, PlanJobOptions>> ParsePlanArguments(
    const std::vector<std::string>& args);

// Every packing algorithm's flag name, comma-separated (for help texts).
std::string AlgorithmChoices();

}  // namespace memplan::cli
